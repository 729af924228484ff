#include "analysis/simt_deadlock.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "analysis/inst_info.h"
#include "analysis/reaching_defs.h"
#include "analysis/slices.h"

namespace simtsync::analysis {

int SimtDeadlock::num_flagged() const {
  return static_cast<int>(std::count_if(verdicts_.begin(), verdicts_.end(),
                                        [](const LoopVerdict& v) { return v.flagged; }));
}

int SimtDeadlock::num_busy_waits() const {
  return static_cast<int>(std::count_if(verdicts_.begin(), verdicts_.end(),
                                        [](const LoopVerdict& v) { return v.busy_wait; }));
}

namespace {

// Blocks reachable from `from` without entering the loop and without passing a blocking
// barrier (the barrier's block is included; writes after its barrier do not count).
std::vector<char> reachable_from(const Cfg& cfg, NodeId from, const Loop& l,
                                 std::map<NodeId, int>& cut) {
  std::vector<char> seen(static_cast<size_t>(cfg.size()), 0);
  if (!cfg.is_block(from) || l.contains(from)) return seen;
  const ptx::Function& f = cfg.function();
  std::vector<NodeId> work{from};
  seen[static_cast<size_t>(from)] = 1;
  while (!work.empty()) {
    const NodeId n = work.back();
    work.pop_back();
    bool barrier = false;
    for (int i = cfg.block(n).begin; i < cfg.block(n).end && !barrier; ++i)
      if (is_blocking_barrier(f.insts[static_cast<size_t>(i)])) {
        cut[n] = i;
        barrier = true;
      }
    if (barrier) continue;
    for (NodeId s : cfg.succs(n)) {
      if (!cfg.is_block(s) || seen[static_cast<size_t>(s)] || l.contains(s) ||
          cfg.is_virtual_edge(n, s))
        continue;
      seen[static_cast<size_t>(s)] = 1;
      work.push_back(s);
    }
  }
  return seen;
}

}  // namespace

SimtDeadlock SimtDeadlock::compute(const Inputs& in, const DeadlockOptions& o) {
  const Cfg& cfg = *in.cfg;
  const ptx::Function& f = cfg.function();
  SimtDeadlock r;
  r.opts_ = o;
  r.rec_ = ReconvergenceTable::compute(cfg, *in.pdom, o.convention);
  r.rd_ = std::make_shared<const ReachingDefs>(ReachingDefs::compute(cfg, in.budget));
  const ReachingDefs& rd = *r.rd_;
  const ControlDependence cd = ControlDependence::compute(cfg, *in.pdom);
  r.alias_ = AliasAnalysis::compute(cfg, rd, in.module, o.distinct_params);
  r.regions_ = compute_loop_regions(cfg, *in.pdom, *in.loops, r.rec_, in.budget);
  r.uniformity_ = Uniformity::compute({&cfg, &rd, &r.rec_, &r.alias_, in.budget});
  const Uniformity& uni = r.uniformity_;

  // The sync writes of each block, found once: every loop looks at the blocks after it.
  std::vector<std::vector<int>> sync_writes(static_cast<size_t>(cfg.size()));
  for (NodeId b = 0; b < cfg.num_blocks(); ++b)
    for (int i = cfg.block(b).begin; i < cfg.block(b).end; ++i)
      if (is_sync_write(f.insts[static_cast<size_t>(i)]))
        sync_writes[static_cast<size_t>(b)].push_back(i);
  bool holding_built = false;
  std::vector<std::vector<int>> holding(static_cast<size_t>(cfg.size()));
  for (const Loop& l : in.loops->loops()) {
    LoopVerdict v;
    v.loop = l.id;
    v.exit_branches = l.exiting_branches;
    const LoopRegion& reg = r.regions_[static_cast<size_t>(l.id)];
    for (NodeId b : l.blocks) {
      if (in.loops->loop_of(b) != l.id) continue;  // the marker names its innermost loop
      for (int i = cfg.block(b).begin; i < cfg.block(b).end; ++i)
        if (f.insts[static_cast<size_t>(i)].opcode == ptx::Opcode::kPmevent) v.spin_marked = true;
    }
    // Lines 3-7: shared reads the exit conditions depend on.
    for (int i : backward_slice(cfg, rd, cd, l.exiting_branches, l.blocks))
      if (is_sync_read(f.insts[static_cast<size_t>(i)])) v.reads.push_back(i);
    if (v.reads.empty()) {
      r.verdicts_.push_back(std::move(v));
      continue;
    }
    // Lines 8-14: shared writes in reachable or parallel blocks.
    std::vector<RedefWrite> cands;
    std::unordered_map<int, size_t> cand_slot;  // instruction -> position in cands
    auto consider = [&](NodeId b, bool reachable, bool parallel) {
      int end = cfg.block(b).end;
      if (reachable) {
        if (auto it = reg.barrier_cut.find(b); it != reg.barrier_cut.end()) end = it->second;
      }
      const auto& ws = sync_writes[static_cast<size_t>(b)];
      for (auto w = ws.begin(); w != ws.end() && *w < end; ++w) {
        const int i = *w;
        auto [slot, fresh] = cand_slot.emplace(i, cands.size());
        if (fresh) cands.push_back(RedefWrite{i, false, false, {}});
        cands[slot->second].reachable |= reachable;
        cands[slot->second].parallel |= parallel;
      }
    };
    for (NodeId b : reg.reachable) consider(b, true, false);
    if (o.parallel)
      for (const auto& [b, brs] : reg.parallel) consider(b, false, true);
    charge(in.budget, cands.size() * (1 + v.reads.size()), "candidate writes of loops");
    std::sort(cands.begin(), cands.end(),
              [](const RedefWrite& a, const RedefWrite& b) { return a.inst < b.inst; });
    // Lines 15-19: writes that may alias a read redefine it.
    for (RedefWrite& w : cands) {
      v.writes.push_back(w.inst);
      for (int rd_inst : v.reads)
        if (r.alias_.may_alias(rd_inst, w.inst)) w.reads.push_back(rd_inst);
      if (!w.reads.empty()) v.redefs.push_back(w);
    }
    v.seed_flagged = !v.redefs.empty();  // line 20
    v.flagged = v.seed_flagged;
    if (o.uniformity && v.seed_flagged) {
      for (int b : v.exit_branches) v.divergent_exit |= uni.divergent_branch(b);
      // Divergent branches whose region holds the whole loop, and what is reachable from
      // their reconvergence points: lanes that never entered L wait there.
      std::vector<char> from_enclosing(static_cast<size_t>(cfg.size()), 0);
      std::map<NodeId, int> cut;
      if (!holding_built) {
        // Divergent points whose region holds each loop header: a region that holds a loop
        // holds its header, so only these are tried (not every point for every loop).
        holding_built = true;
        std::vector<char> header(static_cast<size_t>(cfg.size()), 0);
        for (const Loop& m : in.loops->loops()) header[static_cast<size_t>(m.header)] = 1;
        for (int p : uni.divergence_points()) {
          if (!uni.divergent_branch(p)) continue;
          for (NodeId b : uni.region(p))
            if (header[static_cast<size_t>(b)]) holding[static_cast<size_t>(b)].push_back(p);
        }
      }
      for (int p : holding[static_cast<size_t>(l.header)]) {
        if (!std::all_of(l.blocks.begin(), l.blocks.end(),
                         [&](NodeId b) { return uni.in_region(p, b); }))
          continue;
        v.enclosing_divergent.push_back(p);
        const ReconvergencePoint* rp = r.rec_.find_by_inst(p);
        if (rp == nullptr) continue;
        const auto seen = reachable_from(cfg, rp->reconverge_node, l, cut);
        for (size_t k = 0; k < seen.size(); ++k) from_enclosing[k] |= seen[k];
      }
      v.seed_redefs = v.redefs;
      std::vector<RedefWrite> kept;
      for (RedefWrite w : v.redefs) {
        const NodeId bb = cfg.node_of_inst(w.inst);
        bool reach = false;
        if (w.reachable) {
          auto c = cut.find(bb);
          const bool before_cut = c == cut.end() || w.inst < c->second;
          reach = v.divergent_exit || (from_enclosing[static_cast<size_t>(bb)] && before_cut);
        }
        bool para = false;
        if (w.parallel) {
          auto it = reg.parallel.find(bb);
          if (it != reg.parallel.end())
            for (int br : it->second) para |= uni.divergent_branch(br);
        }
        w.reachable = reach;
        w.parallel = para;
        if (reach || para) kept.push_back(w);
      }
      v.redefs = std::move(kept);
      v.flagged = !v.redefs.empty();
      v.busy_wait = !v.flagged;
    }
    r.verdicts_.push_back(std::move(v));
  }
  return r;
}

}  // namespace simtsync::analysis
