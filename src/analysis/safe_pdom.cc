#include "analysis/safe_pdom.h"

#include <algorithm>

#include "analysis/scc.h"

namespace simtsync::analysis {

ProgramPoint SafePdom::block_start(const Cfg& cfg, NodeId n) {
  if (!cfg.is_block(n)) return ProgramPoint{cfg.exit(), -1};
  return ProgramPoint{n, cfg.block(n).begin};
}

ProgramPoint SafePdom::after_inst(const Cfg& cfg, const DomTree& pdom, int inst) {
  const NodeId b = cfg.node_of_inst(inst);
  if (inst + 1 < cfg.block(b).end) return ProgramPoint{b, inst + 1};
  return block_start(cfg, pdom.idom(b));
}

bool SafePdom::pdominates(const Cfg& cfg, const DomTree& pdom, const ProgramPoint& a,
                          const ProgramPoint& b) {
  if (a.node == cfg.exit()) return true;
  if (b.node == cfg.exit()) return false;
  if (a.node == b.node) return a.inst >= b.inst;
  return pdom.strictly_dominates(a.node, b.node);
}

ProgramPoint SafePdom::ipdom(const Cfg& cfg, const DomTree& pdom, const ProgramPoint& a,
                             const ProgramPoint& b) {
  if (pdominates(cfg, pdom, a, b)) return a;
  if (pdominates(cfg, pdom, b, a)) return b;
  // Same block with a before b, or unrelated blocks: the nearest strict common post-dominator.
  NodeId n = a.node == b.node ? pdom.idom(a.node) : pdom.nearest_common_dominator(a.node, b.node);
  if (n == a.node || n == b.node) n = pdom.idom(n);
  if (n == kNoNode) n = cfg.exit();
  return block_start(cfg, n);
}

namespace {

// What the two parts of the algorithm share: the graph, the point algebra and the cycles.
class Resolver {
 public:
  Resolver(const Cfg& cfg, const DomTree& pdom, const LoopInfo& loops, const SimtDeadlock& dl,
           AnalysisBudget* budget, std::vector<std::optional<ProgramPoint>>& safe)
      : cfg_(cfg), pdom_(pdom), loops_(loops), dl_(dl), budget_(budget), safe_(safe) {}

  ProgramPoint join(const ProgramPoint& a, const ProgramPoint& b) const {
    return SafePdom::ipdom(cfg_, pdom_, a, b);
  }
  ProgramPoint branch_point(int br) const {
    const ReconvergencePoint* p = dl_.reconvergence().find_by_inst(br);
    return SafePdom::block_start(cfg_, p ? p->reconverge_node : pdom_.idom(cfg_.node_of_inst(br)));
  }

  // Lines 1-16 for one flagged loop. The published order (kPasses): each write's point, then
  // the branches on the paths to it, then its parallel branches. The points are joins, so the
  // fast form joins every write's own point and parallel branches first and then walks only
  // the paths whose branches can still move the result (paths_to_walk).
  ProgramPoint initial(const LoopVerdict& v, bool fast) {
    const LoopRegion& reg = dl_.regions()[v.loop];
    ProgramPoint s = SafePdom::block_start(cfg_, reg.reconverge);
    auto parallel_branches = [&](const RedefWrite& w) {
      if (!w.parallel || !dl_.options().parallel) return;
      auto it = reg.parallel.find(cfg_.node_of_inst(w.inst));
      if (it != reg.parallel.end())
        for (int br : it->second) s = join(s, branch_point(br));
    };
    auto reach_branches = [&](const RedefWrite& w, bool on_bb_cycle) {
      std::uint64_t visited = 0;
      const std::vector<int> brs =
          dl_.regions().reach_branches(v.loop, cfg_.node_of_inst(w.inst), &visited, on_bb_cycle);
      charge(budget_, visited, "blocks walked by the safe post-dominator search");
      for (int br : brs) s = join(s, branch_point(br));
    };
    if (!fast) {
      for (const RedefWrite& w : v.redefs) {
        s = join(s, SafePdom::after_inst(cfg_, pdom_, w.inst));  // line 4
        if (w.reachable) reach_branches(w, false);
        parallel_branches(w);
      }
      return s;
    }
    for (const RedefWrite& w : v.redefs) {
      s = join(s, SafePdom::after_inst(cfg_, pdom_, w.inst));
      parallel_branches(w);
    }
    for (const RedefWrite& w : v.redefs) {
      if (!w.reachable) continue;
      const Walk walk = paths_to_walk(cfg_.node_of_inst(w.inst), s);
      if (walk != Walk::kNone) reach_branches(w, walk == Walk::kOnCycle);
    }
    return s;
  }

