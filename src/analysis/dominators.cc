#include "analysis/dominators.h"

#include <algorithm>
#include <utility>

#include "analysis/csr.h"

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
  t.rpo_.assign(po.rbegin(), po.rend());

  // Semi-NCA (Georgiadis; Lengauer-Tarjan's semidominators, then nearest common ancestors in
  // the DFS tree). Near-linear: the iterative Cooper-Harvey-Kennedy scheme used before needs a
  // pass per level of loop nesting, quadratic on thousands of nested loops (issue 46). The
  // immediate dominator is unique, so the tree is the same.
  std::vector<int> num(n, -1), parent;  // DFS preorder number; parent by number
  std::vector<NodeId> vert;
  {
    std::vector<std::pair<NodeId, size_t>> work{{g.root, 0}};
    num[static_cast<size_t>(g.root)] = 0;
    vert.push_back(g.root);
    parent.push_back(-1);
    while (!work.empty()) {
      auto& [v, pos] = work.back();
      const auto& out = (*g.succs)[static_cast<size_t>(v)];
      if (pos < out.size()) {
        const NodeId w = out[pos++];
        if (num[static_cast<size_t>(w)] < 0) {
          num[static_cast<size_t>(w)] = static_cast<int>(vert.size());
          parent.push_back(num[static_cast<size_t>(v)]);
          vert.push_back(w);
          work.emplace_back(w, 0);
        }
        continue;
      }
      work.pop_back();
    }
  }
  const size_t m = vert.size();
  std::vector<int> semi(m), label(m), anc(m, -1), path;
  for (size_t i = 0; i < m; ++i) semi[i] = label[i] = static_cast<int>(i);
  auto eval = [&](int v) {
    if (anc[static_cast<size_t>(v)] < 0) return v;
    path.clear();
    for (int x = v; anc[static_cast<size_t>(anc[static_cast<size_t>(x)])] >= 0;
         x = anc[static_cast<size_t>(x)])
      path.push_back(x);
    while (!path.empty()) {  // compress from the top of the path down
      const auto y = static_cast<size_t>(path.back());
      path.pop_back();
      const auto a = static_cast<size_t>(anc[y]);
      if (semi[static_cast<size_t>(label[a])] < semi[static_cast<size_t>(label[y])])
        label[y] = label[a];
      anc[y] = anc[a];
    }
    return label[static_cast<size_t>(v)];
  };
  for (size_t i = m - 1; i >= 1; --i) {
    for (NodeId p : (*g.preds)[static_cast<size_t>(vert[i])]) {
      const int v = num[static_cast<size_t>(p)];
      if (v < 0) continue;  // unreachable from the root
      semi[i] = std::min(semi[i], semi[static_cast<size_t>(eval(v))]);
    }
    anc[i] = parent[i];
  }
  std::vector<int> dn(m, -1);  // idom by number
  for (size_t i = 1; i < m; ++i) {
    int d = parent[i];
    while (d > semi[i]) d = dn[static_cast<size_t>(d)];
    dn[i] = d;
  }
  std::vector<NodeId> idom(n, kNoNode);
  for (size_t i = 1; i < m; ++i)
    idom[static_cast<size_t>(vert[i])] = vert[static_cast<size_t>(dn[i])];
  t.idom_ = std::move(idom);
  t.number_tree();
  return t;
}

void DomTree::number_tree() {
  const size_t n = idom_.size();
  group_indices(idom_, n, child_begin_, children_);
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
    const auto ch = children(v);
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
  if (dominates(a, b)) return a;  // O(1) by the tree intervals: no walk down a long chain
  if (dominates(b, a)) return b;
  while (a != b) {
    if (depth(a) < depth(b)) std::swap(a, b);
    a = idom(a);
  }
  return a;
}

}  // namespace simtsync::analysis
