#include "analysis/safe_pdom.h"

#include <algorithm>

namespace simtsync::analysis {

ProgramPoint SafePdom::block_start(const Cfg& cfg, NodeId n) {
  if (!cfg.is_block(n)) return ProgramPoint{cfg.exit(), -1};
  return ProgramPoint{n, cfg.block(n).begin};
}

ProgramPoint SafePdom::after_inst(const Cfg& cfg, const DomTree& pdom, int inst) {
  const NodeId b = cfg.node_of_inst(inst);
  if (inst + 1 < cfg.block(b).end) return ProgramPoint{b, inst + 1};
  return block_start(cfg, pdom.idom(b));
}

bool SafePdom::pdominates(const Cfg& cfg, const DomTree& pdom, const ProgramPoint& a,
                          const ProgramPoint& b) {
  if (a.node == cfg.exit()) return true;
  if (b.node == cfg.exit()) return false;
  if (a.node == b.node) return a.inst >= b.inst;
  return pdom.strictly_dominates(a.node, b.node);
}

ProgramPoint SafePdom::ipdom(const Cfg& cfg, const DomTree& pdom, const ProgramPoint& a,
                             const ProgramPoint& b) {
  if (pdominates(cfg, pdom, a, b)) return a;
  if (pdominates(cfg, pdom, b, a)) return b;
  // Same block with a before b, or unrelated blocks: the nearest strict common post-dominator.
  NodeId n = a.node == b.node ? pdom.idom(a.node) : pdom.nearest_common_dominator(a.node, b.node);
  if (n == a.node || n == b.node) n = pdom.idom(n);
  if (n == kNoNode) n = cfg.exit();
  return block_start(cfg, n);
}

SafePdom SafePdom::compute(const Cfg& cfg, const DomTree& pdom, const LoopInfo& loops,
                           const SimtDeadlock& dl, AnalysisBudget* budget) {
  SafePdom r;
  r.safe_.assign(loops.loops().size(), std::nullopt);
  const ReconvergenceTable& rec = dl.reconvergence();
  auto branch_point = [&](int br) {
    const ReconvergencePoint* p = rec.find_by_inst(br);
    return block_start(cfg, p ? p->reconverge_node : pdom.idom(cfg.node_of_inst(br)));
  };
  // Lines 1-16.
  for (const LoopVerdict& v : dl.verdicts()) {
    if (!v.flagged) continue;
    const LoopRegion& reg = dl.regions()[v.loop];
    ProgramPoint s = block_start(cfg, reg.reconverge);
    for (const RedefWrite& w : v.redefs) {
      s = ipdom(cfg, pdom, s, after_inst(cfg, pdom, w.inst));  // line 4
      const NodeId bb = cfg.node_of_inst(w.inst);
      if (w.reachable) {
        std::uint64_t visited = 0;
        const std::vector<int> brs = dl.regions().reach_branches(v.loop, bb, &visited);
        charge(budget, visited, "blocks walked by the safe post-dominator search");
        for (int br : brs) s = ipdom(cfg, pdom, s, branch_point(br));
      }
      if (w.parallel && dl.options().parallel) {
        auto it = reg.parallel.find(bb);
        if (it != reg.parallel.end())
          for (int br : it->second) s = ipdom(cfg, pdom, s, branch_point(br));
      }
    }
    r.safe_[static_cast<size_t>(v.loop)] = s;
  }
  // Line 17: resolve_SafePDom_conflicts(). The loops with a safe point are found from the
  // blocks each walk sees (the loops holding each block, LoopInfo::for_each_loop_containing),
  // not by testing every loop against every walk nor by listing every body (issue 46).
  std::vector<char> seen(static_cast<size_t>(cfg.size()), 0);
  std::vector<long> stamp(loops.loops().size(), -1);
  long walk = 0;
  bool changed = true;
  while (changed) {
    changed = false;
    ++r.passes_;
    for (const Loop& l : loops.loops()) {
      auto& sl = r.safe_[static_cast<size_t>(l.id)];
      if (!sl) continue;
      // Blocks on paths from L's exits that have not reached safe(L).
      std::vector<NodeId> work, found;
      for (NodeId e : l.exit_blocks)
        if (cfg.is_block(e) && !seen[static_cast<size_t>(e)]) {
          seen[static_cast<size_t>(e)] = 1;
          found.push_back(e);
          work.push_back(e);
        }
      while (!work.empty()) {
        const NodeId n = work.back();
        work.pop_back();
        if (n == sl->node && sl->inst == cfg.block(n).begin) continue;  // reached safe(L)
        if (n == sl->node) continue;  // the point is inside n: stop after n
        for (NodeId s : cfg.succs(n))
          if (cfg.is_block(s) && !seen[static_cast<size_t>(s)] && !cfg.is_virtual_edge(n, s)) {
            seen[static_cast<size_t>(s)] = 1;
            found.push_back(s);
            work.push_back(s);
          }
      }
      charge(budget, found.size(), "blocks walked by the safe post-dominator search");
      std::vector<int> on_path;
      ++walk;
      for (NodeId b : found) {
        seen[static_cast<size_t>(b)] = 0;
        loops.for_each_loop_containing(b, [&](int m) {
          if (m == l.id || !r.safe_[static_cast<size_t>(m)] ||
              stamp[static_cast<size_t>(m)] == walk)
            return;
          stamp[static_cast<size_t>(m)] = walk;
          on_path.push_back(m);
        });
      }
      std::sort(on_path.begin(), on_path.end());
      for (int m : on_path) {
        const auto& sm = r.safe_[static_cast<size_t>(m)];
        if (pdominates(cfg, pdom, *sl, *sm)) continue;
        sl = ipdom(cfg, pdom, *sl, *sm);
        changed = true;
      }
    }
  }
  return r;
}

}  // namespace simtsync::analysis
