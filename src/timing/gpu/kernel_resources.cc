#include "timing/gpu/kernel_resources.h"

#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include "ptx/printer.h"

namespace simtsync::gpu {
namespace {

std::string find_ptxas() {
  for (const char* p : {"/usr/local/cuda/bin/ptxas", "/usr/bin/ptxas"})
    if (std::filesystem::exists(p)) return p;
  return "";
}

// Parses "Compiling entry function 'NAME'" ... "Used N registers" blocks.
std::map<std::string, unsigned> run_ptxas(const std::string& ptxas, const ptx::Module& m) {
  std::map<std::string, unsigned> out;
  auto dir = std::filesystem::temp_directory_path();
  auto file = dir / fmt::format("simtsync_res_{}.ptx", ::getpid());
  {
    std::ofstream f(file);
    f << ptx::print_module(m);
  }
  std::string cmd = fmt::format("\"{}\" -v -arch=sm_75 -o /dev/null \"{}\" 2>&1", ptxas, file.string());
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
  if (!pipe) return out;
  std::array<char, 512> buf;
  std::string current;
  while (fgets(buf.data(), buf.size(), pipe.get())) {
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
  std::filesystem::remove(file);
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
    if (found == ptxas_.end()) found = ptxas_.emplace(&m, run_ptxas(ptxas, m)).first;
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
