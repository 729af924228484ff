#include "energy/energy_model.h"

namespace simtsync::energy {

EnergyReport estimate(const EnergyCounts& c, const EnergyParams& p, double core_clock_mhz) {
  EnergyReport r;
  auto n = [](std::uint64_t v) { return static_cast<double>(v); };
  double pj[static_cast<int>(Dyn::kCount)] = {};
  auto at = [&](Dyn d) -> double& { return pj[static_cast<int>(d)]; };
  at(Dyn::kInt) = n(c.int_lanes) * p.int_pj + n(c.imul_lanes) * p.imul_pj;
  at(Dyn::kFp32) = n(c.fp32_lanes) * p.fp32_pj;
  at(Dyn::kFp64) = n(c.fp64_lanes) * p.fp64_pj;
  at(Dyn::kSfu) = n(c.sfu_lanes) * p.sfu_pj;
  at(Dyn::kPipeline) = n(c.lanes) * p.lane_pj + n(c.warp_instructions) * p.inst_pj +
                       n(c.branch_warps) * p.branch_pj + n(c.mem_warps) * p.ldst_pj;
  at(Dyn::kRegfile) = n(c.rf_reads) * p.rf_read_pj + n(c.rf_writes) * p.rf_write_pj;
  at(Dyn::kFetch) = n(c.icache_accesses) * p.icache_pj + n(c.icache_misses) * p.icache_fill_pj +
                    n(c.ibuffer_fills) * p.ibuffer_pj;
  at(Dyn::kScheduler) = n(c.sched_cycles) * p.sched_pj;
  at(Dyn::kShared) = n(c.shared_accesses + c.shared_conflict_cycles) * p.shared_pj;
  at(Dyn::kL1) = n(c.l1_accesses) * p.l1_pj + n(c.l1_misses) * p.l1_fill_pj;
  at(Dyn::kConst) = n(c.const_accesses) * p.const_pj + n(c.const_misses) * p.const_fill_pj;
  at(Dyn::kIcnt) = n(c.flits) * p.flit_pj;
  at(Dyn::kL2) = n(c.l2_accesses + c.l2_writebacks) * p.l2_pj + n(c.l2_misses) * p.l2_fill_pj;
  at(Dyn::kAtomic) = n(c.atomic_ops) * p.atomic_pj;
  at(Dyn::kDram) = n(c.dram_activates) * p.dram_activate_pj +
                   n(c.dram_precharges) * p.dram_precharge_pj +
                   n(c.dram_read_bytes) * p.dram_read_pj_per_byte +
                   n(c.dram_write_bytes) * p.dram_write_pj_per_byte;
  for (int i = 0; i < static_cast<int>(Dyn::kCount); ++i) {
    r.dynamic_j[i] = pj[i] * 1e-12;
    r.dynamic_total_j += r.dynamic_j[i];
    (i < kSmComponents ? r.sm_j : r.memory_j) += r.dynamic_j[i];
  }
  // Time: SM-cycles at the core clock for the SMs, the whole run for the rest.
  const double hz = core_clock_mhz * 1e6;
  r.seconds = hz > 0 ? n(c.cycles) / hz : 0.0;
  const double sm_s = hz > 0 ? 1.0 / hz : 0.0;
  r.static_j[static_cast<int>(Stat::kSmActive)] = n(c.sm_active_cycles) * sm_s * p.sm_active_w;
  r.static_j[static_cast<int>(Stat::kSmIdle)] = n(c.sm_idle_cycles) * sm_s * p.sm_idle_w;
  r.static_j[static_cast<int>(Stat::kUncore)] = r.seconds * p.uncore_w;
  r.static_j[static_cast<int>(Stat::kDram)] = r.seconds * p.dram_w;
  r.static_j[static_cast<int>(Stat::kConstant)] = r.seconds * p.constant_w;
  for (double s : r.static_j) r.static_total_j += s;
  r.total_j = r.dynamic_total_j + r.static_total_j;
  r.avg_power_w = r.seconds > 0 ? r.total_j / r.seconds : 0.0;
  r.nj_per_warp_instruction = c.warp_instructions ? r.total_j * 1e9 / n(c.warp_instructions) : 0.0;
  return r;
}

}  // namespace simtsync::energy
