// Helpers for the config tests: temporary YAML files and "this call fails with a usage error
// whose message contains all of these pieces".
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/error.h"
#include "config/config.h"

namespace simtsync::config::testing {

// A YAML file in the temp directory, removed when the object dies.
class TempYaml {
 public:
  explicit TempYaml(const std::string& text, const std::string& stem = "test_cfg") {
    static int counter = 0;
    path_ = (std::filesystem::temp_directory_path() /
             (stem + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ".yaml"))
                .string();
    std::ofstream(path_) << text;
  }
  ~TempYaml() { std::filesystem::remove(path_); }
  const std::string& path() const { return path_; }
  std::string file_name() const { return std::filesystem::path(path_).filename().string(); }

 private:
  std::string path_;
};

// Runs `f`, expects Error(kUsage) and returns its message ("" when none was thrown).
template <typename F>
std::string usage_message(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kUsage) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no usage error was thrown";
  return "";
}

inline void expect_mentions(const std::string& msg, const std::vector<std::string>& pieces) {
  for (const auto& p : pieces) EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
}

}  // namespace simtsync::config::testing
