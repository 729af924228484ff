// The blocks a thread cannot execute while warp-mates are still inside a loop, under the
// reconvergence scheduling constraints of a stack-based SIMT unit (seed 003 Listing 1).
//
// Contract, per loop L (reconvergence as given by a ReconvergenceTable):
//  - reconverge: R(L), the nearest common post-dominator of Exits(L) and of the reconvergence
//    points of ExitConds(L); kNoNode for a loop without exits (it never leaves).
//  - reachable: blocks on a non-null path from R(L), R(L) included, that neither enters L
//    again nor continues past a blocking barrier (a block holding one is included; the
//    traversal stops there, and writes after the barrier do not count). EXIT is not a block.
//  - parallel: blocks BB outside L for which some divergent branch with reconvergence point R
//    has L inside P(T->R) and BB inside P(NT->R) for two different successors T, NT, where
//    P(S->R) is every block on a path from S that has not yet reached R (R excluded).
//    para_branches(BB) lists those branches (ParaBrSet).
//  - reach_branches(BB) (ReachBrSet): terminators with two or more successors of the
//    reachable blocks on a path from R(L) to BB (BB's own only when BB lies on a cycle there).
//
// Cost (issue 46): R(L) is found for every loop; reachable and parallel only for the loops
// `wanted` (Algorithm 1 needs them for the loops whose exits read shared memory). Reachable
// is not a list: where R(L) cannot reach L again (a different strongly connected component),
// a path from R(L) never enters L and a BlockReach query answers; only the other loops (R(L)
// on a cycle through L, e.g. inside an enclosing loop) keep the list a walk from R(L) finds.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "analysis/block_reach.h"
#include "analysis/budget.h"
#include "analysis/cfg.h"
#include "analysis/dominators.h"
#include "analysis/loops.h"
#include "analysis/reconvergence.h"

namespace simtsync::analysis {

struct LoopRegion {
  NodeId reconverge = kNoNode;
  bool computed = false;                        // reachable and parallel were asked for
  bool listed = false;                          // reachable is the list below
  std::vector<NodeId> reachable;                // ascending, when listed
  std::map<NodeId, std::vector<int>> parallel;  // block -> ParaBrSet (branch insts)
};

class LoopRegions {
 public:
  LoopRegions() = default;
  // `wanted[l] != 0`: loop l needs reachable and parallel (parallel only when `parallel`).
  static LoopRegions compute(const Cfg& cfg, const DomTree& pdom, const LoopInfo& loops,
                             const ReconvergenceTable& rec, const std::vector<char>& wanted,
                             bool parallel, AnalysisBudget* budget = nullptr);

  const LoopRegion& operator[](int loop) const { return regions_[static_cast<size_t>(loop)]; }
  size_t size() const { return regions_.size(); }
  // Block n is in reachable(L) (a wanted loop).
  bool is_reachable(int loop, NodeId n) const;
  // First blocking barrier instruction of block b, -1 when none.
  int barrier(NodeId b) const { return cfg_->is_block(b) ? barrier_[static_cast<size_t>(b)] : -1; }
  // `visited` (may be null) is increased by the blocks the backward walk visits. With
  // `on_bb_cycle`, only the blocks on a common cycle with bb (its cycle class) are walked and
  // listed: the part of the paths a SafePdom caller cannot settle without looking.
  std::vector<int> reach_branches(int loop, NodeId bb, std::uint64_t* visited = nullptr,
                                  bool on_bb_cycle = false) const;
  // Block `to` is reachable from `from` without entering loop `loop` and without continuing
  // past a blocking barrier (false when `from` is not a block or lies in the loop).
  bool reaches_avoiding(NodeId from, int loop, NodeId to) const;

 private:
  std::vector<char> walk(NodeId from, int loop) const;  // the explicit walk, marks per node

  const Cfg* cfg_ = nullptr;
  const LoopInfo* loops_ = nullptr;
  std::vector<LoopRegion> regions_;
  std::vector<int> barrier_;
  BlockReach reach_;
  mutable std::vector<int> back_;  // reach_branches' visit stamps, by node
  mutable int back_stamp_ = 0;
};

}  // namespace simtsync::analysis
