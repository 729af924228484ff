// Control dependence and backward slices: which instructions a loop's exit conditions depend on
// (seed 003 Algorithm 1, lines 3-7).
//
// Contract:
//  - ControlDependence: block Y is control dependent on block A when A ends in a branch with
//    an edge A->S such that Y post-dominates S and Y does not strictly post-dominate A
//    (Ferrante et al.). Only real edges count; the Cfg's virtual edges are ignored.
//  - backward_slice(seeds, within): the seeds plus, transitively, every instruction inside
//    `within` (a set of blocks) that defines a register a slice member uses (reaching
//    definitions, guards included), every terminator of a block inside `within` that a slice
//    member's block is control dependent on, and, for a local-space load in the slice, every
//    local-space store inside `within` (local memory holds spilled registers at -O0).
//    Definitions outside `within` are loop-invariant for the caller and are not followed.
//    Result ascending.
#pragma once

#include <functional>
#include <vector>

#include "analysis/cfg.h"
#include "analysis/dominators.h"
#include "analysis/reaching_defs.h"

namespace simtsync::analysis {

class ControlDependence {
 public:
  // `pdom` must be DomTree::post_dominators(cfg).
  static ControlDependence compute(const Cfg& cfg, const DomTree& pdom);
  // Blocks whose terminating branch `n` is control dependent on, ascending.
  const std::vector<NodeId>& on(NodeId n) const { return deps_[static_cast<size_t>(n)]; }

 private:
  std::vector<std::vector<NodeId>> deps_;
};

// A set of blocks given by a membership test (a loop body, issue 46: not a list), listed only
// when a client needs every block of it.
struct BlockSet {
  std::function<bool(NodeId)> contains;
  std::function<std::vector<NodeId>()> list;
};

std::vector<int> backward_slice(const Cfg& cfg, const ReachingDefs& rd, const ControlDependence& cd,
                                const std::vector<int>& seeds, const BlockSet& within);

}  // namespace simtsync::analysis
