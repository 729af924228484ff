#include "analysis/printer.h"

#include <fmt/format.h>

namespace simtsync::analysis {
namespace {

std::string names(const Cfg& cfg, const std::vector<NodeId>& nodes) {
  std::string s;
  for (NodeId n : nodes) s += " " + cfg.name(n);
  return s;
}

std::string pc_text(Pc pc) {
  return pc == kExitPc ? "EXIT" : fmt::format("0x{:x}", pc);
}

}  // namespace

std::string format_cfg(const Cfg& cfg) {
  std::string out;
  for (NodeId n = 0; n < cfg.size(); ++n) {
    out += cfg.name(n);
    if (cfg.is_block(n)) out += fmt::format(" [{},{})", cfg.block(n).begin, cfg.block(n).end);
    if (cfg.is_block(n) && !cfg.reachable(n)) out += " unreachable";
    out += " ->";
    for (NodeId s : cfg.succs(n))
      out += " " + cfg.name(s) + (cfg.is_virtual_edge(n, s) ? "(virtual)" : "");
    out += "\n";
  }
  return out;
}

std::string format_dom_tree(const Cfg& cfg, const DomTree& tree) {
  std::string out;
  for (NodeId n = 0; n < cfg.size(); ++n) {
    const NodeId d = tree.idom(n);
    out += fmt::format("{} idom {}\n", cfg.name(n), d == kNoNode ? "-" : cfg.name(d));
  }
  return out;
}

std::string format_loops(const Cfg& cfg, const LoopInfo& loops) {
  std::string out;
  for (const Loop& l : loops.loops()) {
    out += fmt::format("loop {} header {} depth {} parent {}\n", l.id, cfg.name(l.header), l.depth,
                       l.parent < 0 ? std::string("-") : std::to_string(l.parent));
    out += "  blocks" + names(cfg, loops.blocks(l.id)) + "\n";
    out += "  latches" + names(cfg, l.latches) + "\n";
    out += "  exits" + names(cfg, l.exit_blocks) + "\n";
    std::string br;
    for (int i : l.exiting_branches)
      br += fmt::format(" {}", pc_text(cfg.function().insts[static_cast<size_t>(i)].pc));
    out += "  exiting branches" + br + "\n";
  }
  return out;
}

std::string format_reconvergence(const Cfg& cfg, const ReconvergenceTable& table) {
  std::string out;
  for (const ReconvergencePoint& p : table.points())
    out += fmt::format("pc {} (inst {}, {}) -> {} pc {}\n", pc_text(p.pc), p.inst,
                       cfg.name(p.block), cfg.name(p.reconverge_node), pc_text(p.reconverge_pc));
  return out;
}

}  // namespace simtsync::analysis
