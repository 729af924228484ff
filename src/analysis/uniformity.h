// Uniformity (divergence) analysis on PTX: which values and branches are the same for every
// active lane of a warp. It separates a busy-wait that the whole warp performs together from a
// loop whose lanes can part ways, which is what a SIMT-induced deadlock needs (issue 13).
//
// Contract (a conservative over-approximation of divergence; "divergent" may be wrong, "uniform"
// must not be, under the assumptions below):
//  - Sources of divergence: %tid, %laneid and %lanemask_* operands; atom results; shfl except
//    an `idx` shuffle from an immediate lane (a broadcast); match; the results of calls left in
//    the function; ld.param inside a .func (its arguments are unknown); a local-memory load
//    (space local, or generic converted from local) when a local store that may alias it stores
//    a divergent value or lies under a divergent branch. %ctaid, %ntid, %warpid, %clock, kernel
//    parameters, constants, vote/redux/activemask results are uniform.
//  - Data dependence: a result is divergent when a register it uses (guard included) may take
//    a divergent value at that instruction; a load from a divergent address is divergent, from a
//    uniform address uniform (every lane reads the same location at the same time).
//  - Sync and temporal dependence: a use outside the region of a divergent branch B (the blocks
//    on paths from B's successors that have not reached B's reconvergence point) of a register
//    defined inside that region is divergent (lanes took different paths, or left a loop in
//    different iterations).
//  - A divergence point (branch, guarded ret/exit) is divergent when its guard (the index of a
//    brx) is divergent, unless it lies in a single-lane region.
//  - Single-lane region: the blocks on the equal side of a branch on `x == C` (setp.eq/ne, one
//    operand an immediate) where x is exactly %tid.x or %laneid (through mov/cvt), up to the
//    branch's reconvergence point. At most one lane of a warp runs there, assuming blockDim.x
//    is 1-D or a multiple of 32 for %tid.x, so every branch inside is uniform.
//  - region(inst) of a divergence point is available to clients (SimtDeadlock uses it to find
//    the divergent branches that enclose a loop).
#pragma once

#include <vector>

#include "analysis/alias.h"
#include "analysis/cfg.h"
#include "analysis/dominators.h"
#include "analysis/reaching_defs.h"
#include "analysis/reconvergence.h"

namespace simtsync::analysis {

class Uniformity {
 public:
  struct Inputs {
    const Cfg* cfg;
    const ReachingDefs* rd;
    const ReconvergenceTable* rec;
    const AliasAnalysis* alias;
    AnalysisBudget* budget = nullptr;  // charged the regions (may be null)
  };
  static Uniformity compute(const Inputs& in);

  // The value instruction `inst` defines may differ between the active lanes.
  bool divergent_result(int inst) const { return div_result_[static_cast<size_t>(inst)] != 0; }
  // Register `reg` may hold different values in different lanes when `inst` reads it.
  bool divergent_use(int inst, int reg) const;
  // A divergence point whose active lanes may go different ways.
  bool divergent_branch(int inst) const { return div_branch_[static_cast<size_t>(inst)] != 0; }
  // At most one lane of a warp executes the block.
  bool single_lane(NodeId b) const { return single_lane_[static_cast<size_t>(b)] != 0; }
  // Blocks on paths from the divergence point's successors before its reconvergence point,
  // ascending; empty for instructions that are not divergence points.
  const std::vector<NodeId>& region(int inst) const;
  // Block `b` lies in region(inst).
  bool in_region(int inst, NodeId b) const;
  // Divergence points in instruction order.
  const std::vector<int>& divergence_points() const { return points_; }

 private:
  const Cfg* cfg_ = nullptr;
  const ReachingDefs* rd_ = nullptr;
  std::vector<char> div_result_, div_branch_, single_lane_;
  std::vector<char> div_value_;  // per value of the ReachingDefs graph: a divergent def reaches
  std::vector<std::vector<int>> sync_div_;  // inst -> registers divergent there by sync dependence
  std::vector<int> points_;
  std::vector<int> region_slot_;  // inst -> index into regions_, -1 when none
  // Regions as sorted block lists: a divergence point's region is usually small, and a bit per
  // block for every point would cost points x blocks.
  std::vector<std::vector<NodeId>> regions_;
  std::vector<NodeId> empty_;
};

}  // namespace simtsync::analysis
