// Seed 003 Algorithm 2: safe post-dominators (SafePDom) of the loops Algorithm 1 flags, the
// earliest points that post-dominate the loop exits, the redefining writes and the branches on
// the paths that lead to them, with the iterative resolution of conflicts between loops.
//
// Contract:
//  - A ProgramPoint is "just before instruction `inst` of block `node`", or EXIT (node ==
//    cfg.exit(), inst == -1). Post-dominance of points: same block and not earlier, or the
//    block strictly post-dominates the other; EXIT post-dominates every point.
//  - IPDom(point, instruction I): for a non-branch I, the point right after I (the start of
//    the next block when I ends its block); for a divergent branch, the start of its
//    reconvergence block under the convention of the SimtDeadlock result.
//  - safe(L) starts at R(L) (loop_regions.h); lines 4-14 of the algorithm move it; lines 10-14
//    only when the options count parallel blocks. Conflict resolution: while some flagged loop
//    M has a block on a path from L's exits that has not reached safe(L), and safe(L) does not
//    post-dominate safe(M), safe(L) = IPDom(safe(L), safe(M)). It terminates because EXIT
//    post-dominates everything.
//  - Unflagged loops have no SafePDom (std::nullopt).
//  - Both methods move the points of lines 1-16 up the post-dominator tree until the rule
//    holds. Method::kPasses iterates as written: passes over all flagged loops in loop order
//    until none moves. Method::kFast (the default) reaches the same points in fewer, shorter
//    walks (issue 46; a unit test compares the two on random kernels): the loops are settled
//    by strongly connected component of their headers, last component first (a loop only
//    meets loops of its own or a later component on its paths), and a walk that enters a
//    settled loop M whose safe point lies on no cycle joins safe(M) and those of the loops
//    nested in M and goes on from safe(M) instead of through M and the paths from its exits:
//    everything there reaches safe(M) first, or lies in M. Lines 6-8 are skipped where they
//    cannot move the point: with immediate post-dominator reconvergence, only the blocks on a
//    common cycle with the write's block and the point's can hold a branch that reconverges
//    above the point (see paths_to_walk in the .cc).
//  - Cost: the walks are charged to `budget`, one entry per block visited (on the paths to a
//    redefining write, and from a loop's exits in each round). With kFast, sequential loops
//    whose writes alias loops far away cost a few blocks each; a cycle through the safe points
//    (loops nested in a loop) still walks the paths, loops x distance x rounds, and past the
//    budget the function is refused.
#pragma once

#include <optional>
#include <vector>

#include "analysis/simt_deadlock.h"

namespace simtsync::analysis {

struct ProgramPoint {
  NodeId node = kNoNode;
  int inst = -1;  // first instruction after the point; -1 for EXIT
  bool operator==(const ProgramPoint&) const = default;
};

class SafePdom {
 public:
  enum class Method { kFast, kPasses };
  static SafePdom compute(const Cfg& cfg, const DomTree& pdom, const LoopInfo& loops,
                          const SimtDeadlock& dl, AnalysisBudget* budget = nullptr,
                          Method method = Method::kFast);

  const std::optional<ProgramPoint>& safe(int loop) const {
    return safe_[static_cast<size_t>(loop)];
  }
  // Rounds the conflict resolution needed: passes over all loops (kPasses), or over the loops
  // of the component that needed most (kFast); 1 when nothing moved.
  int resolution_passes() const { return passes_; }

  // Point helpers (also used by the SSDE transform).
  static ProgramPoint block_start(const Cfg& cfg, NodeId n);
  static ProgramPoint after_inst(const Cfg& cfg, const DomTree& pdom, int inst);
  static bool pdominates(const Cfg& cfg, const DomTree& pdom, const ProgramPoint& a,
                         const ProgramPoint& b);
  static ProgramPoint ipdom(const Cfg& cfg, const DomTree& pdom, const ProgramPoint& a,
                            const ProgramPoint& b);

 private:
  std::vector<std::optional<ProgramPoint>> safe_;
  int passes_ = 0;
};

}  // namespace simtsync::analysis
