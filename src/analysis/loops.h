// Natural loops of a function (the LSet of seed 003 Listing 1).
//
// Contract:
//  - A back edge is a real edge t -> h with h dominating t (both reachable from ENTRY). All back
//    edges into the same header form ONE loop; its body is h plus every block that reaches a
//    latch without passing through h. Loops therefore nest or are disjoint.
//  - With LoopOptions::split_shared_headers (what the SIMT-deadlock analyses use), a header
//    whose back edges enclose nested bodies also gets one loop per distinct body that lies
//    strictly inside another latch's body (with the latches whose bodies lie inside it),
//    nested in the merged loop: nvcc emits a spin `while (atomicCAS(..) != 0);` as a
//    self-loop on the block that heads an enclosing retry loop, and that inner loop has its
//    own exit branch and reconvergence point (issue 13). Bodies that only share the header
//    (a `continue` in each arm of an if, SSDE's switch block) stay one loop. Same-header
//    loops nest by body inclusion.
//  - Retreating edges whose target does not dominate the source (irreducible control flow)
//    form no loop; they are listed in irreducible_edges() so clients can refuse or warn.
//  - Exit edges are real edges from a body block to a node outside the body (EXIT included,
//    e.g. a guarded `ret` inside the loop); the Cfg's virtual edges (infinite loops) are not
//    exits, so an infinite loop has none. exiting_branches are the terminators of the blocks
//    with exit edges (ExitConds(L) in seed 003).
//  - Loops are ordered by a preorder of the loop-nesting forest that follows the dominator tree
//    preorder of the headers: a parent always precedes its children. All lists are ascending.
#pragma once

#include <utility>
#include <vector>

#include "analysis/budget.h"
#include "analysis/cfg.h"
#include "analysis/dominators.h"

namespace simtsync::analysis {

using Edge = std::pair<NodeId, NodeId>;

struct Loop {
  int id = -1;  // position in LoopInfo::loops()
  NodeId header = kNoNode;
  std::vector<NodeId> latches;         // sources of the back edges
  std::vector<NodeId> blocks;          // body, header included
  std::vector<Edge> exit_edges;        // (inside, outside)
  std::vector<NodeId> exit_blocks;     // distinct targets of exit_edges (Exits(L))
  std::vector<NodeId> exiting_blocks;  // distinct sources of exit_edges
  std::vector<int> exiting_branches;   // instruction index of each exiting block's terminator
  int parent = -1;                     // innermost enclosing loop
  std::vector<int> children;
  int depth = 1;  // 1 for an outermost loop

  bool contains(NodeId n) const;
};

struct LoopOptions {
  bool split_shared_headers = false;
  AnalysisBudget* budget = nullptr;  // charged the loop bodies (may be null)
};

class LoopInfo {
 public:
  // `dom` must be DomTree::dominators(cfg).
  static LoopInfo compute(const Cfg& cfg, const DomTree& dom, const LoopOptions& o = {});

  const std::vector<Loop>& loops() const { return loops_; }
  const Loop& loop(int id) const { return loops_[static_cast<size_t>(id)]; }
  // Innermost loop containing the node, -1 when none.
  int loop_of(NodeId n) const { return innermost_[static_cast<size_t>(n)]; }
  int loop_with_header(NodeId h) const;  // -1 when h is not a loop header
  int depth_of(NodeId n) const;          // 0 outside every loop
  const std::vector<Edge>& irreducible_edges() const { return irreducible_; }

 private:
  std::vector<Loop> loops_;
  std::vector<int> innermost_;
  std::vector<int> first_with_header_;  // node -> first loop with that header, -1
  std::vector<Edge> irreducible_;
};

}  // namespace simtsync::analysis
