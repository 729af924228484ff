// Dominator and post-dominator trees over a Cfg, computed by ONE engine (Cooper, Harvey and
// Kennedy, "A Simple, Fast Dominance Algorithm") run on a GraphView in either direction:
// dominators walk the CFG forward from ENTRY, post-dominators walk it backward from EXIT.
//
// Contract:
//  - The tree holds the nodes reachable from the root in the walking direction. Because the Cfg
//    links every node to EXIT (virtual edges for infinite loops), the post-dominator tree holds
//    every node; the dominator tree omits blocks unreachable from ENTRY.
//  - idom(root) and idom(n) for a node outside the tree are kNoNode.
//  - dominates() is reflexive; it and nearest_common_dominator() are false / kNoNode when either
//    node is outside the tree. On a post-dominator tree "dominates" reads "post-dominates" and
//    nearest_common_dominator(a, b) is the immediate common post-dominator IPDom(a, b).
//  - children() are in ascending node order; dfs_in/dfs_out are preorder numbers of that tree
//    walk (a dominates b iff in(a) <= in(b) && out(b) <= out(a)), so queries are O(1).
//  - Deterministic: results depend only on the graph's edge order.
#pragma once

#include <span>
#include <vector>

#include "analysis/cfg.h"

namespace simtsync::analysis {

class DomTree {
 public:
  static DomTree dominators(const Cfg& cfg);
  static DomTree post_dominators(const Cfg& cfg);
  // The engine itself; `d` is only recorded (the view already encodes the direction).
  static DomTree compute(const GraphView& g, Direction d);

  Direction direction() const { return direction_; }
  NodeId root() const { return root_; }
  int size() const { return static_cast<int>(idom_.size()); }
  bool contains(NodeId n) const { return n == root_ || idom(n) != kNoNode; }

  NodeId idom(NodeId n) const { return idom_[static_cast<size_t>(n)]; }
  std::span<const NodeId> children(NodeId n) const {
    const auto b = static_cast<size_t>(child_begin_[static_cast<size_t>(n)]);
    return {children_.data() + b,
            static_cast<size_t>(child_begin_[static_cast<size_t>(n) + 1]) - b};
  }
  int depth(NodeId n) const { return depth_[static_cast<size_t>(n)]; }  // root 0, -1 outside
  int dfs_in(NodeId n) const { return in_[static_cast<size_t>(n)]; }    // -1 outside
  int dfs_out(NodeId n) const { return out_[static_cast<size_t>(n)]; }  // -1 outside

  bool dominates(NodeId a, NodeId b) const;
  bool strictly_dominates(NodeId a, NodeId b) const { return a != b && dominates(a, b); }
  NodeId nearest_common_dominator(NodeId a, NodeId b) const;
  // Reverse postorder of the graph walk from the root (tree nodes only).
  const std::vector<NodeId>& rpo() const { return rpo_; }
  // Preorder of the tree walk (tree nodes only); position i has dfs_in == i.
  const std::vector<NodeId>& preorder() const { return preorder_; }

 private:
  void number_tree();

  Direction direction_ = Direction::kForward;
  NodeId root_ = kNoNode;
  std::vector<NodeId> idom_;
  std::vector<int> child_begin_;  // CSR: node -> its children in children_ (a list per node
  std::vector<NodeId> children_;  // cost 24 bytes and an allocation each, issue 46)
  std::vector<int> depth_, in_, out_;
  std::vector<NodeId> rpo_, preorder_;
};

}  // namespace simtsync::analysis
