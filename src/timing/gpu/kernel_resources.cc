#include "timing/gpu/kernel_resources.h"

#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "ptx/printer.h"

namespace simtsync::gpu {
namespace {

std::string find_ptxas() {
  for (const char* p : {"/usr/local/cuda/bin/ptxas", "/usr/bin/ptxas"})
    if (std::filesystem::exists(p)) return p;
  return "";
}

// Parses "Compiling entry function 'NAME'" ... "Used N registers" blocks. `ok`: ptxas ran and
// exited 0.
std::map<std::string, unsigned> run_ptxas(const std::string& ptxas, const std::string& text,
                                          bool& ok) {
  std::map<std::string, unsigned> out;
  ok = false;
  auto dir = std::filesystem::temp_directory_path();
  auto file = dir / fmt::format("simtsync_res_{}.ptx", ::getpid());
  {
    std::ofstream f(file);
    f << text;
  }
  std::string cmd =
      fmt::format("\"{}\" -v -arch=sm_75 -o /dev/null \"{}\" 2>&1", ptxas, file.string());
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return out;
  std::array<char, 512> buf;
  std::string current;
  while (fgets(buf.data(), buf.size(), pipe)) {
    std::string line(buf.data());
    auto q = line.find("function '");
    if (q != std::string::npos) {
      auto e = line.find('\'', q + 10);
      current = line.substr(q + 10, e - q - 10);
    }
    auto u = line.find("Used ");
    if (u != std::string::npos && !current.empty()) {
      out[current] = static_cast<unsigned>(std::stoul(line.substr(u + 5)));
    }
  }
  ok = pclose(pipe) == 0;
  std::filesystem::remove(file);
  return out;
}

// ptxas's answer depends only on its own binary and the PTX, so it is kept on disk by their
// hash: the golden table and sweeps start thousands of processes on the same few modules, and
// ptxas took two thirds of a small run's CPU time. The directory is $SIMTSYNC_CACHE_DIR/ptxas,
// else $XDG_CACHE_HOME/simtsync/ptxas, else ~/.cache/simtsync/ptxas; SIMTSYNC_CACHE_DIR=off (or
// a directory that cannot be written) runs ptxas every time. A file that does not read back is ignored.
std::uint64_t fnv1a(std::string_view s, std::uint64_t h = 0xcbf29ce484222325ull) {
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

std::filesystem::path cache_dir() {
  namespace fs = std::filesystem;
  if (const char* d = std::getenv("SIMTSYNC_CACHE_DIR")) {
    if (std::string_view(d) == "off" || *d == '\0') return {};
    return fs::path(d) / "ptxas";
  }
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    return fs::path(x) / "simtsync" / "ptxas";
  if (const char* h = std::getenv("HOME"); h && *h)
    return fs::path(h) / ".cache" / "simtsync" / "ptxas";
  return {};
}

std::map<std::string, unsigned> cached_ptxas(const std::string& ptxas, const ptx::Module& m) {
  namespace fs = std::filesystem;
  const std::string text = ptx::print_module(m);
  const fs::path dir = cache_dir();
  std::error_code ec;
  fs::path entry;
  if (!dir.empty()) {
    const auto size = fs::file_size(ptxas, ec);
    const auto mtime = fs::last_write_time(ptxas, ec).time_since_epoch().count();
    const std::string tool = fmt::format("{}|{}|{}|-v -arch=sm_75|", ptxas, size, mtime);
    entry = dir / fmt::format("{:016x}.txt", fnv1a(text, fnv1a(tool)));
    std::ifstream in(entry);
    std::map<std::string, unsigned> out;
    std::string name;
    unsigned regs = 0;
    while (in >> name && name != "end" && in >> regs) out[name] = regs;
    if (in && name == "end") return out;
  }
  bool ok = false;
  std::map<std::string, unsigned> out = run_ptxas(ptxas, text, ok);
  if (ok && !entry.empty()) {
    fs::create_directories(dir, ec);
    const fs::path tmp = entry.string() + fmt::format(".{}", ::getpid());
    {
      std::ofstream f(tmp);
      for (const auto& [k, v] : out) f << k << ' ' << v << '\n';
      f << "end\n";
    }
    fs::rename(tmp, entry, ec);
    if (ec) fs::remove(tmp, ec);
  }
  return out;
}

}  // namespace

KernelResources ResourceOracle::of(const ptx::Module& m, const std::string& kernel) {
  auto key = std::make_pair(&m, kernel);
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  KernelResources r;
  if (override_ > 0) {
    r.registers = override_;
    r.source = "config";
  } else if (std::string ptxas = find_ptxas(); !ptxas.empty()) {
    auto found = ptxas_.find(&m);
    if (found == ptxas_.end()) found = ptxas_.emplace(&m, cached_ptxas(ptxas, m)).first;
    const auto& regs = found->second;
    if (auto it = regs.find(kernel); it != regs.end()) {
      r.registers = std::max(1u, it->second);
      r.source = "ptxas";
    }
  }
  cache_[key] = r;
  return r;
}

}  // namespace simtsync::gpu
