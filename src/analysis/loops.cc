#include "analysis/loops.h"

#include <algorithm>

#include "common/check.h"

namespace simtsync::analysis {
namespace {

template <typename T>
void sort_unique(std::vector<T>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

// Body of the loop with header h and the given latches: backward walk stopping at h.
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

bool Loop::contains(NodeId n) const {
  return std::binary_search(blocks.begin(), blocks.end(), n);
}

LoopInfo LoopInfo::compute(const Cfg& cfg, const DomTree& dom, const LoopOptions& o) {
  SIMTSYNC_CHECK(dom.direction() == Direction::kForward && dom.size() == cfg.size());
  LoopInfo info;
  info.innermost_.assign(static_cast<size_t>(cfg.size()), -1);
  for (const Edge& e : retreating_edges(cfg))
    if (!dom.dominates(e.second, e.first)) info.irreducible_.push_back(e);
  sort_unique(info.irreducible_);

  std::vector<char> in_body(static_cast<size_t>(cfg.size()), 0);  // scratch, cleared after use
  auto add_loop = [&](NodeId h, std::vector<NodeId> latches, std::vector<NodeId> blocks) {
    Loop l;
    l.id = static_cast<int>(info.loops_.size());
    l.header = h;
    l.blocks = std::move(blocks);
    l.latches = std::move(latches);
    for (NodeId b : l.blocks) in_body[static_cast<size_t>(b)] = 1;
    for (NodeId b : l.blocks)
      for (NodeId s : cfg.succs(b))
        if (!in_body[static_cast<size_t>(s)] && !cfg.is_virtual_edge(b, s))
          l.exit_edges.emplace_back(b, s);
    for (NodeId b : l.blocks) in_body[static_cast<size_t>(b)] = 0;
    std::sort(l.exit_edges.begin(), l.exit_edges.end());
    for (const Edge& e : l.exit_edges) {
      l.exiting_blocks.push_back(e.first);
      l.exit_blocks.push_back(e.second);
    }
    sort_unique(l.exiting_blocks);
    sort_unique(l.exit_blocks);
    for (NodeId b : l.exiting_blocks) l.exiting_branches.push_back(cfg.terminator(b));
    info.loops_.push_back(std::move(l));
  };
  // Headers in dominator-tree preorder, so that enclosing loops come first.
  for (NodeId h : dom.preorder()) {
    std::vector<NodeId> latches;
    for (NodeId p : cfg.preds(h))
      if (dom.contains(p) && dom.dominates(h, p)) latches.push_back(p);
    if (latches.empty()) continue;
    std::sort(latches.begin(), latches.end());
    std::vector<NodeId> merged = loop_body(cfg, dom, h, latches, o.budget);
    if (!o.split_shared_headers || latches.size() < 2) {
      add_loop(h, latches, std::move(merged));
      continue;
    }
    // One body per latch; the distinct ones smaller than the merged body become inner loops,
    // largest first so that an enclosing same-header loop precedes the loops inside it.
    std::vector<std::vector<NodeId>> bodies;
    for (NodeId t : latches) bodies.push_back(loop_body(cfg, dom, h, {t}, o.budget));
    // Only bodies nested in another latch's body are loops of their own (a spin inside a
    // retry loop); bodies that merely share the header are arms of one loop (a `continue` in
    // each branch, SSDE's switch block) and stay merged.
    auto nested = [&](const std::vector<NodeId>& b) {
      for (const auto& o : bodies)
        if (o.size() > b.size() && std::includes(o.begin(), o.end(), b.begin(), b.end()))
          return true;
      return false;
    };
    std::vector<std::vector<NodeId>> inner;
    for (const auto& b : bodies)
      if (b.size() < merged.size() && nested(b) &&
          std::find(inner.begin(), inner.end(), b) == inner.end())
        inner.push_back(b);
    std::stable_sort(inner.begin(), inner.end(),
                     [](const auto& a, const auto& b) { return a.size() > b.size(); });
    add_loop(h, latches, std::move(merged));
    for (const auto& b : inner) {
      std::vector<NodeId> ls;
      for (size_t k = 0; k < latches.size(); ++k)
        if (std::includes(b.begin(), b.end(), bodies[k].begin(), bodies[k].end()))
          ls.push_back(latches[k]);
      add_loop(h, ls, b);
    }
  }

  // Nesting: a later loop whose header lies in an earlier loop's body is inside it; the last
  // such loop in preorder is the innermost one.
  for (Loop& l : info.loops_) {
    // The last loop so far holding the header is the answer unless it shares the header (a
    // split loop): only then scan back (issue 46: a scan for every loop was quadratic).
    const int last = info.innermost_[static_cast<size_t>(l.header)];
    const bool shared = last >= 0 && info.loops_[static_cast<size_t>(last)].header == l.header;
    for (int p = shared ? l.id - 1 : -1; p >= 0; --p) {
      const Loop& outer = info.loops_[static_cast<size_t>(p)];
      if (!outer.contains(l.header)) continue;
      if (outer.header == l.header && !std::includes(outer.blocks.begin(), outer.blocks.end(),
                                                     l.blocks.begin(), l.blocks.end()))
        continue;  // a sibling sharing only the header
      l.parent = p;
      break;
    }
    if (!shared) l.parent = last;
    if (l.parent >= 0) {
      Loop& p = info.loops_[static_cast<size_t>(l.parent)];
      p.children.push_back(l.id);
      l.depth = p.depth + 1;
    }
    for (NodeId b : l.blocks) info.innermost_[static_cast<size_t>(b)] = l.id;
  }
  info.first_with_header_.assign(static_cast<size_t>(cfg.size()), -1);
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
