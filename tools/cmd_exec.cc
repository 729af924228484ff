#include "cmd_exec.h"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/error.h"

namespace simtsync::tools {
namespace fs = std::filesystem;

std::string cudart_dir() {
  auto has = [](const fs::path& d) { return fs::exists(d / "libcudart.so.13"); };
  if (const char* e = std::getenv("SIMTSYNC_CUDART_DIR"); e && *e) return has(e) ? e : "";
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec && has(self.parent_path().parent_path() / "lib"))
    return (self.parent_path().parent_path() / "lib").string();
#ifdef SIMTSYNC_CUDART_BUILD_DIR
  if (has(SIMTSYNC_CUDART_BUILD_DIR)) return SIMTSYNC_CUDART_BUILD_DIR;
#endif
  return "";
}

int cmd_exec(const ExecOptions& o) {
  if (o.command.empty())
    throw usage_error("exec: no program given (simtsync exec -- PROGRAM ARGS)");
  const std::string dir = cudart_dir();
  if (dir.empty())
    throw usage_error(
        "exec: the simulator's CUDA runtime (libcudart.so.13 from libsimtsync_cudart.so) is not "
        "built; it needs the CUDA toolkit's headers at configure time (docs/cuda-runtime.md)");
  // The statistics file tells us whether the simulator stopped a kernel.
  std::string json = o.json_path;
  bool temp_json = false;
  if (json.empty()) {
    json = (fs::temp_directory_path() / fmt::format("simtsync-exec-{}.json", getpid())).string();
    temp_json = true;
  }
  std::string sets;
  for (const auto& s : o.sets) {
    if (s.find('=') == std::string::npos || s.front() == '=')
      throw usage_error(fmt::format("--set expects key=value, got '{}'", s));
    sets += s + "\n";
  }
  const char* old_path = std::getenv("LD_LIBRARY_PATH");
  const std::string path = dir + (old_path && *old_path ? std::string(":") + old_path : "");

  const pid_t pid = fork();
  if (pid < 0) throw usage_error("exec: fork failed");
  if (pid == 0) {
    setenv("LD_LIBRARY_PATH", path.c_str(), 1);
    setenv("SIMTSYNC_JSON", json.c_str(), 1);
    if (!o.config.empty()) setenv("SIMTSYNC_CONFIG", o.config.c_str(), 1);
    if (!o.mode.empty()) setenv("SIMTSYNC_MODE", o.mode.c_str(), 1);
    if (!sets.empty()) {
      const char* prev = std::getenv("SIMTSYNC_SET");
      const std::string all = (prev && *prev ? std::string(prev) + "\n" : "") + sets;
      setenv("SIMTSYNC_SET", all.c_str(), 1);
    }
    if (o.threads) setenv("SIMTSYNC_THREADS", std::to_string(o.threads).c_str(), 1);
    if (o.quiet) setenv("SIMTSYNC_QUIET", "1", 1);
    std::vector<char*> argv;
    for (const auto& a : o.command) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "simtsync: error: exec: cannot start '%s': %s\n", argv[0],
                 std::strerror(errno));
    std::_Exit(static_cast<int>(ExitCode::kUsage));
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw usage_error("exec: waitpid failed");
  }
  int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (WIFSIGNALED(status))
    std::fprintf(stderr, "simtsync exec: %s died of signal %d\n", o.command[0].c_str(),
                 WTERMSIG(status));
  std::ifstream f(json);
  if (f) {
    try {
      const nlohmann::json j = nlohmann::json::parse(f);
      const int sim_rc = j.value("exit_code", 0);
      if (sim_rc != 0) {
        std::fprintf(stderr, "simtsync exec: the simulator stopped a kernel (exit code %d): %s\n",
                     sim_rc, j.value("message", std::string()).c_str());
        rc = sim_rc;
      } else if (!o.quiet) {
        std::fprintf(stderr,
                     "simtsync exec: %s exited with %d: %zu kernel launches, %llu cycles, %llu "
                     "warp instructions (%s, %s mode)\n",
                     o.command[0].c_str(), rc, j["launches"].size(),
                     static_cast<unsigned long long>(j.value("cycles", 0ull)),
                     static_cast<unsigned long long>(j.value("warp_instructions", 0ull)),
                     j.value("config", std::string()).c_str(),
                     j.value("mode", std::string()).c_str());
      }
    } catch (const nlohmann::json::exception&) {
      std::fprintf(stderr, "simtsync exec: unreadable statistics in %s\n", json.c_str());
    }
  } else if (!o.quiet) {
    std::fprintf(stderr, "simtsync exec: %s exited with %d without using the CUDA runtime\n",
                 o.command[0].c_str(), rc);
  }
  if (temp_json) fs::remove(json);
  return rc;
}

}  // namespace simtsync::tools
