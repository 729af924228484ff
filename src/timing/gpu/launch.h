// Everything one kernel launch on the timing GPU holds: the functional grid, one executor per
// SM (their own counters, folded into the launch totals between phases), the memory side, the
// SMs, the CTA dispatcher and the launch's bookkeeping. Built by TimingGpu::run, driven by
// run_main_loop, read by TimingGpu::collect.
#pragma once

#include <memory>
#include <vector>

#include "func/cta.h"
#include "func/executor.h"
#include "func/watchdog.h"
#include "timing/gpu/cta_dispatcher.h"
#include "timing/gpu/mem_phase.h"
#include "timing/gpu/phase_pool.h"
#include "timing/gpu/sync_status.h"
#include "timing/gpu/timing_gpu.h"
#include "timing/mem/memory_hierarchy.h"
#include "timing/mem/simple_memory.h"
#include "timing/sm/sm.h"

namespace simtsync::gpu {

struct Launch final : func::IExecListener {
  Launch(const GpuParams& p, const func::Program& prog, const func::LaunchInfo& li)
      : p(p), prog(prog), li(li), dog(p.watchdog) {}

  using Needs = CtaNeeds;  // occupancy

  const GpuParams& p;
  const func::Program& prog;
  func::GlobalMemory* gmem = nullptr;  // the launch's global memory (the watchdog hashes it)
  func::LaunchInfo li;
  func::CtaTable ctas;  // the CTAs dispatched and not yet completed, by launch index
  func::WarpTable warps;
  func::ExecShared shared;
  std::vector<std::unique_ptr<func::Executor>> executors;  // per SM
  std::unique_ptr<mem::SimpleMemory> simple;
  std::unique_ptr<mem::MemoryHierarchy> hier;
  mem::IMemPort* memory = nullptr;
  std::vector<std::unique_ptr<sm::Sm>> sms;
  std::unique_ptr<ICtaDispatcher> dispatcher;
  std::unique_ptr<SyncStatus> sync;  // stats.sync_status
  func::Watchdog dog;
  Needs needs;
  unsigned registers_per_thread = 0;  // as ptxas (or the config) counts them
  std::size_t done_ctas = 0;
  std::uint64_t age = 0;
  Cycle now = 0;
  bool stop = false;  // the watchdog established a deadlock or livelock
  // The SM phase (main_loop.cc). Serial: SMs tick in order and each step goes to the watchdog
  // at once. Otherwise the SMs tick in any order (on `pool` when it has workers) and each step
  // only notes the stepping executor's counters in its SM's log, which the watchdog replays in
  // SM order after the phase.
  bool serial_phase = true;
  PhasePool* pool = nullptr;
  // The parallel memory phase (when `pool` has workers and the hierarchy is on).
  std::unique_ptr<MemPhase> mem_phase;
  std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>> step_log;  // per SM

  // Starts pending CTAs on SMs with room, in launch order, where the dispatcher says.
  void dispatch();
  // Routes a barrier release to the SM holding the CTA (IExecListener).
  void barrier_released(int cta, unsigned id, const std::vector<int>& released) override;
  func::Warp& warp_of(const mem::MemRequest& r) {
    return *sms[static_cast<size_t>(r.sm)]->slots()[static_cast<size_t>(r.warp_slot)].warp;
  }
};

// Runs the launch to completion or until the watchdog stops it.
func::LaunchResult run_main_loop(Launch& l);

}  // namespace simtsync::gpu