  // Which blocks on the paths from R(L) to a write's block bb can hold a branch that moves s
  // (lines 6-8), s post-dominating R(L) and bb. With immediate post-dominator reconvergence,
  // a block n of those paths that R(L) reaches without passing s's block is strictly
  // post-dominated by s's block (every path from R(L) to EXIT passes it), so n's branch
  // reconverges at or below s. A path from R(L) to n through s's block and on to bb closes a
  // cycle through s's block, n and bb (s's block post-dominates bb). So: nothing when s is
  // EXIT or bb and s's block share no cycle; else only the blocks of bb's cycle class.
  enum class Walk { kNone, kOnCycle, kAll };
  Walk paths_to_walk(NodeId bb, const ProgramPoint& s) {
    if (s.node == cfg_.exit()) return Walk::kNone;
    if (dl_.reconvergence().convention() != Convention::kIpdom) return Walk::kAll;
    cycles();
    if (comp_[static_cast<size_t>(bb)] != comp_[static_cast<size_t>(s.node)] || !on_cycle(bb))
      return Walk::kNone;
    return Walk::kOnCycle;
  }

  // Line 17 as the published algorithm iterates it: passes over every flagged loop, each
  // walking from the loop's exits, until none moves. Kept as the reference the fast form is
  // tested against.
  int resolve_by_passes() {
    std::vector<char> seen(static_cast<size_t>(cfg_.size()), 0);
    stamp_.assign(loops_.loops().size(), -1);
    int passes = 0;
    bool changed = true;
    while (changed) {
      changed = false;
      ++passes;
      for (const Loop& l : loops_.loops())
        if (safe_[static_cast<size_t>(l.id)] && step(l, seen, false)) changed = true;
    }
    return passes;
  }

  // Line 17 in order: the loops of one strongly connected component of the graph (by header)
  // only meet the loops of their own and of later components on the paths from their exits,
  // so the components are settled last first, each until none of its loops moves. A walk that
  // enters a settled loop M whose safe point lies on no cycle need not go through M's body and
  // the paths from M's exits: everything there is post-dominated by safe(M) or by the safe
  // points of loops nested in M (joined as M's summary), and the walk goes on from safe(M).
  int resolve_by_components() {
    if (std::none_of(safe_.begin(), safe_.end(), [](const auto& p) { return p.has_value(); }))
      return 1;  // nothing flagged: no walk, and no cycle classes to build
    cycles();
    std::vector<char> seen(static_cast<size_t>(cfg_.size()), 0);
    stamp_.assign(loops_.loops().size(), -1);
    settled_.assign(loops_.loops().size(), 0);
    summary_.assign(loops_.loops().size(), std::nullopt);
    loops_per_header_.assign(static_cast<size_t>(cfg_.size()), 0);
    for (const Loop& l : loops_.loops()) ++loops_per_header_[static_cast<size_t>(l.header)];
    std::vector<int> order;
    for (const Loop& l : loops_.loops())
      if (safe_[static_cast<size_t>(l.id)]) order.push_back(l.id);
    auto comp_of = [&](int id) { return comp_[static_cast<size_t>(loops_.loop(id).header)]; };
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return comp_of(a) < comp_of(b); });
    int rounds = 1;
    for (size_t i = 0; i < order.size();) {
      size_t j = i;
      while (j < order.size() && comp_of(order[j]) == comp_of(order[i])) ++j;
      int r = 0;
      bool changed = true;
      while (changed) {
        changed = false;
        ++r;
        for (size_t k = i; k < j; ++k)
          while (step(loops_.loop(order[k]), seen, true)) changed = true;
      }
      rounds = std::max(rounds, r);
      for (size_t k = i; k < j; ++k) settled_[static_cast<size_t>(order[k])] = 1;
      i = j;
    }
    return rounds;
  }

 private:
  void cycles() {
    if (!comp_.empty()) return;
    const SccResult scc = strongly_connected_components(cfg_.view(Direction::kForward), {});
    comp_ = scc.component;
    cyclic_.assign(static_cast<size_t>(cfg_.size()), 0);
    for (const auto& members : scc.members)
      if (members.size() > 1)
        for (NodeId n : members) cyclic_[static_cast<size_t>(n)] = 1;
    for (NodeId n = 0; n < cfg_.num_blocks(); ++n)
      for (NodeId s : cfg_.succs(n))
        if (s == n) cyclic_[static_cast<size_t>(n)] = 1;
  }
  bool on_cycle(NodeId n) const { return cyclic_[static_cast<size_t>(n)] != 0; }

