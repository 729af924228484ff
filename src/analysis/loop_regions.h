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
#pragma once

#include <map>
#include <vector>

#include "analysis/budget.h"
#include "analysis/cfg.h"
#include "analysis/dominators.h"
#include "analysis/loops.h"
#include "analysis/reconvergence.h"

namespace simtsync::analysis {

struct LoopRegion {
  NodeId reconverge = kNoNode;
  std::vector<NodeId> reachable;                // ascending
  std::map<NodeId, int> barrier_cut;            // reachable block -> first barrier inst
  std::map<NodeId, std::vector<int>> parallel;  // block -> ParaBrSet (branch insts)
  std::vector<int> reach_branches(const Cfg& cfg, NodeId bb) const;
  bool is_reachable(NodeId n) const;
};

// One LoopRegion per loop of `loops`, in loop order.
std::vector<LoopRegion> compute_loop_regions(const Cfg& cfg, const DomTree& pdom,
                                             const LoopInfo& loops, const ReconvergenceTable& rec,
                                             AnalysisBudget* budget = nullptr);

}  // namespace simtsync::analysis
