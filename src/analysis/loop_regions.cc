#include "analysis/loop_regions.h"

#include <algorithm>

#include "analysis/inst_info.h"

namespace simtsync::analysis {
namespace {

int first_barrier(const Cfg& cfg, NodeId b) {
  const ptx::Function& f = cfg.function();
  for (int i = cfg.block(b).begin; i < cfg.block(b).end; ++i)
    if (is_blocking_barrier(f.insts[static_cast<size_t>(i)])) return i;
  return -1;
}

// Blocks on paths from `from` that have not reached `stop` (stop excluded), ascending. Real
// edges only. `seen` is scratch indexed by node, all zero on entry and on return.
std::vector<NodeId> paths_until(const Cfg& cfg, NodeId from, NodeId stop, std::vector<char>& seen) {
  std::vector<NodeId> out;
  if (from == stop || !cfg.is_block(from)) return out;
  std::vector<NodeId> work{from};
  seen[static_cast<size_t>(from)] = 1;
  out.push_back(from);
  while (!work.empty()) {
    const NodeId n = work.back();
    work.pop_back();
    for (NodeId s : cfg.succs(n)) {
      if (s == stop || !cfg.is_block(s) || seen[static_cast<size_t>(s)] ||
          cfg.is_virtual_edge(n, s))
        continue;
      seen[static_cast<size_t>(s)] = 1;
      out.push_back(s);
      work.push_back(s);
    }
  }
  for (NodeId b : out) seen[static_cast<size_t>(b)] = 0;
  std::sort(out.begin(), out.end());
  return out;
}

struct BranchPaths {
  int inst = -1;
  NodeId reconverge = kNoNode;
  std::vector<std::vector<NodeId>> per_succ;  // P(S->R) for each successor S, ascending
};

}  // namespace

bool LoopRegion::is_reachable(NodeId n) const {
  return std::binary_search(reachable.begin(), reachable.end(), n);
}

std::vector<int> LoopRegion::reach_branches(const Cfg& cfg, NodeId bb) const {
  if (!is_reachable(bb)) return {};
  // Backward from bb through reachable blocks whose traversal continues (no barrier cut).
  std::vector<char> back(static_cast<size_t>(cfg.size()), 0);
  std::vector<NodeId> work{bb};
  while (!work.empty()) {
    const NodeId n = work.back();
    work.pop_back();
    for (NodeId p : cfg.preds(n)) {
      if (!is_reachable(p) || barrier_cut.count(p) || cfg.is_virtual_edge(p, n)) continue;
      if (back[static_cast<size_t>(p)]) continue;
      back[static_cast<size_t>(p)] = 1;
      work.push_back(p);
    }
  }
  std::vector<int> out;
  for (NodeId n : reachable) {
    if (!back[static_cast<size_t>(n)]) continue;  // bb itself only when on a cycle
    if (cfg.succs(n).size() >= 2) out.push_back(cfg.terminator(n));
  }
  return out;
}

std::vector<LoopRegion> compute_loop_regions(const Cfg& cfg, const DomTree& pdom,
                                             const LoopInfo& loops, const ReconvergenceTable& rec,
                                             AnalysisBudget* budget) {
  // P(S->R) for every divergent branch, shared by all loops (none needed without loops). Kept
  // as sorted block lists: a bit per node for every branch would cost branches x nodes.
  std::vector<BranchPaths> branches;
  std::vector<char> scratch(static_cast<size_t>(cfg.size()), 0);
  if (!loops.loops().empty())
    for (const auto& p : rec.points()) {
      if (cfg.succs(p.block).size() < 2 || cfg.terminator(p.block) != p.inst) continue;
      BranchPaths bp;
      bp.inst = p.inst;
      bp.reconverge = p.reconverge_node;
      for (NodeId s : cfg.succs(p.block)) {
        bp.per_succ.push_back(paths_until(cfg, s, p.reconverge_node, scratch));
        charge(budget, bp.per_succ.back().size(), "paths to reconvergence points");
      }
      branches.push_back(std::move(bp));
    }
  std::vector<LoopRegion> out(loops.loops().size());
  std::vector<int> barrier(static_cast<size_t>(cfg.num_blocks()), -1);  // found once per block
  if (!loops.loops().empty())
    for (NodeId b = 0; b < cfg.num_blocks(); ++b)
      barrier[static_cast<size_t>(b)] = first_barrier(cfg, b);
  for (const Loop& l : loops.loops()) {
    LoopRegion& r = out[static_cast<size_t>(l.id)];
    if (l.exit_edges.empty()) continue;
    NodeId R = l.exit_blocks.front();
    for (NodeId e : l.exit_blocks) R = pdom.nearest_common_dominator(R, e);
    for (int br : l.exiting_branches)
      if (const ReconvergencePoint* p = rec.find_by_inst(br))
        R = pdom.nearest_common_dominator(R, p->reconverge_node);
    r.reconverge = R;
    // Reachable from R.
    if (cfg.is_block(R) && !l.contains(R)) {
      std::vector<NodeId> work{R};
      scratch[static_cast<size_t>(R)] = 1;
      while (!work.empty()) {
        const NodeId n = work.back();
        work.pop_back();
        r.reachable.push_back(n);
        if (int b = barrier[static_cast<size_t>(n)]; b >= 0) {
          r.barrier_cut[n] = b;
          continue;
        }
        for (NodeId s : cfg.succs(n)) {
          if (!cfg.is_block(s) || scratch[static_cast<size_t>(s)] || l.contains(s) ||
              cfg.is_virtual_edge(n, s))
            continue;
          scratch[static_cast<size_t>(s)] = 1;
          work.push_back(s);
        }
      }
      for (NodeId b : r.reachable) scratch[static_cast<size_t>(b)] = 0;
      charge(budget, r.reachable.size(), "blocks reachable from loops");
      std::sort(r.reachable.begin(), r.reachable.end());
    }
  }
  // Parallel to L: L inside P(T->R) and the block inside P(NT->R) for another successor NT. A
  // path set is matched only against the loops whose header it holds, and holds such a loop
  // whole unless R lies in it: every block of a loop is reached from its header inside the
  // loop (the header dominates the body), so those paths avoid R when the loop does.
  std::vector<std::vector<int>> by_header(static_cast<size_t>(cfg.size()));
  for (const Loop& l : loops.loops())
    if (!l.exit_edges.empty()) by_header[static_cast<size_t>(l.header)].push_back(l.id);
  for (const BranchPaths& bp : branches) {
    for (size_t t = 0; t < bp.per_succ.size(); ++t) {
      const auto& pt = bp.per_succ[t];
      for (NodeId h : pt) {
        for (int id : by_header[static_cast<size_t>(h)]) {
          const Loop& l = loops.loop(id);
          if (l.contains(bp.reconverge)) continue;
          LoopRegion& r = out[static_cast<size_t>(id)];
          for (size_t nt = 0; nt < bp.per_succ.size(); ++nt) {
            if (nt == t) continue;
            charge(budget, bp.per_succ[nt].size(), "parallel blocks");
            for (NodeId b : bp.per_succ[nt]) {
              if (l.contains(b)) continue;
              auto& v = r.parallel[b];
              if (std::find(v.begin(), v.end(), bp.inst) == v.end()) v.push_back(bp.inst);
            }
          }
        }
      }
    }
  }
  return out;
}

}  // namespace simtsync::analysis
