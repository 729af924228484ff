#include "cmd_analyze.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "analysis/deadlock_printer.h"
#include "analysis/printer.h"
#include "common/error.h"
#include "cmd_analyze_table.h"
#include "ptx/parser.h"

namespace simtsync::tools {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw usage_error(fmt::format("cannot read '{}'", path));
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

analysis::DeadlockOptions deadlock_options(const AnalyzeOptions& o) {
  analysis::DeadlockOptions d;
  d.convention = o.compat ? analysis::Convention::kIpdomCompat : analysis::Convention::kIpdom;
  d.parallel = !o.no_parallel;
  d.distinct_params = !o.params_may_alias;
  return d;
}

}  // namespace

std::string load_ptx_text(const std::string& path) {
  if (path.size() > 3 && path.substr(path.size() - 3) == ".cu") {
    const char* env = std::getenv("NVCC");
    std::string nvcc = env ? env : "nvcc";
    if (!env && std::filesystem::exists("/usr/local/cuda/bin/nvcc")) nvcc = "/usr/local/cuda/bin/nvcc";
    auto out = std::filesystem::temp_directory_path() /
               fmt::format("simtsync_{}.ptx", std::filesystem::path(path).stem().string());
    std::string cmd = fmt::format("\"{}\" -ptx -arch=sm_75 -O3 -lineinfo \"{}\" -o \"{}\" 2>&1",
                                  nvcc, path, out.string());
    if (std::system(cmd.c_str()) != 0)
      throw unsupported_error(fmt::format("{}: nvcc could not compile it (command: {})", path, cmd));
    return read_file(out.string());
  }
  return read_file(path);
}

int cmd_analyze(const AnalyzeOptions& o) {
  const analysis::DeadlockOptions dopts = deadlock_options(o);
  if (o.table) {
    DetectionTable t;
    for (const auto& p : o.paths) t.add_module(ptx::parse_module(load_ptx_text(p), p), dopts);
    fmt::print("{}", o.json ? t.to_json().dump(2) + "\n" : t.format());
    return 0;
  }
  nlohmann::json all = nlohmann::json::array();
  bool any = false;
  for (const auto& path : o.paths) {
    ptx::Module m = ptx::parse_module(load_ptx_text(path), path);
    for (const auto& f : m.functions) {
      if (f.is_declaration || (!o.kernel.empty() && f.name != o.kernel)) continue;
      any = true;
      const analysis::Cfg cfg(f);
      const auto dom = analysis::DomTree::dominators(cfg);
      const auto pdom = analysis::DomTree::post_dominators(cfg);
      const auto loops = analysis::LoopInfo::compute(cfg, dom);
      const auto dl = analysis::SimtDeadlock::compute({&cfg, &dom, &pdom, &loops, &m}, dopts);
      const auto safe = analysis::SafePdom::compute(cfg, pdom, loops, dl);
      const analysis::DeadlockReport rep{&m, &cfg, &loops, &dl, &safe};
      if (o.json) {
        auto j = analysis::deadlock_json(rep);
        j["file"] = path;
        all.push_back(j);
        continue;
      }
      fmt::print("{}", analysis::format_deadlock(rep));
      if (o.dump) {
        fmt::print("-- loops\n{}-- reconvergence\n{}-- cfg\n{}-- dominators\n{}-- post-dominators\n{}",
                   analysis::format_loops(cfg, loops),
                   analysis::format_reconvergence(cfg, dl.reconvergence()),
                   analysis::format_cfg(cfg), analysis::format_dom_tree(cfg, dom),
                   analysis::format_dom_tree(cfg, pdom));
      }
    }
  }
  if (!any && !o.kernel.empty())
    throw usage_error(fmt::format("no function named '{}'", o.kernel));
  if (o.json) std::cout << all.dump(2) << "\n";
  return 0;
}

}  // namespace simtsync::tools
