#include "output_file.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>
#include <system_error>

#include "common/error.h"
#include "common/host_memory.h"

namespace simtsync::tools {
namespace {

Error cannot_write(const char* what, const std::string& path, int err) {
  return usage_error(fmt::format("cannot write {} '{}': {}", what, path, std::strerror(err)));
}

}  // namespace

void check_output_path(const std::string& path, const char* what) {
  if (path.empty()) throw usage_error(fmt::format("empty path for {}", what));
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw cannot_write(what, path, EISDIR);
    if (::access(path.c_str(), W_OK) != 0) throw cannot_write(what, path, errno);
    return;
  }
  if (errno != ENOENT) throw cannot_write(what, path, errno);
  const auto slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  if (::stat(dir.c_str(), &st) != 0) throw cannot_write(what, path, errno);
  if (!S_ISDIR(st.st_mode)) throw cannot_write(what, path, ENOTDIR);
  if (::access(dir.c_str(), W_OK | X_OK) != 0) throw cannot_write(what, path, errno);
}

void write_output_file(const std::string& path, const std::string& text, const char* what) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw cannot_write(what, path, errno);
  errno = 0;
  const bool wrote = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  int err = errno;
  const bool flushed = wrote && std::fflush(f) == 0;
  if (wrote && !flushed) err = errno;
  const bool closed = std::fclose(f) == 0;
  if (wrote && flushed && !closed) err = errno;
  if (!wrote || !flushed || !closed) throw cannot_write(what, path, err ? err : EIO);
}

void flush_stdout() {
  errno = 0;
  std::cout.flush();
  int err = errno;  // the reason of a failed write of buffered output
  if (std::fflush(stdout) != 0 && errno) err = errno;
  if (!std::cout.good() || std::ferror(stdout))
    throw usage_error(
        fmt::format("cannot write standard output: {}", std::strerror(err ? err : EIO)));
}

std::string shorten_long_values(const std::string& message) {
  constexpr std::size_t kLong = 200, kKeep = 80;
  std::string out;
  std::size_t i = 0;
  while (i < message.size()) {
    const std::size_t end = message.find_first_of(" \t\n'\":,", i);
    const std::size_t stop = end == std::string::npos ? message.size() : end;
    if (stop - i > kLong)
      out += message.substr(i, kKeep) + fmt::format("...({} more characters)", stop - i - kKeep);
    else
      out += message.substr(i, stop - i);
    if (stop < message.size()) out += message[stop];
    i = stop + 1;
  }
  return out;
}

int run_guarded(const std::function<int()>& body) {
  try {
    return body();
  } catch (const Error& e) {
    fmt::print(stderr, "simtsync: error: {}\n", shorten_long_values(e.what()));
    return static_cast<int>(e.code());
  } catch (const std::system_error& e) {  // fmt::print to a failing stdout
    fmt::print(stderr, "simtsync: error: cannot write standard output: {}\n", e.what());
    return static_cast<int>(ExitCode::kUsage);
  } catch (const std::bad_alloc& e) {
    fmt::print(stderr, "simtsync: error: {}\n", shorten_long_values(out_of_host_memory(e)));
    return static_cast<int>(ExitCode::kUsage);
  }
}

}  // namespace simtsync::tools
