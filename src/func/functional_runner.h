// The functional run mode: every CTA of the grid resident at once (so CTAs may wait on each
// other), warps stepped round-robin one instruction at a time. Deterministic.
#pragma once

#include "func/device.h"
#include "func/executor.h"

namespace simtsync::func {

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
