// What runs a kernel launch: the functional runner (default) or the cycle-level timing model.
#pragma once

#include "func/device.h"

namespace simtsync::func {

class ILaunchBackend {
 public:
  virtual ~ILaunchBackend() = default;
  // Contract: runs `kernel` to completion on `mem` (parameters already written), or until its
  // watchdog stops it (LaunchResult::completed false, with the report). Kernel faults throw.
  virtual LaunchResult run(const Program& prog, GlobalMemory& mem, const DecodedFunction& kernel,
                           Dim3 grid, Dim3 block, std::uint32_t dynamic_shared) = 0;
};

}  // namespace simtsync::func
