#include "analysis/loop_regions.h"

#include <algorithm>
#include <cstdint>

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

std::vector<char> LoopRegions::walk(NodeId from, int loop) const {
  const Cfg& cfg = *cfg_;
  std::vector<char> seen(static_cast<size_t>(cfg.size()), 0);
  if (!cfg.is_block(from) || loops_->contains(loop, from)) return seen;
  std::vector<NodeId> work{from};
  seen[static_cast<size_t>(from)] = 1;
  while (!work.empty()) {
    const NodeId n = work.back();
    work.pop_back();
    if (barrier_[static_cast<size_t>(n)] >= 0) continue;
    for (NodeId s : cfg.succs(n)) {
      if (!cfg.is_block(s) || seen[static_cast<size_t>(s)] || loops_->contains(loop, s) ||
          cfg.is_virtual_edge(n, s))
        continue;
      seen[static_cast<size_t>(s)] = 1;
      work.push_back(s);
    }
  }
  return seen;
}

bool LoopRegions::reaches_avoiding(NodeId from, int loop, NodeId to) const {
  if (!cfg_->is_block(from) || !cfg_->is_block(to) || loops_->contains(loop, from)) return false;
  // A walk from `from` can only enter the loop when both lie on one cycle.
  const NodeId h = loops_->loop(loop).header;
  if (reach_.cycle_class(from) != reach_.cycle_class(h)) return reach_.reaches(from, to);
  return walk(from, loop)[static_cast<size_t>(to)] != 0;
}

bool LoopRegions::is_reachable(int loop, NodeId n) const {
  const LoopRegion& r = regions_[static_cast<size_t>(loop)];
  if (!r.computed || !cfg_->is_block(n)) return false;
  if (r.listed) return std::binary_search(r.reachable.begin(), r.reachable.end(), n);
  return reach_.reaches(r.reconverge, n);
}

std::vector<int> LoopRegions::reach_branches(int loop, NodeId bb, std::uint64_t* visited,
                                             bool on_bb_cycle) const {
  const Cfg& cfg = *cfg_;
  if (!is_reachable(loop, bb)) return {};
  // Backward from bb through reachable blocks whose traversal continues (no barrier cut).
  // Stamps, not a fresh mark per node: one call per redefining write must not cost the
  // function's size (issue 46).
  if (back_.size() != static_cast<size_t>(cfg.size()) || back_stamp_ == INT32_MAX) {
    back_.assign(static_cast<size_t>(cfg.size()), 0);
    back_stamp_ = 0;
  }
  const int stamp = ++back_stamp_;
  const int cls = reach_.cycle_class(bb);
  std::vector<NodeId> work{bb}, found;
  while (!work.empty()) {
    const NodeId n = work.back();
    work.pop_back();
    for (NodeId p : cfg.preds(n)) {
      if (back_[static_cast<size_t>(p)] == stamp || !cfg.is_block(p) || cfg.is_virtual_edge(p, n))
        continue;
      if (on_bb_cycle && reach_.cycle_class(p) != cls) continue;
      if (barrier_[static_cast<size_t>(p)] >= 0 || !is_reachable(loop, p)) continue;
      back_[static_cast<size_t>(p)] = stamp;
      found.push_back(p);
      work.push_back(p);
    }
  }
  if (visited != nullptr) *visited += found.size();
  std::sort(found.begin(), found.end());  // bb itself only when on a cycle
  std::vector<int> out;
  for (NodeId n : found)
    if (cfg.succs(n).size() >= 2) out.push_back(cfg.terminator(n));
  return out;
}

LoopRegions LoopRegions::compute(const Cfg& cfg, const DomTree& pdom, const LoopInfo& loops,
                                 const ReconvergenceTable& rec, const std::vector<char>& wanted,
                                 bool parallel, AnalysisBudget* budget) {
  LoopRegions out;
  out.cfg_ = &cfg;
  out.loops_ = &loops;
  out.regions_.assign(loops.loops().size(), LoopRegion{});
  const bool any = std::any_of(wanted.begin(), wanted.end(), [](char w) { return w != 0; });
  out.barrier_.assign(static_cast<size_t>(cfg.size()), -1);
  std::vector<char> cut(static_cast<size_t>(cfg.size()), 0);
  if (any) {
    for (NodeId b = 0; b < cfg.num_blocks(); ++b) {
      out.barrier_[static_cast<size_t>(b)] = first_barrier(cfg, b);
      cut[static_cast<size_t>(b)] = out.barrier_[static_cast<size_t>(b)] >= 0;
    }
    out.reach_ = BlockReach(cfg, cut);
  }
  for (const Loop& l : loops.loops()) {
    LoopRegion& r = out.regions_[static_cast<size_t>(l.id)];
    if (l.exit_edges.empty()) continue;
    NodeId R = l.exit_blocks.front();
    for (NodeId e : l.exit_blocks) R = pdom.nearest_common_dominator(R, e);
    for (int br : l.exiting_branches)
      if (const ReconvergencePoint* p = rec.find_by_inst(br))
        R = pdom.nearest_common_dominator(R, p->reconverge_node);
    r.reconverge = R;
    if (!wanted[static_cast<size_t>(l.id)]) continue;
    r.computed = true;
    if (!cfg.is_block(R) || loops.contains(l.id, R)) {
      r.listed = true;  // nothing is reachable
    } else if (out.reach_.cycle_class(R) == out.reach_.cycle_class(l.header)) {
      const std::vector<char> seen = out.walk(R, l.id);
      for (NodeId b = 0; b < cfg.num_blocks(); ++b)
        if (seen[static_cast<size_t>(b)]) r.reachable.push_back(b);
      r.listed = true;
      charge(budget, r.reachable.size(), "blocks reachable from loops");
    }
  }
  if (!any || !parallel) return out;
  // P(S->R) for every divergent branch, shared by the wanted loops. Kept as sorted block
  // lists: a bit per node for every branch would cost branches x nodes.
  std::vector<BranchPaths> branches;
  std::vector<char> scratch(static_cast<size_t>(cfg.size()), 0);
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
  // Parallel to L: L inside P(T->R) and the block inside P(NT->R) for another successor NT. A
  // path set is matched only against the loops whose header it holds, and holds such a loop
  // whole unless R lies in it: every block of a loop is reached from its header inside the
  // loop (the header dominates the body), so those paths avoid R when the loop does.
  std::vector<std::vector<int>> by_header(static_cast<size_t>(cfg.size()));
  for (const Loop& l : loops.loops())
    if (!l.exit_edges.empty() && wanted[static_cast<size_t>(l.id)])
      by_header[static_cast<size_t>(l.header)].push_back(l.id);
  for (const BranchPaths& bp : branches) {
    for (size_t t = 0; t < bp.per_succ.size(); ++t) {
      const auto& pt = bp.per_succ[t];
      for (NodeId h : pt) {
        for (int id : by_header[static_cast<size_t>(h)]) {
          if (loops.contains(id, bp.reconverge)) continue;
          LoopRegion& r = out.regions_[static_cast<size_t>(id)];
          for (size_t nt = 0; nt < bp.per_succ.size(); ++nt) {
            if (nt == t) continue;
            charge(budget, bp.per_succ[nt].size(), "parallel blocks");
            for (NodeId b : bp.per_succ[nt]) {
              if (loops.contains(id, b)) continue;
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
