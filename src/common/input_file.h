// Opening the files a command reads (PTX, CUDA sources, YAML configs). Only regular files (or
// links to them) are inputs: a directory would otherwise read as an empty file, and a device or
// FIFO could block forever, so both are usage errors (exit 2) that name the path.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "common/error.h"

namespace simtsync {

// Throws a usage error unless `path` names an existing regular file. `what` says what the file
// was for ("PTX file", "config file").
inline void require_regular_file(const std::string& path, std::string_view what) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st))
    throw usage_error("cannot read " + std::string(what) + " '" + path + "': no such file");
  if (fs::is_directory(st))
    throw usage_error("cannot read " + std::string(what) + " '" + path + "': it is a directory");
  if (!fs::is_regular_file(st))
    throw usage_error("cannot read " + std::string(what) + " '" + path + "': not a regular file");
}

// The whole content of a regular file; a usage error when it is missing, not a regular file or
// unreadable.
inline std::string read_input_file(const std::string& path, std::string_view what) {
  require_regular_file(path, what);
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  if (in) ss << in.rdbuf();
  if (!in || in.bad()) throw usage_error("cannot read " + std::string(what) + " '" + path + "'");
  return ss.str();
}

}  // namespace simtsync
