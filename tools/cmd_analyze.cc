#include "cmd_analyze.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/cfg.h"
#include "analysis/dominators.h"
#include "analysis/loops.h"
#include "analysis/printer.h"
#include "analysis/reconvergence.h"
#include "common/error.h"
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

std::string where(const ptx::Module& m, const ptx::Instruction& in) {
  // Code inlined from a header (atomicCAS, ...) is named by the user's line that called it.
  const int file = in.loc.inlined_line > 0 ? in.loc.inlined_file : in.loc.file;
  const int line = in.loc.inlined_line > 0 ? in.loc.inlined_line : in.loc.line;
  if (line > 0) {
    if (const auto* f = m.find_file(file))
      return fmt::format("{}:{}", std::filesystem::path(f->path).filename().string(), line);
  }
  return fmt::format("{}:{}", m.path, in.ptx_line);
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
  ptx::Module m = ptx::parse_module(load_ptx_text(o.path), o.path);
  bool any = false;
  for (const auto& f : m.functions) {
    if (f.is_declaration || (!o.kernel.empty() && f.name != o.kernel)) continue;
    any = true;
    analysis::Cfg cfg(f);
    auto dom = analysis::DomTree::dominators(cfg);
    auto pdom = analysis::DomTree::post_dominators(cfg);
    auto loops = analysis::LoopInfo::compute(cfg, dom);
    auto rec = analysis::ReconvergenceTable::compute(cfg, pdom);
    fmt::print("{} {} ({} instructions, {} basic blocks)\n", f.is_entry ? "kernel" : "function",
               f.name, f.insts.size(), cfg.num_blocks());
    for (const auto& l : loops.loops()) {
      std::string lines;
      for (int b : l.exiting_branches) lines += (lines.empty() ? "" : ", ") + where(m, f.insts[b]);
      fmt::print("  loop {} at {} (depth {}, {} blocks); exits tested at {}\n", cfg.name(l.header),
                 where(m, f.insts[static_cast<size_t>(cfg.block(l.header).begin)]), l.depth,
                 l.blocks.size(), lines.empty() ? "(none: infinite loop)" : lines);
    }
    for (const auto& p : rec.points()) {
      std::string to = p.reconverge_pc == kExitPc
                           ? std::string("function exit")
                           : fmt::format("{} ({})", cfg.name(p.reconverge_node),
                                         where(m, f.insts[static_cast<size_t>(
                                                      cfg.block(p.reconverge_node).begin)]));
      fmt::print("  branch at PC {:#x} ({}) reconverges at {}\n", p.pc - f.base_pc,
                 where(m, f.insts[static_cast<size_t>(p.inst)]), to);
    }
    if (o.dump) {
      fmt::print("-- cfg\n{}-- dominators\n{}-- post-dominators\n{}", analysis::format_cfg(cfg),
                 analysis::format_dom_tree(cfg, dom), analysis::format_dom_tree(cfg, pdom));
    }
  }
  if (!any && !o.kernel.empty())
    throw usage_error(fmt::format("no function named '{}' in {}", o.kernel, o.path));
  return 0;
}

}  // namespace simtsync::tools
