// Something that watches whole launches on the timing GPU (the timeline trace, src/trace/): it
// hears each launch begin, with the SMs so that it can subscribe to their event buses, and end,
// with the outcome. TimingGpu calls it only when one is set (`simtsync run --trace`), so a run
// without one pays nothing for it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "func/device.h"
#include "timing/sched/context.h"
#include "timing/sm/sm.h"

namespace simtsync::func {
class Program;
}
namespace simtsync::mem {
class MemoryHierarchy;
}

namespace simtsync::gpu {

struct LaunchBegin {
  const func::Program* prog = nullptr;
  std::string kernel;
  unsigned index = 0;  // launch number on this GPU, from 0
  Cycle start = 0;     // cycles of the launches before it: events' `now` count from here
  Dim3 grid, block;
  unsigned warps_per_cta = 0;
  std::span<sm::Sm* const> sms;
  mem::MemoryHierarchy* hier = nullptr;  // the memory hierarchy (null: the simple model)
};

struct LaunchEnd {
  unsigned index = 0;
  Cycle start = 0;
  Cycle cycles = 0;                            // of this launch
  const func::LaunchResult* result = nullptr;  // completed, watchdog reason and report
  // The policies' records of this launch (sched::PolicyRecord, e.g. BOWS's delay limit), by SM.
  std::vector<std::pair<int, const sched::PolicyRecord*>> records;
};

class ILaunchObserver {
 public:
  virtual ~ILaunchObserver() = default;
  // Before the first CTA is dispatched: subscribe to the SMs' buses here (they live until
  // launch_end returns).
  virtual void launch_begin(const LaunchBegin& b) = 0;
  // After the launch's statistics are collected; the SMs are gone after it returns.
  virtual void launch_end(const LaunchEnd& e) = 0;
};

}  // namespace simtsync::gpu
