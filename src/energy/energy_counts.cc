#include "energy/energy_counts.h"

#include "timing/gpu/timing_gpu.h"

namespace simtsync::energy {

EnergyCounts counts_from(const gpu::TimingTotals& t) {
  using sm::OpClass;
  EnergyCounts c;
  auto op = [](const std::uint64_t* v, OpClass k) { return v[static_cast<int>(k)]; };
  for (size_t i = 0; i < t.sm.size(); ++i) {
    const sm::SmStats& s = t.sm[i];
    c.int_lanes += op(s.op_lanes, OpClass::kInt);
    c.imul_lanes += op(s.op_lanes, OpClass::kImul) + op(s.op_lanes, OpClass::kIdiv);
    c.fp32_lanes += op(s.op_lanes, OpClass::kFp) + op(s.op_lanes, OpClass::kFpDiv);
    c.fp64_lanes += op(s.op_lanes, OpClass::kDp);
    c.sfu_lanes += op(s.op_lanes, OpClass::kSfu);
    c.lanes += s.thread_instructions;
    c.warp_instructions += s.warp_instructions;
    c.int_warps += op(s.op_warps, OpClass::kInt) + op(s.op_warps, OpClass::kImul) +
                   op(s.op_warps, OpClass::kIdiv);
    c.fp32_warps += op(s.op_warps, OpClass::kFp) + op(s.op_warps, OpClass::kFpDiv);
    c.fp64_warps += op(s.op_warps, OpClass::kDp);
    c.sfu_warps += op(s.op_warps, OpClass::kSfu);
    c.branch_warps += op(s.op_warps, OpClass::kCtrl);
    c.mem_warps += op(s.op_warps, OpClass::kMem);
    c.rf_reads += s.rf_reads;
    c.rf_writes += s.rf_writes;
    c.ibuffer_fills += s.ibuffer_fills;
    for (const auto& sc : s.sched)
      for (int k = 0; k < static_cast<int>(sm::StallKind::kCount); ++k)
        if (k != static_cast<int>(sm::StallKind::kIdle) &&
            k != static_cast<int>(sm::StallKind::kExit))
          c.sched_cycles += sc.cycles[k];
    c.sm_active_cycles += s.active_cycles;
    c.sm_idle_cycles += t.cycles > s.active_cycles ? t.cycles - s.active_cycles : 0;
  }
  for (const auto& ic : t.icache) {
    c.icache_accesses += ic.accesses;
    c.icache_misses += ic.misses;
  }
  c.loads = t.exec.loads;
  c.stores = t.exec.stores;
  c.atomics = t.exec.atomics;
  c.shared_accesses = t.shared.accesses;
  c.shared_conflict_cycles = t.shared.conflict_cycles;
  if (t.has_hierarchy) {
    const mem::HierarchyStats& h = t.hier;
    c.l1_accesses = h.l1.accesses;
    c.l1_hits = h.l1.hits;
    c.l1_misses = h.l1.misses;
    c.const_accesses = h.const_cache.accesses;
    c.const_hits = h.const_cache.hits;
    c.const_misses = h.const_cache.misses;
    c.l2_accesses = h.l2.accesses;
    c.l2_hits = h.l2.hits;
    c.l2_misses = h.l2.misses;
    c.l2_writebacks = h.l2.writebacks;
    c.flits = h.icnt_request.flits + h.icnt_reply.flits;
    c.atomic_ops = mem::unit_stat(h, "atomic", "ops");
    c.dram_activates = h.dram.row_misses;
    c.dram_precharges = h.dram.precharges;
    c.dram_reads = h.dram.reads;
    c.dram_writes = h.dram.writes;
    c.dram_read_bytes = h.dram.read_bytes;
    c.dram_write_bytes = h.dram.write_bytes;
  }
  c.cycles = t.cycles;
  c.num_sms = t.sm.size();
  return c;
}

}  // namespace simtsync::energy
