// Statistics of one launch into the GPU's totals. Every sum follows the components' declared
// tables (kSmStatFields, kSchedStatFields, kSyncStatFields, ..., the policies' StatDecls);
// nothing is summed or copied by hand here.
#include "timing/gpu/launch.h"
#include "timing/gpu/timing_gpu.h"

namespace simtsync::gpu {

void TimingGpu::collect(const Launch& l, const func::LaunchResult& result) {
  totals_.cycles += result.cycles;
  ++totals_.kernels;
  totals_.ctas += l.done_ctas;
  func::accumulate(totals_.exec, result.stats);
  KernelRecord rec;
  rec.kernel = l.li.kernel->name;
  rec.cycles = result.cycles;
  rec.ctas = l.done_ctas;
  rec.completed = result.completed;
  rec.occupancy_ctas_per_sm = ctas_per_sm(p_, l.needs);
  rec.warps_per_cta = l.needs.warps;
  rec.registers_per_thread = l.registers_per_thread;
  const auto& sched_decl = sched::scheduler_stats(p_.sm.scheduler.impl);
  const auto& fetch_decl = sched::fetch_policy_stats(p_.sm.fetch_policy.impl);
  const auto launch = static_cast<unsigned>(totals_.launches.size());
  for (unsigned i = 0; i < p_.num_sms; ++i) {
    l.sms[i]->finish_launch(result.cycles);
    const sm::Sm& s = *l.sms[i];
    for (const sched::PolicyRecord& r : s.records())
      totals_.records.push_back({rec.kernel, launch, static_cast<int>(i), r});
    const sm::SmStats& st = s.stats();
    rec.warp_instructions += st.warp_instructions;
    rec.thread_instructions += st.thread_instructions;
    for (const auto& sc : st.sched)
      for (int k = 0; k < static_cast<int>(sm::StallKind::kCount); ++k)
        rec.scheduler_cycles[k] += sc.cycles[k];
    sm::SmStats& t = totals_.sm[i];
    accumulate<sm::SmStats>(t, st, sm::kSmStatFields);
    if (l.sync)
      accumulate<SyncCounts>(totals_.sync[i], l.sync->counts(static_cast<int>(i)), kSyncStatFields);
    for (size_t k = 0; k < st.sched.size() && k < t.sched.size(); ++k) {
      accumulate<sm::SchedStats>(t.sched[k], st.sched[k], sm::kSchedStatFields);
      config::accumulate(t.sched[k].policy, st.sched[k].policy, sched_decl);
    }
    config::accumulate(t.fetch_policy, st.fetch_policy, fetch_decl);
    accumulate<sm::ICacheStats>(totals_.icache[i], s.icache_stats(), sm::kICacheStatFields);
    accumulate<mem::SharedStats>(totals_.shared, s.shared_stats(), mem::kSharedStatFields);
  }
  totals_.launches.push_back(rec);
  if (l.simple) {
    accumulate<mem::SimpleMemoryStats>(totals_.mem, l.simple->stats(),
                                       mem::kSimpleMemoryStatFields);
    return;
  }
  totals_.has_hierarchy = true;
  mem::accumulate(totals_.hier, l.hier->stats());
}

}  // namespace simtsync::gpu