  // A settled loop holding n that a walk may jump over, -1 when none (see
  // resolve_by_components): alone on its header, its safe point on no cycle.
  int jump_target(NodeId n, int from) const {
    int target = -1;
    loops_.for_each_loop_containing(n, [&](int m) {
      if (target >= 0 || m == from || !settled_[static_cast<size_t>(m)]) return;
      const auto& sm = safe_[static_cast<size_t>(m)];
      if (!sm || loops_per_header_[static_cast<size_t>(loops_.loop(m).header)] != 1) return;
      if (sm->node != cfg_.exit() && on_cycle(sm->node)) return;
      target = m;
    });
    return target;
  }

  // safe(M) joined with the safe points of the flagged loops nested in M.
  const ProgramPoint& summary(int m) {
    auto& sum = summary_[static_cast<size_t>(m)];
    if (!sum) sum = nested_summary(m, *safe_[static_cast<size_t>(m)]);
    return *sum;
  }
  // The join of `s` with the safe points of the flagged loops nested in loop k.
  ProgramPoint nested_summary(int k, ProgramPoint s) {
    for (int c : loops_.loop(k).children)
      s = safe_[static_cast<size_t>(c)] ? join(s, summary(c)) : nested_summary(c, s);
    return s;
  }

  // One walk from L's exits to safe(L) and the join of what it meets (lines of
  // resolve_SafePDom_conflicts); true when safe(L) moved.
  bool step(const Loop& l, std::vector<char>& seen, bool jumps) {
    auto& sl = safe_[static_cast<size_t>(l.id)];
    const ProgramPoint stop = *sl;
    std::vector<NodeId> work, found;
    std::vector<ProgramPoint> summaries;
    auto visit = [&](NodeId b) {
      if (!cfg_.is_block(b) || seen[static_cast<size_t>(b)]) return;
      seen[static_cast<size_t>(b)] = 1;
      found.push_back(b);
      work.push_back(b);
    };
    for (NodeId e : l.exit_blocks) visit(e);
    while (!work.empty()) {
      const NodeId n = work.back();
      work.pop_back();
      if (n == stop.node) continue;  // reached safe(L), or the point is inside n
      if (jumps) {
        const int m = jump_target(n, l.id);
        if (m >= 0) {
          // Past safe(M) only when safe(L) already post-dominates it: otherwise the walk would
          // pass the point it stops at now; the join moves safe(L) and the next walk goes on.
          const ProgramPoint& sm = *safe_[static_cast<size_t>(m)];
          summaries.push_back(summary(m));
          if (SafePdom::pdominates(cfg_, pdom_, stop, sm)) visit(sm.node);
          continue;
        }
      }
      for (NodeId s : cfg_.succs(n))
        if (!cfg_.is_virtual_edge(n, s)) visit(s);
    }
    charge(budget_, found.size(), "blocks walked by the safe post-dominator search");
    std::vector<int> on_path;
    ++walk_;
    for (NodeId b : found) {
      seen[static_cast<size_t>(b)] = 0;
      loops_.for_each_loop_containing(b, [&](int m) {
        if (m == l.id || !safe_[static_cast<size_t>(m)] || stamp_[static_cast<size_t>(m)] == walk_)
          return;
        stamp_[static_cast<size_t>(m)] = walk_;
        on_path.push_back(m);
      });
    }
    std::sort(on_path.begin(), on_path.end());
    bool changed = false;
    auto take = [&](const ProgramPoint& p) {
      if (SafePdom::pdominates(cfg_, pdom_, *sl, p)) return;
      sl = join(*sl, p);
      changed = true;
    };
    for (int m : on_path) take(*safe_[static_cast<size_t>(m)]);
    for (const ProgramPoint& p : summaries) take(p);
    return changed;
  }

  const Cfg& cfg_;
  const DomTree& pdom_;
  const LoopInfo& loops_;
  const SimtDeadlock& dl_;
  AnalysisBudget* budget_;
  std::vector<std::optional<ProgramPoint>>& safe_;
  std::vector<int> comp_;
  std::vector<char> cyclic_, settled_;
  std::vector<int> loops_per_header_;
  std::vector<long> stamp_;
  long walk_ = 0;
  std::vector<std::optional<ProgramPoint>> summary_;
};

}  // namespace

SafePdom SafePdom::compute(const Cfg& cfg, const DomTree& pdom, const LoopInfo& loops,
                           const SimtDeadlock& dl, AnalysisBudget* budget, Method method) {
  SafePdom r;
  r.safe_.assign(loops.loops().size(), std::nullopt);
  Resolver res(cfg, pdom, loops, dl, budget, r.safe_);
  const bool fast = method == Method::kFast;
  for (const LoopVerdict& v : dl.verdicts())
    if (v.flagged) r.safe_[static_cast<size_t>(v.loop)] = res.initial(v, fast);
  r.passes_ = fast ? res.resolve_by_components() : res.resolve_by_passes();
  return r;
}

}  // namespace simtsync::analysis
