#include "cmd_experiments.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "common/error.h"

namespace simtsync::tools {

namespace fs = std::filesystem;

bool is_experiments_command(std::string_view name) {
  return name == "sweep" || name == "report";
}

int exec_experiments(int argc, char** argv) {
  // SIMTSYNC_EXPERIMENTS_DIR overrides where the scripts live (a copy outside the source tree);
  // by default they are read from the source tree this binary was built from.
  const char* dir_env = std::getenv("SIMTSYNC_EXPERIMENTS_DIR");
  const fs::path dir =
      dir_env ? fs::path(dir_env) : fs::path(SIMTSYNC_SOURCE_DIR) / "tools/experiments";
  const fs::path script = dir / "simtsync_exp.py";
  std::error_code ec;
  if (!fs::is_regular_file(script, ec)) {
    fmt::print(
        stderr,
        "simtsync: error: experiment engine not found at {} (set SIMTSYNC_EXPERIMENTS_DIR)\n",
        script.string());
    return static_cast<int>(ExitCode::kUsage);
  }
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) setenv("SIMTSYNC_BIN", self.c_str(), 1);
  if (!std::getenv("SIMTSYNC_SOURCE_DIR")) setenv("SIMTSYNC_SOURCE_DIR", SIMTSYNC_SOURCE_DIR, 1);
  // Debian's interpreter, where scripts/setup.sh installs python3-yaml and python3-matplotlib,
  // even when another python3 comes first on PATH; SIMTSYNC_PYTHON chooses another.
  const char* py_env = std::getenv("SIMTSYNC_PYTHON");
  const std::string python = py_env                                  ? py_env
                             : access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3"
                                                                     : "python3";
  std::vector<std::string> args = {python, script.string()};
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  std::vector<char*> cargs;
  for (auto& a : args) cargs.push_back(a.data());
  cargs.push_back(nullptr);
  execvp(python.c_str(), cargs.data());
  fmt::print(stderr, "simtsync: error: cannot run {}: {}\n", python, std::strerror(errno));
  return static_cast<int>(ExitCode::kUsage);
}

}  // namespace simtsync::tools
