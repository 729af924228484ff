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
//
// Representation (issue 46): bodies are not lists. The loops that keep one body per header
// form a forest found in one backward walk per header that jumps over the loops already found
// inside it (union-find on their outermost header, as LLVM's LoopInfo does), so nested loops
// cost the function's size, not the sum of their bodies. A block lies in such a loop when its
// innermost one is in the loop's subtree (preorder intervals of the forest); blocks() lists a
// body on demand. Only the loops split off a shared header keep a sorted block list (they may
// overlap their siblings, so the forest does not describe them).
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
  std::vector<Edge> exit_edges;        // (inside, outside)
  std::vector<NodeId> exit_blocks;     // distinct targets of exit_edges (Exits(L))
  std::vector<NodeId> exiting_blocks;  // distinct sources of exit_edges
  std::vector<int> exiting_branches;   // instruction index of each exiting block's terminator
  int parent = -1;                     // innermost enclosing loop
  std::vector<int> children;
  int depth = 1;  // 1 for an outermost loop
};

// The natural loops of a graph with one loop per header, as a forest: tree loops are numbered
// inner before outer (a parent's number is larger than its children's). LoopInfo builds on
// it; ReachingDefs uses it on its own graph.
struct LoopForest {
  std::vector<NodeId> header;                // tree loop -> header
  std::vector<std::vector<NodeId>> latches;  // tree loop -> latches, ascending
  std::vector<int> parent;                   // tree loop -> enclosing tree loop, -1
  std::vector<int> inner;                    // node -> innermost tree loop, -1
};
// `dom` must be the dominator tree of `g` (DomTree::compute(g, kForward)).
LoopForest loop_forest(const GraphView& g, const DomTree& dom);

struct LoopOptions {
  bool split_shared_headers = false;
  AnalysisBudget* budget = nullptr;  // charged split bodies and exit edges (may be null)
};

class LoopInfo {
 public:
  // `dom` must be DomTree::dominators(cfg).
  static LoopInfo compute(const Cfg& cfg, const DomTree& dom, const LoopOptions& o = {});

  const std::vector<Loop>& loops() const { return loops_; }
  const Loop& loop(int id) const { return loops_[static_cast<size_t>(id)]; }
  // Innermost loop containing the node, -1 when none (among loops split off one header that
  // both hold it, the later one).
  int loop_of(NodeId n) const { return innermost_[static_cast<size_t>(n)]; }
  // Block `n` lies in the body of loop `id` (header included). O(1), or O(log body) for a
  // loop split off a shared header.
  bool contains(int id, NodeId n) const;
  // The body of loop `id`, ascending: built on each call, so it costs the body's size.
  std::vector<NodeId> blocks(int id) const;
  // The blocks whose innermost loop (loop_of) is `id`, ascending; all of them together are
  // the function's blocks in loops once.
  std::vector<NodeId> own_blocks(int id) const;
  // Calls fn(loop id) for every loop whose body holds `n`, innermost first along the
  // nesting; the cost is the number of such loops.
  template <typename Fn>
  void for_each_loop_containing(NodeId n, Fn&& fn) const {
    for (int t = tree_of_node(n); t >= 0; t = tree_parent_[static_cast<size_t>(t)]) {
      const int id = tree_loop_[static_cast<size_t>(t)];
      const auto& sp = split_of_[static_cast<size_t>(id)];
      for (auto it = sp.rbegin(); it != sp.rend(); ++it)
        if (contains(*it, n)) fn(*it);
      fn(id);
    }
  }
  bool has_split_loops() const { return has_split_; }
  // Per loop: some block of its body has `flag[block] != 0` (linear, no body is listed).
  std::vector<char> loops_holding(const std::vector<char>& flag) const;
  int loop_with_header(NodeId h) const;  // -1 when h is not a loop header
  int depth_of(NodeId n) const;          // 0 outside every loop
  const std::vector<Edge>& irreducible_edges() const { return irreducible_; }

 private:
  int tree_of_node(NodeId n) const {
    return n >= 0 && static_cast<size_t>(n) < tree_inner_.size()
               ? tree_inner_[static_cast<size_t>(n)]
               : -1;
  }

  std::vector<Loop> loops_;
  std::vector<int> innermost_;
  // The forest of the loops with one body per header ("tree loops", numbered in the order
  // they were found: inner before outer): the innermost tree loop of each node, each tree
  // loop's parent, loop id, and preorder interval; each loop's tree loop (-1 for split loops).
  std::vector<int> tree_inner_, tree_parent_, tree_loop_, tree_pre_, tree_last_, tree_of_loop_;
  std::vector<std::vector<int>> tree_kids_;
  std::vector<int> tree_own_begin_;  // CSR over tree_own_: nodes by innermost tree loop
  std::vector<NodeId> tree_own_;
  std::vector<std::vector<int>> split_of_;       // tree loop's loop id -> its split loops, in order
  std::vector<std::vector<NodeId>> split_body_;  // loop id -> body of a split loop, else empty
  std::vector<int> own_begin_;                   // CSR of own_blocks over own_
  std::vector<NodeId> own_;
  bool has_split_ = false;
  std::vector<int> first_with_header_;  // node -> first loop with that header, -1
  std::vector<Edge> irreducible_;
};

}  // namespace simtsync::analysis
