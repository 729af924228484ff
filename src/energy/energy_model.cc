#include "energy/energy_model.h"

namespace simtsync::energy {

EnergyReport estimate(const EnergyCounts& c, const EnergyParams& p, double core_clock_mhz) {
  EnergyReport r;
  auto n = [&](Event e) { return static_cast<double>(c[e]); };
  using E = Event;
  double pj[static_cast<int>(Dyn::kCount)] = {};
  auto at = [&](Dyn d) -> double& { return pj[static_cast<int>(d)]; };
  at(Dyn::kInt) = n(E::kIntLanes) * p.int_pj + n(E::kImulLanes) * p.imul_pj;
  at(Dyn::kFp32) = n(E::kFp32Lanes) * p.fp32_pj;
  at(Dyn::kFp64) = n(E::kFp64Lanes) * p.fp64_pj;
  at(Dyn::kSfu) = n(E::kSfuLanes) * p.sfu_pj;
  at(Dyn::kPipeline) = n(E::kLanes) * p.lane_pj + n(E::kWarpInstructions) * p.inst_pj +
                       n(E::kBranchWarps) * p.branch_pj + n(E::kMemWarps) * p.ldst_pj;
  at(Dyn::kRegfile) = n(E::kRfReads) * p.rf_read_pj + n(E::kRfWrites) * p.rf_write_pj;
  at(Dyn::kFetch) = n(E::kIcacheAccesses) * p.icache_pj + n(E::kIcacheMisses) * p.icache_fill_pj +
                    n(E::kIbufferFills) * p.ibuffer_pj;
  at(Dyn::kScheduler) = n(E::kSchedCycles) * p.sched_pj;
  at(Dyn::kShared) = n(E::kSharedPasses) * p.shared_pj;
  at(Dyn::kL1) = n(E::kL1Accesses) * p.l1_pj + n(E::kL1Misses) * p.l1_fill_pj;
  at(Dyn::kConst) = n(E::kConstAccesses) * p.const_pj + n(E::kConstMisses) * p.const_fill_pj;
  at(Dyn::kIcnt) = n(E::kFlits) * p.flit_pj;
  at(Dyn::kL2) = n(E::kL2Lookups) * p.l2_pj + n(E::kL2Misses) * p.l2_fill_pj;
  at(Dyn::kAtomic) = n(E::kAtomicOps) * p.atomic_pj;
  at(Dyn::kDram) = n(E::kDramActivates) * p.dram_activate_pj +
                   n(E::kDramPrecharges) * p.dram_precharge_pj +
                   n(E::kDramReadBytes) * p.dram_read_pj_per_byte +
                   n(E::kDramWriteBytes) * p.dram_write_pj_per_byte;
  for (int i = 0; i < static_cast<int>(Dyn::kCount); ++i) {
    r.dynamic_j[i] = pj[i] * 1e-12;
    r.dynamic_total_j += r.dynamic_j[i];
    (i < kSmComponents ? r.sm_j : r.memory_j) += r.dynamic_j[i];
  }
  // Time: SM-cycles at the core clock for the SMs, the whole run for the rest.
  const double hz = core_clock_mhz * 1e6;
  r.seconds = hz > 0 ? n(E::kCycles) / hz : 0.0;
  const double sm_s = hz > 0 ? 1.0 / hz : 0.0;
  r.static_j[static_cast<int>(Stat::kSmActive)] = n(E::kSmActiveCycles) * sm_s * p.sm_active_w;
  r.static_j[static_cast<int>(Stat::kSmIdle)] = n(E::kSmIdleCycles) * sm_s * p.sm_idle_w;
  r.static_j[static_cast<int>(Stat::kUncore)] = r.seconds * p.uncore_w;
  r.static_j[static_cast<int>(Stat::kDram)] = r.seconds * p.dram_w;
  r.static_j[static_cast<int>(Stat::kConstant)] = r.seconds * p.constant_w;
  for (double s : r.static_j) r.static_total_j += s;
  r.total_j = r.dynamic_total_j + r.static_total_j;
  r.avg_power_w = r.seconds > 0 ? r.total_j / r.seconds : 0.0;
  r.nj_per_warp_instruction =
      c[E::kWarpInstructions] ? r.total_j * 1e9 / n(E::kWarpInstructions) : 0.0;
  return r;
}

}  // namespace simtsync::energy
