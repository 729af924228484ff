#include "analysis/loops.h"

#include <algorithm>

#include "analysis/csr.h"
#include "common/check.h"

namespace simtsync::analysis {
namespace {

template <typename T>
void sort_unique(std::vector<T>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

// Body of the loop with header h and the given latches: backward walk stopping at h. Only the
// loops split off a shared header are built this way (one body per latch).
std::vector<NodeId> loop_body(const Cfg& cfg, const DomTree& dom, NodeId h,
                              const std::vector<NodeId>& latches, AnalysisBudget* budget) {
  std::vector<char> in(static_cast<size_t>(cfg.size()), 0);
  in[static_cast<size_t>(h)] = 1;
  std::vector<NodeId> body{h}, work;
  for (NodeId l : latches)
    if (!in[static_cast<size_t>(l)]) {
      in[static_cast<size_t>(l)] = 1;
      body.push_back(l);
      work.push_back(l);
    }
  while (!work.empty()) {
    const NodeId v = work.back();
    work.pop_back();
    for (NodeId p : cfg.preds(v)) {
      // Blocks unreachable from ENTRY may jump into a loop; they are not part of it.
      if (in[static_cast<size_t>(p)] || !dom.contains(p)) continue;
      in[static_cast<size_t>(p)] = 1;
      body.push_back(p);
      work.push_back(p);
    }
  }
  charge(budget, body.size(), "loop bodies");
  std::sort(body.begin(), body.end());
  return body;
}

// Retreating edges (target on the DFS stack) of the forward walk, to spot irreducible ones.
std::vector<Edge> retreating_edges(const Cfg& cfg) {
  std::vector<Edge> out;
  std::vector<char> state(static_cast<size_t>(cfg.size()), 0);  // 1 on stack, 2 done
  std::vector<std::pair<NodeId, size_t>> work{{cfg.entry(), 0}};
  state[static_cast<size_t>(cfg.entry())] = 1;
  while (!work.empty()) {
    auto& [v, pos] = work.back();
    if (pos < cfg.succs(v).size()) {
      const NodeId w = cfg.succs(v)[pos++];
      if (state[static_cast<size_t>(w)] == 1) out.emplace_back(v, w);
      if (state[static_cast<size_t>(w)] == 0) {
        state[static_cast<size_t>(w)] = 1;
        work.emplace_back(w, 0);
      }
      continue;
    }
    state[static_cast<size_t>(v)] = 2;
    work.pop_back();
  }
  return out;
}

}  // namespace

LoopForest loop_forest(const GraphView& g, const DomTree& dom) {
  // For each header (inner headers first, reverse dominator preorder), a backward walk from
  // its latches; a node already in an inner loop stands for that loop's outermost known
  // ancestor (union-find), whose header's predecessors the walk continues from.
  const std::vector<std::vector<NodeId>>& preds = *g.preds;
  LoopForest fo;
  fo.inner.assign(static_cast<size_t>(g.size()), -1);
  std::vector<int> root;
  auto find = [&](int x) {
    while (root[static_cast<size_t>(x)] != x) {
      root[static_cast<size_t>(x)] = root[static_cast<size_t>(root[static_cast<size_t>(x)])];
      x = root[static_cast<size_t>(x)];
    }
    return x;
  };
  std::vector<NodeId> work;
  const std::vector<NodeId>& pre = dom.preorder();
  for (auto it = pre.rbegin(); it != pre.rend(); ++it) {
    const NodeId h = *it;
    std::vector<NodeId> latches;
    for (NodeId p : preds[static_cast<size_t>(h)])
      if (dom.contains(p) && dom.dominates(h, p)) latches.push_back(p);
    if (latches.empty()) continue;
    sort_unique(latches);
    const int t = static_cast<int>(fo.header.size());
    fo.header.push_back(h);
    fo.latches.push_back(latches);
    fo.parent.push_back(-1);
    root.push_back(t);
    fo.inner[static_cast<size_t>(h)] = t;
    work.assign(latches.begin(), latches.end());
    while (!work.empty()) {
      const NodeId v = work.back();
      work.pop_back();
      const int m = fo.inner[static_cast<size_t>(v)];
      NodeId from = v;
      if (m < 0) {
        fo.inner[static_cast<size_t>(v)] = t;
      } else {
        const int r = find(m);
        if (r == t) continue;
        root[static_cast<size_t>(r)] = t;
        fo.parent[static_cast<size_t>(r)] = t;
        from = fo.header[static_cast<size_t>(r)];
      }
      for (NodeId p : preds[static_cast<size_t>(from)])
        if (dom.contains(p)) work.push_back(p);
    }
  }
  return fo;
}

bool LoopInfo::contains(int id, NodeId n) const {
  const auto& sb = split_body_[static_cast<size_t>(id)];
  if (tree_of_loop_[static_cast<size_t>(id)] < 0)
    return std::binary_search(sb.begin(), sb.end(), n);
  const int t = tree_of_node(n);
  if (t < 0) return false;
  const int l = tree_of_loop_[static_cast<size_t>(id)];
  return tree_pre_[static_cast<size_t>(l)] <= tree_pre_[static_cast<size_t>(t)] &&
         tree_pre_[static_cast<size_t>(t)] <= tree_last_[static_cast<size_t>(l)];
}

std::vector<NodeId> LoopInfo::blocks(int id) const {
  if (tree_of_loop_[static_cast<size_t>(id)] < 0) return split_body_[static_cast<size_t>(id)];
  // The nodes whose innermost tree loop lies in this one's subtree.
  std::vector<NodeId> out;
  std::vector<int> work{tree_of_loop_[static_cast<size_t>(id)]};
  while (!work.empty()) {
    const auto t = static_cast<size_t>(work.back());
    work.pop_back();
    out.insert(out.end(), tree_own_.begin() + tree_own_begin_[t],
               tree_own_.begin() + tree_own_begin_[t + 1]);
    work.insert(work.end(), tree_kids_[t].begin(), tree_kids_[t].end());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<NodeId> LoopInfo::own_blocks(int id) const {
  return {own_.begin() + own_begin_[static_cast<size_t>(id)],
          own_.begin() + own_begin_[static_cast<size_t>(id) + 1]};
}

std::vector<char> LoopInfo::loops_holding(const std::vector<char>& flag) const {
  std::vector<char> tree(tree_parent_.size(), 0), out(loops_.size(), 0);
  for (size_t v = 0; v < tree_inner_.size() && v < flag.size(); ++v)
    if (flag[v] && tree_inner_[v] >= 0) tree[static_cast<size_t>(tree_inner_[v])] = 1;
  for (size_t t = 0; t < tree.size(); ++t)  // a parent comes after its children
    if (tree[t] && tree_parent_[t] >= 0) tree[static_cast<size_t>(tree_parent_[t])] = 1;
  for (const Loop& l : loops_) {
    const auto id = static_cast<size_t>(l.id);
    if (tree_of_loop_[id] >= 0) {
      out[id] = tree[static_cast<size_t>(tree_of_loop_[id])];
      continue;
    }
    for (NodeId b : split_body_[id])
      if (static_cast<size_t>(b) < flag.size() && flag[static_cast<size_t>(b)]) {
        out[id] = 1;
        break;
      }
  }
  return out;
}

LoopInfo LoopInfo::compute(const Cfg& cfg, const DomTree& dom, const LoopOptions& o) {
  SIMTSYNC_CHECK(dom.direction() == Direction::kForward && dom.size() == cfg.size());
  LoopInfo info;
  const size_t n = static_cast<size_t>(cfg.size());
  info.innermost_.assign(n, -1);
  for (const Edge& e : retreating_edges(cfg))
    if (!dom.dominates(e.second, e.first)) info.irreducible_.push_back(e);
  sort_unique(info.irreducible_);

  const LoopForest fo = loop_forest(cfg.view(Direction::kForward), dom);
  const int ntree = static_cast<int>(fo.header.size());
  std::vector<int> tree_at(n, -1);  // header -> tree loop
  for (int t = 0; t < ntree; ++t)
    tree_at[static_cast<size_t>(fo.header[static_cast<size_t>(t)])] = t;
  // Preorder intervals of the forest (children of a tree loop in any order).
  std::vector<std::vector<int>> kids(static_cast<size_t>(ntree));
  for (int t = 0; t < ntree; ++t)
    if (fo.parent[static_cast<size_t>(t)] >= 0)
      kids[static_cast<size_t>(fo.parent[static_cast<size_t>(t)])].push_back(t);
  info.tree_pre_.assign(static_cast<size_t>(ntree), 0);
  info.tree_last_.assign(static_cast<size_t>(ntree), 0);
  {
    int next = 0;
    std::vector<std::pair<int, size_t>> st;
    for (int t = ntree - 1; t >= 0; --t) {
      if (fo.parent[static_cast<size_t>(t)] >= 0) continue;
      st.emplace_back(t, 0);
      info.tree_pre_[static_cast<size_t>(t)] = next++;
      while (!st.empty()) {
        auto& [x, k] = st.back();
        if (k < kids[static_cast<size_t>(x)].size()) {
          const int c = kids[static_cast<size_t>(x)][k++];
          info.tree_pre_[static_cast<size_t>(c)] = next++;
          st.emplace_back(c, 0);
          continue;
        }
        info.tree_last_[static_cast<size_t>(x)] = next - 1;
        st.pop_back();
      }
    }
  }
  info.tree_kids_ = std::move(kids);
  // Blocks per innermost tree loop, for the sizes the split decision compares.
  std::vector<size_t> tree_size(static_cast<size_t>(ntree), 0);
  for (size_t v = 0; v < n; ++v)
    if (fo.inner[v] >= 0) ++tree_size[static_cast<size_t>(fo.inner[v])];
  for (int t = 0; t < ntree; ++t)  // children are found before their parents
    if (fo.parent[static_cast<size_t>(t)] >= 0)
      tree_size[static_cast<size_t>(fo.parent[static_cast<size_t>(t)])] +=
          tree_size[static_cast<size_t>(t)];
  info.tree_inner_ = fo.inner;
  info.tree_parent_ = fo.parent;
  group_indices(fo.inner, static_cast<size_t>(ntree), info.tree_own_begin_, info.tree_own_);
  info.tree_loop_.assign(static_cast<size_t>(ntree), -1);

  // Loops in dominator-tree preorder of their headers, so that enclosing loops come first;
  // after each tree loop, the loops split off its header.
  auto add_loop = [&](NodeId h, std::vector<NodeId> latches, int tree, std::vector<NodeId> body) {
    Loop l;
    l.id = static_cast<int>(info.loops_.size());
    l.header = h;
    l.latches = std::move(latches);
    info.loops_.push_back(std::move(l));
    info.tree_of_loop_.push_back(tree);
    info.split_body_.push_back(std::move(body));
    info.split_of_.emplace_back();
    if (tree >= 0) info.tree_loop_[static_cast<size_t>(tree)] = info.loops_.back().id;
    return info.loops_.back().id;
  };
  for (NodeId h : dom.preorder()) {
    const int t = tree_at[static_cast<size_t>(h)];
    if (t < 0) continue;
    const std::vector<NodeId>& latches = fo.latches[static_cast<size_t>(t)];
    const int merged = add_loop(h, latches, t, {});
    if (!o.split_shared_headers || latches.size() < 2) continue;
    // One body per latch; the distinct ones smaller than the merged body become inner loops,
    // largest first so that an enclosing same-header loop precedes the loops inside it.
    std::vector<std::vector<NodeId>> bodies;
    for (NodeId l : latches) bodies.push_back(loop_body(cfg, dom, h, {l}, o.budget));
    // Only bodies nested in another latch's body are loops of their own (a spin inside a
    // retry loop); bodies that merely share the header are arms of one loop (a `continue` in
    // each branch, SSDE's switch block) and stay merged.
    auto nested = [&](const std::vector<NodeId>& b) {
      for (const auto& ob : bodies)
        if (ob.size() > b.size() && std::includes(ob.begin(), ob.end(), b.begin(), b.end()))
          return true;
      return false;
    };
    std::vector<std::vector<NodeId>> inner;
    for (const auto& b : bodies)
      if (b.size() < tree_size[static_cast<size_t>(t)] && nested(b) &&
          std::find(inner.begin(), inner.end(), b) == inner.end())
        inner.push_back(b);
    std::stable_sort(inner.begin(), inner.end(),
                     [](const auto& a, const auto& b) { return a.size() > b.size(); });
    for (auto& b : inner) {
      std::vector<NodeId> ls;
      for (size_t k = 0; k < latches.size(); ++k)
        if (std::includes(b.begin(), b.end(), bodies[k].begin(), bodies[k].end()))
          ls.push_back(latches[k]);
      const int id = add_loop(h, ls, -1, std::move(b));
      info.split_of_[static_cast<size_t>(merged)].push_back(id);
      info.has_split_ = true;
    }
  }

  // Innermost loop of each node: its innermost tree loop, or the last loop split off that
  // tree loop's header that holds it.
  for (size_t v = 0; v < n; ++v) {
    const int t = fo.inner[v];
    if (t < 0) continue;
    int id = info.tree_loop_[static_cast<size_t>(t)];
    const auto& sp = info.split_of_[static_cast<size_t>(id)];
    for (auto it = sp.rbegin(); it != sp.rend(); ++it)
      if (info.contains(*it, static_cast<NodeId>(v))) {
        id = *it;
        break;
      }
    info.innermost_[v] = id;
  }
  // Nesting. A tree loop's parent is the innermost loop holding its header among those before
  // it: its parent tree loop, or the last loop split off that one's header that holds it. A
  // split loop's parent is the nearest earlier loop of its header whose body holds its own.
  for (Loop& l : info.loops_) {
    const int t = info.tree_of_loop_[static_cast<size_t>(l.id)];
    if (t >= 0) {
      const int pt = fo.parent[static_cast<size_t>(t)];
      if (pt >= 0) {
        l.parent = info.tree_loop_[static_cast<size_t>(pt)];
        const auto& sp = info.split_of_[static_cast<size_t>(l.parent)];
        for (auto it = sp.rbegin(); it != sp.rend(); ++it)
          if (info.contains(*it, l.header)) {
            l.parent = *it;
            break;
          }
      }
    } else {
      const std::vector<NodeId>& mine = info.split_body_[static_cast<size_t>(l.id)];
      for (int p = l.id - 1; p >= 0; --p) {
        const Loop& outer = info.loops_[static_cast<size_t>(p)];
        if (outer.header != l.header) continue;
        const std::vector<NodeId>& ob = info.split_body_[static_cast<size_t>(p)];
        if (info.tree_of_loop_[static_cast<size_t>(p)] < 0 &&
            !std::includes(ob.begin(), ob.end(), mine.begin(), mine.end()))
          continue;  // a sibling sharing only the header
        l.parent = p;
        break;
      }
    }
    if (l.parent >= 0) {
      Loop& p = info.loops_[static_cast<size_t>(l.parent)];
      p.children.push_back(l.id);
      l.depth = p.depth + 1;
    }
  }

  // Exits. An edge leaves the tree loops from its source's innermost one up to (not
  // including) the first that holds its target: what it costs is the loops it leaves.
  std::vector<std::vector<Edge>> exits(info.loops_.size());
  std::uint64_t exit_count = 0;
  for (NodeId b = 0; b < static_cast<NodeId>(n); ++b) {
    if (fo.inner[static_cast<size_t>(b)] < 0) continue;
    for (NodeId s : cfg.succs(b)) {
      if (cfg.is_virtual_edge(b, s)) continue;
      for (int t = fo.inner[static_cast<size_t>(b)]; t >= 0;
           t = fo.parent[static_cast<size_t>(t)]) {
        const int id = info.tree_loop_[static_cast<size_t>(t)];
        if (info.contains(id, s)) break;
        exits[static_cast<size_t>(id)].emplace_back(b, s);
        ++exit_count;
      }
    }
  }
  for (const Loop& l : info.loops_) {
    if (info.tree_of_loop_[static_cast<size_t>(l.id)] >= 0) continue;
    for (NodeId b : info.split_body_[static_cast<size_t>(l.id)])
      for (NodeId s : cfg.succs(b))
        if (!cfg.is_virtual_edge(b, s) && !info.contains(l.id, s)) {
          exits[static_cast<size_t>(l.id)].emplace_back(b, s);
          ++exit_count;
        }
  }
  charge(o.budget, exit_count, "loop exits");
  for (Loop& l : info.loops_) {
    l.exit_edges = std::move(exits[static_cast<size_t>(l.id)]);
    std::sort(l.exit_edges.begin(), l.exit_edges.end());
    for (const Edge& e : l.exit_edges) {
      l.exiting_blocks.push_back(e.first);
      l.exit_blocks.push_back(e.second);
    }
    sort_unique(l.exiting_blocks);
    sort_unique(l.exit_blocks);
    for (NodeId b : l.exiting_blocks) l.exiting_branches.push_back(cfg.terminator(b));
  }

  // Own blocks (CSR by innermost loop).
  group_indices(info.innermost_, info.loops_.size(), info.own_begin_, info.own_);

  info.first_with_header_.assign(n, -1);
  for (const Loop& l : info.loops_)
    if (info.first_with_header_[static_cast<size_t>(l.header)] < 0)
      info.first_with_header_[static_cast<size_t>(l.header)] = l.id;
  return info;
}

int LoopInfo::loop_with_header(NodeId h) const {
  return h >= 0 && static_cast<size_t>(h) < first_with_header_.size()
             ? first_with_header_[static_cast<size_t>(h)]
             : -1;
}

int LoopInfo::depth_of(NodeId n) const {
  const int l = loop_of(n);
  return l < 0 ? 0 : loops_[static_cast<size_t>(l)].depth;
}

}  // namespace simtsync::analysis
