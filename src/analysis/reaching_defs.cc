#include "analysis/reaching_defs.h"

#include <algorithm>
#include <span>
#include <unordered_set>

#include "analysis/csr.h"
#include "analysis/dominators.h"
#include "analysis/inst_info.h"
#include "analysis/loops.h"
#include "analysis/scc.h"

namespace simtsync::analysis {
namespace {

// The registers of `regs` inside [0, nregs), each once, in first-seen order.
void valid_unique(std::vector<int>& regs, size_t nregs) {
  std::vector<int> out;
  for (int r : regs)
    if (r >= 0 && static_cast<size_t>(r) < nregs &&
        std::find(out.begin(), out.end(), r) == out.end())
      out.push_back(r);
  regs = std::move(out);
}

}  // namespace

ReachingDefs::ValueId ReachingDefs::new_value(int inst, int reg) {
  (void)reg;
  vinst_.push_back(inst);
  return static_cast<ValueId>(vinst_.size() - 1);
}

ReachingDefs ReachingDefs::compute(const Cfg& cfg, AnalysisBudget* budget) {
  const ptx::Function& f = cfg.function();
  ReachingDefs r;
  r.cfg_ = &cfg;
  const size_t nregs = f.regs.size();
  const size_t ninst = f.insts.size();
  r.by_reg_.assign(nregs, {});

  // Uses and definitions of every instruction (each register once), as CSR arrays.
  r.use_begin_.assign(ninst + 1, 0);
  r.def_begin_.assign(ninst + 1, 0);
  std::vector<int> def_reg;
  for (size_t i = 0; i < ninst; ++i) {
    std::vector<int> u = uses(f.insts[i]);
    valid_unique(u, nregs);
    r.use_reg_.insert(r.use_reg_.end(), u.begin(), u.end());
    r.use_begin_[i + 1] = static_cast<int>(r.use_reg_.size());
    std::vector<int> d = defs(f.insts[i]);
    valid_unique(d, nregs);
    for (int reg : d) r.by_reg_[static_cast<size_t>(reg)].push_back(static_cast<int>(i));
    def_reg.insert(def_reg.end(), d.begin(), d.end());
    r.def_begin_[i + 1] = static_cast<int>(def_reg.size());
  }
  r.use_val_.assign(r.use_reg_.size(), kNoValue);
  r.def_val_.assign(def_reg.size(), kNoValue);

  // The graph with one root above ENTRY and above every node ENTRY does not reach: the root
  // holds no definition, so the added edges change no reaching set, and every node gets a
  // dominator.
  const int n = cfg.size();
  const NodeId root = n;
  std::vector<std::vector<NodeId>> succs(static_cast<size_t>(n) + 1), preds(succs.size());
  for (NodeId v = 0; v < n; ++v) {
    succs[static_cast<size_t>(v)] = cfg.succs(v);
    preds[static_cast<size_t>(v)] = cfg.preds(v);
  }
  std::vector<char> reached(static_cast<size_t>(n), 0);
  std::vector<NodeId> work{cfg.entry()};
  reached[static_cast<size_t>(cfg.entry())] = 1;
  while (!work.empty()) {
    const NodeId v = work.back();
    work.pop_back();
    for (NodeId s : cfg.succs(v))
      if (!reached[static_cast<size_t>(s)]) {
        reached[static_cast<size_t>(s)] = 1;
        work.push_back(s);
      }
  }
  for (NodeId v = 0; v < n; ++v)
    if (v == cfg.entry() || !reached[static_cast<size_t>(v)]) {
      succs[static_cast<size_t>(root)].push_back(v);
      preds[static_cast<size_t>(v)].push_back(root);
    }
  const DomTree dt = DomTree::compute(GraphView{root, &succs, &preds}, Direction::kForward);

  // Merge placement. In a reducible graph (issue 46), the iterated dominance frontier of a
  // set is the iterated frontier of the graph without back edges, closed under "the header
  // of a loop holding a member" (Ramalingam, "On loops, dominators, and dominance
  // frontiers", TOPLAS 2002). The frontiers without back edges stay small where loops nest:
  // with them, the frontier of the latch of the k-th of n nested loops holds k headers, and
  // all of them together n^2 / 2. Headers are taken from the loop forest, innermost first,
  // up to the first where the register cannot be live (see possibly_live below). An
  // irreducible graph keeps the full frontiers. A merge placed where the iterated frontier
  // has none would only repeat one value: reaching sets stay exact either way.
  bool reducible = true;
  {
    std::vector<char> state(succs.size(), 0);  // 1 on the DFS stack, 2 done
    std::vector<std::pair<NodeId, size_t>> st{{root, 0}};
    state[static_cast<size_t>(root)] = 1;
    while (!st.empty() && reducible) {
      auto& [v, pos] = st.back();
      if (pos < succs[static_cast<size_t>(v)].size()) {
        const NodeId w = succs[static_cast<size_t>(v)][pos++];
        if (state[static_cast<size_t>(w)] == 1 && !dt.dominates(w, v)) reducible = false;
        if (state[static_cast<size_t>(w)] == 0) {
          state[static_cast<size_t>(w)] = 1;
          st.emplace_back(w, 0);
        }
        continue;
      }
      state[static_cast<size_t>(v)] = 2;
      st.pop_back();
    }
  }
  LoopForest forest;
  if (reducible) forest = loop_forest(GraphView{root, &succs, &preds}, dt);
  // Dominance frontiers (Cooper, Harvey and Kennedy), of the graph without back edges when
  // it is reducible.
  std::vector<std::vector<NodeId>> df(succs.size());
  std::vector<NodeId> fpreds;
  for (NodeId b = 0; b <= n; ++b) {
    fpreds.clear();
    for (NodeId p : preds[static_cast<size_t>(b)])
      if (!reducible || !dt.dominates(b, p)) fpreds.push_back(p);
    if (fpreds.size() < 2) continue;
    std::uint64_t added = 0;
    for (NodeId p : fpreds) {
      for (NodeId x = p; x != kNoNode && x != dt.idom(b); x = dt.idom(x)) {
        auto& d = df[static_cast<size_t>(x)];
        if (!d.empty() && d.back() == b) break;  // this walk was already made for b
        d.push_back(b);
        ++added;
      }
    }
    charge(budget, added, "dominance frontiers");
  }

  // The rooted copy of the graph was for the dominator tree, the loop forest and the
  // frontiers; what follows walks the Cfg itself.
  const size_t nn = succs.size();
  std::vector<std::vector<NodeId>>().swap(succs);
  std::vector<std::vector<NodeId>>().swap(preds);

  // Liveness, asked only where a merge could go (pruned SSA): is `reg` read on some path from
  // the start of `j` before an unguarded definition? Without it, a counter of each of a few
  // thousand nested loops would get a merge at every enclosing header (minimal SSA is
  // quadratic there). A search that finds no use proves every block it saw dead too, which
  // later searches for the same register reuse.
  std::vector<std::vector<int>> uses_by_reg(nregs), kills_by_reg(nregs);
  for (size_t i = 0; i < ninst; ++i) {
    for (int k = r.use_begin_[i]; k < r.use_begin_[i + 1]; ++k)
      uses_by_reg[static_cast<size_t>(r.use_reg_[static_cast<size_t>(k)])].push_back(
          static_cast<int>(i));
    if (f.insts[i].guard.reg < 0)
      for (int k = r.def_begin_[i]; k < r.def_begin_[i + 1]; ++k)
        kills_by_reg[static_cast<size_t>(def_reg[static_cast<size_t>(k)])].push_back(
            static_cast<int>(i));
  }
  // A block reaches a use only when its component of the CFG comes no later than the use's
  // (scc.h: edges go to smaller ids), so the search never enters the code after the last
  // use: a register read only near its definition is not searched to the end of the function.
  const std::vector<int> comp =
      strongly_connected_components(cfg.view(Direction::kForward), {}).component;
  std::vector<int> min_use_comp(nregs, INT32_MAX);
  for (size_t reg = 0; reg < nregs; ++reg)
    for (int i : uses_by_reg[reg])
      min_use_comp[reg] =
          std::min(min_use_comp[reg], comp[static_cast<size_t>(cfg.node_of_inst(i))]);
  std::vector<int> dead_for(nn, -1), seen_in(nn, -1);
  int search = 0;
  auto first_at = [](const std::vector<int>& v, int begin, int end) {
    auto it = std::lower_bound(v.begin(), v.end(), begin);
    return it != v.end() && *it < end ? *it : -1;
  };
  auto live_in = [&](int reg, NodeId j) {
    ++search;
    const auto& us = uses_by_reg[static_cast<size_t>(reg)];
    const auto& ks = kills_by_reg[static_cast<size_t>(reg)];
    if (j >= n || comp[static_cast<size_t>(j)] < min_use_comp[static_cast<size_t>(reg)])
      return false;
    std::vector<NodeId> todo{j}, saw;
    seen_in[static_cast<size_t>(j)] = search;
    while (!todo.empty()) {
      const NodeId b = todo.back();
      todo.pop_back();
      saw.push_back(b);
      if (cfg.is_block(b)) {
        const int u = first_at(us, cfg.block(b).begin, cfg.block(b).end);
        const int k = first_at(ks, cfg.block(b).begin, cfg.block(b).end);
        if (u >= 0 && (k < 0 || u <= k)) return true;
        if (k >= 0) continue;
      }
      for (NodeId s : cfg.succs(b))
        if (seen_in[static_cast<size_t>(s)] != search && dead_for[static_cast<size_t>(s)] != reg &&
            comp[static_cast<size_t>(s)] >= min_use_comp[static_cast<size_t>(reg)]) {
          seen_in[static_cast<size_t>(s)] = search;
          todo.push_back(s);
        }
    }
    for (NodeId b : saw) dead_for[static_cast<size_t>(b)] = reg;
    return false;
  };

  // Quick liveness answers for a register with few uses and kills (dominator intervals, no
  // walk): upward-exposed uses U (read before any unguarded definition in their block) and,
  // for each, K(u): the nearest block strictly dominating u that kills the register (ENTRY
  // defines every register). A path from z to u that does not start inside K(u)'s strict
  // subtree passes K(u) whole, so z can only be live if some u has no K(u) or z lies strictly
  // under it ("possibly live", monotone up the dominator tree). And z is live when it
  // dominates some u and no kill lies in its subtree but u's own (after u's read): a path
  // from z to u stays in z's subtree after its last visit of z.
  struct Quick {
    bool on = false, unbounded = false;
    std::vector<NodeId> uses, bound, kills;  // upward-exposed use blocks, K(u), kill blocks
  } q;
  auto prepare = [&](int reg) {
    q = Quick{};
    const auto& us = uses_by_reg[static_cast<size_t>(reg)];
    const auto& ks = kills_by_reg[static_cast<size_t>(reg)];
    q.kills.push_back(cfg.entry());
    for (int i : ks) {
      const NodeId b = cfg.node_of_inst(i);
      if (q.kills.back() != b) q.kills.push_back(b);
    }
    NodeId last = kNoNode;
    for (int i : us) {
      const NodeId b = cfg.node_of_inst(i);
      if (b == last) continue;  // the block's first use decides
      last = b;
      const int k = first_at(ks, cfg.block(b).begin, cfg.block(b).end);
      if (k < 0 || i <= k) q.uses.push_back(b);
      if (q.uses.size() > 64) return;
    }
    if (q.uses.size() * q.kills.size() > 256) return;
    q.on = true;
    for (NodeId u : q.uses) {
      NodeId best = kNoNode;
      for (NodeId k : q.kills)
        if (k != u && dt.dominates(k, u) && (best == kNoNode || dt.depth(k) > dt.depth(best)))
          best = k;
      q.bound.push_back(best);
      if (best == kNoNode) q.unbounded = true;
    }
  };
  auto possibly_live = [&](NodeId z) {
    if (!q.on || q.unbounded) return true;
    for (size_t x = 0; x < q.uses.size(); ++x)
      if (q.bound[x] != z && dt.dominates(q.bound[x], z)) return true;
    return false;
  };
  auto surely_live = [&](NodeId z) {
    if (!q.on) return false;
    for (NodeId u : q.uses) {
      if (!dt.dominates(z, u)) continue;
      bool clear = true;
      for (NodeId k : q.kills) clear &= k == u || !dt.dominates(z, k);
      if (clear) return true;
    }
    return false;
  };
  auto live = [&](int reg, NodeId z) {
    if (z >= n || !possibly_live(z)) return false;
    return surely_live(z) || live_in(reg, z);
  };

  // Entry values, then merge values at the iterated dominance frontier of each register's
  // definition blocks (ENTRY defines every register) where the register is live.
  r.entry_val_.resize(nregs);
  for (size_t reg = 0; reg < nregs; ++reg)
    r.entry_val_[reg] = r.new_value(kEntryDef, static_cast<int>(reg));
  // Merges as (node, (register, value)) in the order placed (by register), then by node.
  std::vector<std::pair<NodeId, std::pair<int, ValueId>>> placed;
  std::vector<int> has_merge(nn, -1), queued(nn, -1);
  std::vector<int> header_done(forest.header.size(), -1);
  size_t merges = 0, walked = 0;  // frontier walks are work: 64 a charged entry
  for (size_t reg = 0; reg < nregs; ++reg) {
    const int tag = static_cast<int>(reg);
    charge(budget, r.vinst_.size() - merges + walked / 64, "merge values and frontier walks");
    walked = 0;
    merges = r.vinst_.size();
    work.clear();
    auto queue = [&](NodeId b) {
      if (queued[static_cast<size_t>(b)] == tag) return;
      queued[static_cast<size_t>(b)] = tag;
      work.push_back(b);
    };
    auto consider = [&](NodeId y) {
      if (has_merge[static_cast<size_t>(y)] == tag) return;
      has_merge[static_cast<size_t>(y)] = tag;
      if (live(tag, y)) placed.push_back({y, {tag, r.new_value(kMerge, tag)}});
      queue(y);  // a block of the frontier whether or not the merge is kept
    };
    prepare(tag);
    queue(cfg.entry());
    for (int i : r.by_reg_[reg]) queue(cfg.node_of_inst(i));
    while (!work.empty()) {
      const NodeId x = work.back();
      work.pop_back();
      walked += df[static_cast<size_t>(x)].size();
      for (NodeId y : df[static_cast<size_t>(x)]) consider(y);
      if (!reducible) continue;
      // Headers of the loops holding x, innermost first, while the register may be live
      // there (a header done for this register had its enclosing ones done too).
      for (int t = forest.inner[static_cast<size_t>(x)]; t >= 0;
           t = forest.parent[static_cast<size_t>(t)]) {
        if (header_done[static_cast<size_t>(t)] == tag) break;
        const NodeId h = forest.header[static_cast<size_t>(t)];
        if (!possibly_live(h)) break;
        header_done[static_cast<size_t>(t)] = tag;
        ++walked;
        consider(h);
      }
    }
  }
  df.clear();
  df.shrink_to_fit();

  std::vector<int> merge_begin;
  std::vector<std::pair<int, ValueId>> merge_list;
  group_pairs(placed, nn, merge_begin, merge_list);
  placed.clear();
  placed.shrink_to_fit();
  auto merges_at = [&](NodeId b) {
    const auto first = static_cast<size_t>(merge_begin[static_cast<size_t>(b)]);
    return std::span<const std::pair<int, ValueId>>(
        merge_list.data() + first,
        static_cast<size_t>(merge_begin[static_cast<size_t>(b) + 1]) - first);
  };

  // Renaming: a walk of the dominator tree with one stack of values per register.
  std::vector<std::vector<ValueId>> stack(nregs);
  std::vector<int> log;  // registers pushed, popped when the walk leaves the node
  auto top = [&](int reg) {
    const auto& s = stack[static_cast<size_t>(reg)];
    return s.empty() ? kNoValue : s.back();
  };
  auto push = [&](int reg, ValueId v) {
    stack[static_cast<size_t>(reg)].push_back(v);
    log.push_back(reg);
  };
  struct Frame {
    NodeId node;
    size_t next_child;
    size_t log_size;
  };
  std::vector<Frame> frames;
  std::vector<std::pair<ValueId, ValueId>> edges;  // (value, operand) as the walk meets them
  auto enter = [&](NodeId b) {
    frames.push_back(Frame{b, 0, log.size()});
    for (const auto& [reg, v] : merges_at(b)) push(reg, v);
    if (b == cfg.entry())
      for (size_t reg = 0; reg < nregs; ++reg) push(static_cast<int>(reg), r.entry_val_[reg]);
    if (cfg.is_block(b)) {
      for (int i = cfg.block(b).begin; i < cfg.block(b).end; ++i) {
        const auto ui = static_cast<size_t>(i);
        for (int k = r.use_begin_[ui]; k < r.use_begin_[ui + 1]; ++k)
          r.use_val_[static_cast<size_t>(k)] = top(r.use_reg_[static_cast<size_t>(k)]);
        const bool guarded = f.insts[ui].guard.reg >= 0;
        for (int k = r.def_begin_[ui]; k < r.def_begin_[ui + 1]; ++k) {
          const int reg = def_reg[static_cast<size_t>(k)];
          const ValueId before = top(reg);
          const ValueId v = r.new_value(i, reg);
          if (guarded && before != kNoValue) edges.emplace_back(v, before);
          r.def_val_[static_cast<size_t>(k)] = v;
          push(reg, v);
        }
      }
    }
    if (b < n)
      for (NodeId s : cfg.succs(b))
        for (const auto& [reg, v] : merges_at(s)) {
          const ValueId t = top(reg);
          if (t != kNoValue) edges.emplace_back(v, t);
        }
  };
  enter(root);
  while (!frames.empty()) {
    Frame& fr = frames.back();
    const auto ch = dt.children(fr.node);
    if (fr.next_child < ch.size()) {
      enter(ch[fr.next_child++]);
      continue;
    }
    while (log.size() > fr.log_size) {
      stack[static_cast<size_t>(log.back())].pop_back();
      log.pop_back();
    }
    frames.pop_back();
  }

  // Each value's operands in the order the walk met them, once each (a search per edge would
  // be quadratic at a join of many branches, e.g. the shared end label of deeply nested ifs),
  // then the users of each value, in value order.
  {
    const size_t nv = r.vinst_.size();
    group_pairs(edges, nv, r.op_begin_, r.ops_);
    edges.clear();
    std::vector<ValueId> mark(nv, kNoValue);
    size_t kept = 0;
    for (size_t v = 0; v < nv; ++v) {
      const auto b = static_cast<size_t>(r.op_begin_[v]),
                 e = static_cast<size_t>(r.op_begin_[v + 1]);
      r.op_begin_[v] = static_cast<int>(kept);
      for (size_t k = b; k < e; ++k) {
        const ValueId x = r.ops_[k];
        if (mark[static_cast<size_t>(x)] == static_cast<ValueId>(v)) continue;
        mark[static_cast<size_t>(x)] = static_cast<ValueId>(v);
        r.ops_[kept++] = x;
      }
    }
    r.op_begin_[nv] = static_cast<int>(kept);
    r.ops_.resize(kept);
    r.ops_.shrink_to_fit();
    for (size_t v = 0; v < nv; ++v)
      for (ValueId o : r.value_operands(static_cast<ValueId>(v)))
        edges.emplace_back(o, static_cast<ValueId>(v));
    group_pairs(edges, nv, r.user_begin_, r.users_);
  }
  // The uses reading each value, and the instruction of each use.
  group_indices(r.use_val_, r.vinst_.size(), r.reader_begin_, r.readers_);
  r.use_inst_.resize(r.use_reg_.size());
  for (size_t i = 0; i < ninst; ++i)
    for (int k = r.use_begin_[i]; k < r.use_begin_[i + 1]; ++k)
      r.use_inst_[static_cast<size_t>(k)] = static_cast<int>(i);
  return r;
}

std::vector<int> ReachingDefs::search_back(int inst, int reg) const {
  // A register the instruction does not read (no client asks this; kept exact for the
  // contract): a backward walk over the blocks, since the value graph is pruned where the
  // register is dead.
  const ptx::Function& f = cfg_->function();
  const std::vector<int>& mine = by_reg_[static_cast<size_t>(reg)];
  std::vector<int> out;
  // Definitions in [begin, end) from the last one back; true when an unguarded one ends it.
  auto scan = [&](int begin, int end) {
    for (auto it = std::lower_bound(mine.begin(), mine.end(), end);
         it != mine.begin() && *(it - 1) >= begin;) {
      const int i = *--it;
      out.push_back(i);
      if (f.insts[static_cast<size_t>(i)].guard.reg < 0) return true;
    }
    return false;
  };
  const NodeId b = cfg_->node_of_inst(inst);
  if (!scan(cfg_->block(b).begin, inst)) {
    std::vector<char> seen(static_cast<size_t>(cfg_->size()), 0);
    std::vector<NodeId> work(cfg_->preds(b));
    while (!work.empty()) {
      const NodeId p = work.back();
      work.pop_back();
      if (seen[static_cast<size_t>(p)]) continue;
      seen[static_cast<size_t>(p)] = 1;
      if (p == cfg_->entry()) {
        out.push_back(kEntryDef);
        continue;
      }
      if (cfg_->is_block(p) && scan(cfg_->block(p).begin, cfg_->block(p).end)) continue;
      for (NodeId q : cfg_->preds(p)) work.push_back(q);
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

ReachingDefs::ValueId ReachingDefs::value_at(int inst, int reg) const {
  if (reg < 0 || static_cast<size_t>(reg) >= by_reg_.size()) return kNoValue;
  const auto ui = static_cast<size_t>(inst);
  for (int k = use_begin_[ui]; k < use_begin_[ui + 1]; ++k)
    if (use_reg_[static_cast<size_t>(k)] == reg) return use_val_[static_cast<size_t>(k)];
  return kNoValue;
}

std::vector<ReachingDefs::ValueId> ReachingDefs::values_of_inst(int inst) const {
  const auto ui = static_cast<size_t>(inst);
  return {def_val_.begin() + def_begin_[ui], def_val_.begin() + def_begin_[ui + 1]};
}

std::vector<ReachingDefs::Use> ReachingDefs::uses_of(ValueId v) const {
  std::vector<Use> out;
  for_each_use(v, [&](int inst, int reg) { out.push_back(Use{inst, reg}); });
  return out;
}

std::vector<int> ReachingDefs::closure(ValueId start, size_t limit) const {
  std::vector<int> result;
  if (start == kNoValue) return result;
  // Walk the operands; most sets are tiny, so the visited set is a vector until it grows.
  std::vector<ValueId> work{start}, seen{start};
  std::unordered_set<ValueId> big;
  auto visit = [&](ValueId v) {
    if (big.empty()) {
      if (std::find(seen.begin(), seen.end(), v) != seen.end()) return false;
      seen.push_back(v);
      if (seen.size() > 32) big.insert(seen.begin(), seen.end());
      return true;
    }
    return big.insert(v).second;
  };
  while (!work.empty() && result.size() < limit) {
    const ValueId v = work.back();
    work.pop_back();
    const int i = vinst_[static_cast<size_t>(v)];
    if (i != kMerge) result.push_back(i);  // each value is visited once: no duplicates
    for (ValueId o : value_operands(v))
      if (visit(o)) work.push_back(o);
  }
  std::sort(result.begin(), result.end());
  result.erase(std::unique(result.begin(), result.end()), result.end());
  return result;
}

bool ReachingDefs::reads(int inst, int reg) const {
  const auto ui = static_cast<size_t>(inst);
  for (int k = use_begin_[ui]; k < use_begin_[ui + 1]; ++k)
    if (use_reg_[static_cast<size_t>(k)] == reg) return true;
  return false;
}

std::vector<int> ReachingDefs::reaching(int inst, int reg) const {
  if (reg < 0 || static_cast<size_t>(reg) >= by_reg_.size()) return {};
  if (!reads(inst, reg)) return search_back(inst, reg);
  return closure(value_at(inst, reg), SIZE_MAX);
}

int ReachingDefs::unique_reaching(int inst, int reg) const {
  if (reg < 0 || static_cast<size_t>(reg) >= by_reg_.size()) return -1;
  const std::vector<int> d =
      reads(inst, reg) ? closure(value_at(inst, reg), 2) : search_back(inst, reg);
  return d.size() == 1 ? d.front() : -1;
}

}  // namespace simtsync::analysis
