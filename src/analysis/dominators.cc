#include "analysis/dominators.h"

#include <algorithm>
#include <utility>

namespace simtsync::analysis {
namespace {

// Postorder of the nodes reachable from g.root, visiting successors in list order.
std::vector<NodeId> postorder(const GraphView& g) {
  std::vector<NodeId> order;
  std::vector<char> seen(static_cast<size_t>(g.size()), 0);
  std::vector<std::pair<NodeId, size_t>> work{{g.root, 0}};
  seen[static_cast<size_t>(g.root)] = 1;
  while (!work.empty()) {
    auto& [v, pos] = work.back();
    const auto& out = (*g.succs)[static_cast<size_t>(v)];
    if (pos < out.size()) {
      const NodeId w = out[pos++];
      if (!seen[static_cast<size_t>(w)]) {
        seen[static_cast<size_t>(w)] = 1;
        work.emplace_back(w, 0);
      }
      continue;
    }
    order.push_back(v);
    work.pop_back();
  }
  return order;
}

}  // namespace

DomTree DomTree::dominators(const Cfg& cfg) {
  return compute(cfg.view(Direction::kForward), Direction::kForward);
}

DomTree DomTree::post_dominators(const Cfg& cfg) {
  return compute(cfg.view(Direction::kBackward), Direction::kBackward);
}

DomTree DomTree::compute(const GraphView& g, Direction d) {
  DomTree t;
  t.direction_ = d;
  t.root_ = g.root;
  const auto n = static_cast<size_t>(g.size());
  const std::vector<NodeId> po = postorder(g);
  std::vector<int> po_num(n, -1);
  for (size_t i = 0; i < po.size(); ++i) po_num[static_cast<size_t>(po[i])] = static_cast<int>(i);
  t.rpo_.assign(po.rbegin(), po.rend());

  // Cooper-Harvey-Kennedy: idom[root] = root while iterating; processed = idom assigned.
  std::vector<NodeId> idom(n, kNoNode);
  idom[static_cast<size_t>(g.root)] = g.root;
  auto intersect = [&](NodeId a, NodeId b) {
    while (a != b) {
      while (po_num[static_cast<size_t>(a)] < po_num[static_cast<size_t>(b)])
        a = idom[static_cast<size_t>(a)];
      while (po_num[static_cast<size_t>(b)] < po_num[static_cast<size_t>(a)])
        b = idom[static_cast<size_t>(b)];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (NodeId v : t.rpo_) {
      if (v == g.root) continue;
      NodeId nd = kNoNode;
      for (NodeId p : (*g.preds)[static_cast<size_t>(v)]) {
        if (idom[static_cast<size_t>(p)] == kNoNode) continue;  // unprocessed or unreachable
        nd = nd == kNoNode ? p : intersect(p, nd);
      }
      if (nd != idom[static_cast<size_t>(v)]) {
        idom[static_cast<size_t>(v)] = nd;
        changed = true;
      }
    }
  }
  idom[static_cast<size_t>(g.root)] = kNoNode;
  t.idom_ = std::move(idom);
  t.number_tree();
  return t;
}

void DomTree::number_tree() {
  const size_t n = idom_.size();
  children_.assign(n, {});
  for (size_t v = 0; v < n; ++v)
    if (idom_[v] != kNoNode)
      children_[static_cast<size_t>(idom_[v])].push_back(static_cast<NodeId>(v));
  depth_.assign(n, -1);
  in_.assign(n, -1);
  out_.assign(n, -1);
  preorder_.clear();
  std::vector<std::pair<NodeId, size_t>> work{{root_, 0}};
  depth_[static_cast<size_t>(root_)] = 0;
  in_[static_cast<size_t>(root_)] = 0;
  preorder_.push_back(root_);
  while (!work.empty()) {
    auto& [v, pos] = work.back();
    const auto& ch = children_[static_cast<size_t>(v)];
    if (pos < ch.size()) {
      const NodeId c = ch[pos++];
      const auto ci = static_cast<size_t>(c);
      depth_[ci] = depth_[static_cast<size_t>(v)] + 1;
      in_[ci] = static_cast<int>(preorder_.size());
      preorder_.push_back(c);
      work.emplace_back(c, 0);
      continue;
    }
    out_[static_cast<size_t>(v)] = static_cast<int>(preorder_.size()) - 1;
    work.pop_back();
  }
}

bool DomTree::dominates(NodeId a, NodeId b) const {
  if (!contains(a) || !contains(b)) return false;
  return dfs_in(a) <= dfs_in(b) && dfs_out(b) <= dfs_out(a);
}

NodeId DomTree::nearest_common_dominator(NodeId a, NodeId b) const {
  if (!contains(a) || !contains(b)) return kNoNode;
  while (a != b) {
    if (depth(a) < depth(b)) std::swap(a, b);
    a = idom(a);
  }
  return a;
}

}  // namespace simtsync::analysis
