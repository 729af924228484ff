#include "analysis/simt_deadlock.h"

#include <algorithm>

#include "analysis/inst_info.h"
#include "analysis/reaching_defs.h"
#include "analysis/slices.h"

namespace simtsync::analysis {

int SimtDeadlock::num_flagged() const {
  return static_cast<int>(std::count_if(verdicts_.begin(), verdicts_.end(),
                                        [](const LoopVerdict& v) { return v.flagged; }));
}

SimtDeadlock SimtDeadlock::compute(const Inputs& in, const DeadlockOptions& o) {
  const Cfg& cfg = *in.cfg;
  const ptx::Function& f = cfg.function();
  SimtDeadlock r;
  r.opts_ = o;
  r.rec_ = ReconvergenceTable::compute(cfg, *in.pdom, o.convention);
  const ReachingDefs rd = ReachingDefs::compute(cfg);
  const ControlDependence cd = ControlDependence::compute(cfg, *in.pdom);
  r.alias_ = AliasAnalysis::compute(cfg, rd, in.module, o.distinct_params);
  r.regions_ = compute_loop_regions(cfg, *in.pdom, *in.loops, r.rec_);

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
    auto consider = [&](NodeId b, bool reachable, bool parallel) {
      int end = cfg.block(b).end;
      if (reachable) {
        if (auto it = reg.barrier_cut.find(b); it != reg.barrier_cut.end()) end = it->second;
      }
      for (int i = cfg.block(b).begin; i < end; ++i) {
        if (!is_sync_write(f.insts[static_cast<size_t>(i)])) continue;
        auto it = std::find_if(cands.begin(), cands.end(),
                               [&](const RedefWrite& w) { return w.inst == i; });
        if (it == cands.end()) {
          cands.push_back(RedefWrite{i, false, false, {}});
          it = cands.end() - 1;
        }
        it->reachable |= reachable;
        it->parallel |= parallel;
      }
    };
    for (NodeId b : reg.reachable) consider(b, true, false);
    if (o.parallel)
      for (const auto& [b, brs] : reg.parallel) consider(b, false, true);
    std::sort(cands.begin(), cands.end(),
              [](const RedefWrite& a, const RedefWrite& b) { return a.inst < b.inst; });
    // Lines 15-19: writes that may alias a read redefine it.
    for (RedefWrite& w : cands) {
      v.writes.push_back(w.inst);
      for (int rd_inst : v.reads)
        if (r.alias_.may_alias(rd_inst, w.inst)) w.reads.push_back(rd_inst);
      if (!w.reads.empty()) v.redefs.push_back(w);
    }
    v.flagged = !v.redefs.empty();  // line 20
    r.verdicts_.push_back(std::move(v));
  }
  return r;
}

}  // namespace simtsync::analysis
