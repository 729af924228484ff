// The functional run mode: CTAs resident at once up to sim.functional_resident_warps (by
// default more than any GPU holds, so CTAs may wait on each other as on hardware; 0: the whole
// grid), warps stepped round-robin one instruction at a time, and a completed CTA's room taken
// by the next in launch order. Deterministic.
#pragma once

#include "func/device.h"
#include "func/executor.h"

namespace simtsync::func {

// CTAs resident at once in the functional mode: resident_warps / warps per CTA (at least one),
// at most the grid; 0 resident warps: the whole grid.
std::size_t resident_ctas(std::uint64_t resident_warps, const LaunchInfo& li);

class FunctionalRunner {
 public:
  FunctionalRunner(const Program& prog, GlobalMemory& mem, const DeviceOptions& opts)
      : prog_(prog), mem_(mem), opts_(opts) {}

  LaunchResult run(const DecodedFunction& kernel, Dim3 grid, Dim3 block,
                   std::uint32_t dynamic_shared);

 private:
  const Program& prog_;
  GlobalMemory& mem_;
  DeviceOptions opts_;
};

}  // namespace simtsync::func
