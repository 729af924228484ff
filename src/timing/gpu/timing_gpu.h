// The cycle-level GPU: SMs, the CTA dispatcher (occupancy limited by threads, warps,
// registers, shared memory and CTA slots; which SM by gpu.cta_dispatch.impl), the memory side,
// and the watchdog. A launch backend for func::Device, so every workload runs on it unchanged.
// One launch is set up (launch.h), run by the main loop (main_loop.cc) and its statistics are
// collected into the totals (collect_stats.cc).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "config/energy_params.h"
#include "func/launch_backend.h"
#include "func/watchdog.h"
#include "simt/registry.h"
#include "timing/gpu/cta_dispatcher.h"
#include "timing/gpu/kernel_resources.h"
#include "timing/gpu/launch_observer.h"
#include "timing/gpu/phase_pool.h"
#include "timing/gpu/sync_status.h"
#include "timing/mem/memory_hierarchy.h"
#include "timing/mem/simple_memory.h"
#include "timing/sm/sm.h"

namespace simtsync::config {
class Config;
}

namespace simtsync::gpu {

struct GpuParams {
  unsigned num_sms = 15;
  double core_clock_mhz = 700;
  unsigned register_granularity = 4;
  unsigned registers_per_thread = 0;  // 0: from ptxas -v
  sm::SmParams sm;
  mem::SimpleMemoryParams mem;
  bool hierarchy = true;              // mem.model: hierarchy (else the simple stand-in)
  mem::HierarchyParams hier;
  Cycle max_cycles = 0;               // 0: no limit
  std::uint64_t host_memory_budget = ~std::uint64_t{0};  // sim.host_memory_budget_mb, bytes
  Cycle no_completion_window = 50'000'000;  // without evidence of progress (progress_watch.h)
  Cycle starvation_window = 2'000'000;
  double progress_seconds = 30;  // progress line on stderr (0: none)
  func::WatchdogOptions watchdog;
  simt::UnitChoice reconvergence = simt::reconvergence_choice("ipdom_stack");
  DispatchParams dispatch;
  energy::EnergyParams energy;  // energy.*
  bool track_sync_status = false;  // stats.sync_status (gpu/sync_status.h)
};

GpuParams gpu_params_from(const config::Config& c);

// What one CTA takes of an SM: threads and warps in whole warps, registers at the allocation
// granularity (`regs_per_thread` as ptxas counts them), shared memory (static + dynamic).
struct CtaNeeds {
  unsigned threads = 0, warps = 0, registers = 0, shared = 0;
};
CtaNeeds cta_needs(const GpuParams& p, unsigned block_threads, unsigned warp_size,
                   unsigned regs_per_thread, unsigned shared);
// CTAs per SM at full occupancy: the binding limit among CTAs, threads, warps, registers and
// shared memory (the CTA dispatcher's; the CUDA runtime's occupancy queries use it too).
unsigned ctas_per_sm(const GpuParams& p, const CtaNeeds& n);
energy::EnergyParams energy_params_from(const config::Config& c);

// One launch, for per-kernel statistics.
struct KernelRecord {
  std::string kernel;
  std::uint64_t cycles = 0;
  std::uint64_t warp_instructions = 0;
  std::uint64_t thread_instructions = 0;
  std::uint64_t ctas = 0;
  std::uint64_t scheduler_cycles[static_cast<int>(sm::StallKind::kCount)] = {};
  bool completed = false;
  // The launch's occupancy: CTAs one SM can hold at once (the tightest of the thread, warp,
  // register, shared-memory and CTA-slot limits), warps per CTA, registers per thread.
  unsigned occupancy_ctas_per_sm = 0, warps_per_cta = 0, registers_per_thread = 0;
};

// A policy's record (sched::PolicyRecord) with where it came from.
struct TaggedRecord {
  std::string kernel;
  unsigned launch = 0;  // index into TimingTotals::launches
  int sm = 0;
  sched::PolicyRecord rec;
};

struct Launch;

// Totals over every launch run on this GPU.
struct TimingTotals {
  std::vector<KernelRecord> launches;   // per kernel launch, in order
  std::uint64_t cycles = 0;
  std::uint64_t kernels = 0;
  std::uint64_t ctas = 0;
  std::vector<sm::SmStats> sm;          // per SM, summed over launches
  std::vector<sm::ICacheStats> icache;  // per SM
  func::ExecStats exec;                 // functional counters, all SMs and launches
  bool has_hierarchy = false;
  mem::SimpleMemoryStats mem;          // the simple model's counters (when !has_hierarchy)
  mem::HierarchyStats hier;            // per level, summed over launches (hierarchy model)
  mem::SharedStats shared;             // shared-memory units, all SMs
  std::vector<SyncCounts> sync;        // per SM (stats.sync_status; empty when not tracked)
  // The issue and fetch policies and their declared statistics (sm[i].sched[k].policy and
  // sm[i].fetch_policy hold the counters in this order).
  std::string issue_policy, fetch_policy;
  std::vector<config::StatDecl> issue_stats, fetch_stats;
  std::vector<TaggedRecord> records;  // every launch's policy records, by launch then SM
  KernelResources last_resources;
  unsigned last_occupancy_ctas = 0;     // CTAs per SM of the last launch
  unsigned last_warps_per_cta = 0;      // warps per CTA of the last launch
  // The energy model's coefficients and the clock its cycles count at (stats/ estimates the
  // energy from these and the counters above: src/energy).
  energy::EnergyParams energy;
  double core_clock_mhz = 0;
};

class TimingGpu final : public func::ILaunchBackend {
 public:
  explicit TimingGpu(GpuParams p);

  func::LaunchResult run(const func::Program& prog, func::GlobalMemory& mem,
                         const func::DecodedFunction& kernel, Dim3 grid, Dim3 block,
                         std::uint32_t dynamic_shared) override;
  const TimingTotals& totals() const { return totals_; }
  const GpuParams& params() const { return p_; }
  // Host threads for the SM phase (1: the calling thread only). Results do not depend on it.
  void set_threads(unsigned n) { threads_ = n < 1 ? 1 : n; }
  unsigned threads() const { return threads_; }
  // Cycles, over every launch so far, whose L2 side ran on the host threads (the parallel
  // memory phase: MemoryHierarchy::set_phase).
  std::uint64_t parallel_memory_phases() const { return memory_phases_; }
  // Hears every launch begin and end (the timeline trace); null: none. Not owned. Observing
  // never changes what is simulated.
  void set_launch_observer(ILaunchObserver* o) { observer_ = o; }

 private:
  void collect(const Launch& l, const func::LaunchResult& result);

  GpuParams p_;
  ResourceOracle resources_;
  TimingTotals totals_;
  unsigned threads_ = 1;
  std::uint64_t memory_phases_ = 0;
  ILaunchObserver* observer_ = nullptr;
  std::unique_ptr<PhasePool> pool_;  // kept across launches
  // The L2's lines at the end of the last launch (mem.l2.keep_across_launches).
  std::vector<mem::TagArray::State> l2_carry_;
};

}  // namespace simtsync::gpu
