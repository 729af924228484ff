#include "cmd_exec.h"

#include <elf.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "common/error.h"
#include "output_file.h"

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

std::optional<ElfLinkage> elf_linkage(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return std::nullopt;
  auto read_at = [&](std::uint64_t off, void* dst, std::size_t n) {
    f.clear();
    f.seekg(static_cast<std::streamoff>(off));
    f.read(static_cast<char*>(dst), static_cast<std::streamsize>(n));
    return static_cast<std::size_t>(f.gcount()) == n;
  };
  Elf64_Ehdr eh{};
  if (!read_at(0, &eh, sizeof eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
      eh.e_shnum == 0 || eh.e_shnum > 65000)
    return std::nullopt;
  std::vector<Elf64_Shdr> sh(eh.e_shnum);
  if (!read_at(eh.e_shoff, sh.data(), sh.size() * sizeof(Elf64_Shdr))) return std::nullopt;
  auto read_string_table = [&](const Elf64_Shdr& s) {
    std::string t(std::min<std::uint64_t>(s.sh_size, 64u << 20), '\0');
    if (!read_at(s.sh_offset, t.data(), t.size())) t.clear();
    return t;
  };
  auto string_at = [](const std::string& t, std::uint64_t off) {
    return off < t.size() ? std::string(t.c_str() + off) : std::string();
  };
  ElfLinkage r;
  const std::string names =
      eh.e_shstrndx < sh.size() ? read_string_table(sh[eh.e_shstrndx]) : std::string();
  for (const auto& s : sh) {
    if (string_at(names, s.sh_name) == ".nv_fatbin") r.has_fatbin = true;
    if (s.sh_type != SHT_DYNAMIC || s.sh_link >= sh.size()) continue;
    r.dynamic = true;
    const std::string strtab = read_string_table(sh[s.sh_link]);
    std::vector<Elf64_Dyn> dyn(std::min<std::uint64_t>(s.sh_size / sizeof(Elf64_Dyn), 1u << 16));
    if (!read_at(s.sh_offset, dyn.data(), dyn.size() * sizeof(Elf64_Dyn))) continue;
    for (const auto& d : dyn) {
      if (d.d_tag == DT_NULL) break;
      if (d.d_tag == DT_NEEDED) r.needed.push_back(string_at(strtab, d.d_un.d_val));
    }
  }
  return r;
}

namespace {

// What `execvp` would run: PROGRAM itself when it has a '/', else the first match on PATH.
std::string resolve_program(const std::string& prog) {
  if (prog.find('/') != std::string::npos) return prog;
  const char* path = std::getenv("PATH");
  std::stringstream ss(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    const std::string cand = (dir.empty() ? std::string(".") : dir) + "/" + prog;
    if (::access(cand.c_str(), X_OK) == 0) return cand;
  }
  return "";
}

// Warnings for programs whose CUDA calls cannot reach the simulator's runtime (read from the
// ELF's dynamic section; a script or a program we cannot read gets none).
void warn_about_linkage(const std::string& prog) {
  const std::string path = resolve_program(prog);
  if (path.empty()) return;
  const auto elf = elf_linkage(path);
  if (!elf) return;
  bool shared_cudart = false;
  for (const auto& n : elf->needed) {
    if (n.rfind("libcudart.so", 0) == 0) {
      shared_cudart = true;
      if (n != "libcudart.so.13")
        std::fprintf(stderr,
                     "simtsync exec: warning: %s is linked against %s, not CUDA 13's "
                     "libcudart.so.13 that simtsync provides: its CUDA calls will not reach the "
                     "simulator; rebuild it with nvcc 13 and `-cudart shared`\n",
                     prog.c_str(), n.c_str());
    }
    if (n.rfind("libcublas", 0) == 0)
      std::fprintf(stderr,
                   "simtsync exec: warning: %s uses cuBLAS (%s), which simtsync does not "
                   "provide: cuBLAS calls go to NVIDIA's library and fail without a GPU "
                   "(cublasCreate returns an error); only kernels of the program itself are "
                   "simulated\n",
                   prog.c_str(), n.c_str());
  }
  if (elf->has_fatbin && !shared_cudart)
    std::fprintf(stderr,
                 "simtsync exec: warning: %s holds CUDA kernels but is not linked against the "
                 "shared CUDA runtime (libcudart.so): it was built with the static runtime "
                 "(nvcc's default), whose calls never reach the simulator (they fail with "
                 "\"CUDA driver version is insufficient\"); rebuild it with `nvcc -cudart "
                 "shared`\n",
                 prog.c_str());
}

// What the library reported on the outcome channel (runtime.cc, Runtime::report_outcome).
struct Outcome {
  bool used_runtime = false;
  std::string config, mode;
  unsigned long long launches = 0, cycles = 0, warp_instructions = 0;
  int sim_rc = 0;  // the first kernel the simulator stopped: 3, 4 or 5
  std::string sim_message;
  std::string json_error;  // the statistics file could not be written
};

Outcome read_outcome(const std::string& path) {
  Outcome o;
  std::ifstream f(path);
  std::string line;
  while (std::getline(f, line)) {
    std::vector<std::string> v;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, '\t');) v.push_back(x);
    if (v.empty()) continue;
    auto num = [&](std::size_t i) {
      return i < v.size() ? std::strtoull(v[i].c_str(), nullptr, 10) : 0;
    };
    if (v[0] == "start" && v.size() >= 4) {
      o.used_runtime = true;
      o.config = v[2];
      o.mode = v[3];
    } else if (v[0] == "launch" && v.size() >= 5) {
      o.used_runtime = true;
      ++o.launches;
      o.cycles += num(2);
      o.warp_instructions += num(3);
      const int rc = static_cast<int>(num(1));
      if (rc != 0 && o.sim_rc == 0) {
        o.sim_rc = rc;
        o.sim_message = v.size() >= 6 ? v[5] : v[4];
      }
    } else if (v[0] == "json" && v.size() >= 2 && o.json_error.empty()) {
      o.json_error = v[1];
    }
  }
  return o;
}

}  // namespace

int cmd_exec(const ExecOptions& o) {
  if (o.command.empty())
    throw usage_error("exec: no program given (simtsync exec -- PROGRAM ARGS)");
  const std::string dir = cudart_dir();
  if (dir.empty())
    throw usage_error(
        "exec: the simulator's CUDA runtime (libcudart.so.13 from libsimtsync_cudart.so) is not "
        "built; it needs the CUDA toolkit's headers at configure time (docs/cuda-runtime.md)");
  std::string sets;
  for (const auto& s : o.sets) {
    if (s.find('=') == std::string::npos || s.front() == '=')
      throw usage_error(fmt::format("--set expects key=value, got '{}'", s));
    sets += s + "\n";
  }
  // Output paths are checked before anything runs, as for `run`; an old statistics file is
  // removed, so that a file there afterwards is this run's.
  if (!o.json_path.empty()) {
    check_output_path(o.json_path, "the JSON statistics (--json)");
    struct stat st {};
    if (::stat(o.json_path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) ::unlink(o.json_path.c_str());
  }
  if (!o.trace_path.empty()) check_output_path(o.trace_path, "the timeline trace (--trace)");
  warn_about_linkage(o.command[0]);
  // The outcome channel: a file created fresh for this run, which the library appends a line to
  // as each kernel ends, before any exit path of the program (never a stale or missing JSON).
  std::string outcome = (fs::temp_directory_path() / "simtsync-exec-outcome-XXXXXX").string();
  const int ofd = ::mkstemp(outcome.data());
  if (ofd < 0)
    throw usage_error(
        fmt::format("exec: cannot create the outcome file {}: {}", outcome, std::strerror(errno)));
  ::close(ofd);
  struct Remove {
    std::string path;
    ~Remove() { ::unlink(path.c_str()); }
  } remove_outcome{outcome};

  const char* old_path = std::getenv("LD_LIBRARY_PATH");
  const std::string path = dir + (old_path && *old_path ? std::string(":") + old_path : "");

  std::fflush(nullptr);  // nothing buffered twice by the child
  const pid_t pid = fork();
  if (pid < 0) throw usage_error("exec: fork failed");
  if (pid == 0) {
    setenv("LD_LIBRARY_PATH", path.c_str(), 1);
    setenv("SIMTSYNC_OUTCOME", outcome.c_str(), 1);
    if (!o.json_path.empty()) setenv("SIMTSYNC_JSON", o.json_path.c_str(), 1);
    if (!o.config.empty()) setenv("SIMTSYNC_CONFIG", o.config.c_str(), 1);
    if (!o.mode.empty()) setenv("SIMTSYNC_MODE", o.mode.c_str(), 1);
    if (!sets.empty()) {
      const char* prev = std::getenv("SIMTSYNC_SET");
      const std::string all = (prev && *prev ? std::string(prev) + "\n" : "") + sets;
      setenv("SIMTSYNC_SET", all.c_str(), 1);
    }
    if (o.threads) setenv("SIMTSYNC_THREADS", std::to_string(o.threads).c_str(), 1);
    if (o.quiet) setenv("SIMTSYNC_QUIET", "1", 1);
    if (!o.trace_path.empty()) setenv("SIMTSYNC_TRACE", o.trace_path.c_str(), 1);
    if (!o.trace_window.empty()) setenv("SIMTSYNC_TRACE_WINDOW", o.trace_window.c_str(), 1);
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
  const bool signaled = WIFSIGNALED(status);
  int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  const Outcome out = read_outcome(outcome);
  const char* prog = o.command[0].c_str();
  const std::string ended = signaled ? fmt::format("died of signal {}", WTERMSIG(status))
                                     : fmt::format("exited with {}", rc);
  if (!out.used_runtime) {
    if (signaled || !o.quiet)
      std::fprintf(stderr, "simtsync exec: %s %s without using the CUDA runtime\n", prog,
                   ended.c_str());
  } else if (signaled || !o.quiet) {
    std::fprintf(stderr,
                 "simtsync exec: %s %s after using the CUDA runtime: %llu kernel launches, %llu "
                 "cycles, %llu warp instructions (%s, %s mode)\n",
                 prog, ended.c_str(), out.launches, out.cycles, out.warp_instructions,
                 out.config.c_str(), out.mode.c_str());
  }
  // The simulator's verdict on a kernel wins over however the program ended; then a statistics
  // file that could not be written (exit 2, as for `run`); else the program's own code.
  if (out.sim_rc != 0) {
    std::fprintf(stderr, "simtsync exec: the simulator stopped a kernel (exit code %d): %s\n",
                 out.sim_rc, out.sim_message.c_str());
    return out.sim_rc;
  }
  if (!out.json_error.empty()) {
    std::fprintf(stderr, "simtsync exec: error: %s\n", out.json_error.c_str());
    return static_cast<int>(ExitCode::kUsage);
  }
  return rc;
}

}  // namespace simtsync::tools
