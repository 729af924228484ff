// One simulation assembled from a resolved configuration: the typed config (shipped name or
// YAML file plus --set overrides), the functional device, the timing GPU behind it when the mode
// is timing, the reconvergence unit the config selects, and module hooks applied to every PTX
// module before it is loaded (compile.ssde=true: the SSDE transform). `simtsync run`, `bench`
// and `sweep` (through `run`) use it; the CUDA runtime library will too.
//
// --set keys outside the GPU schema that a simulation still reads: func.warp_size (the warp
// size of the functional model, overriding gpu.warp_size), func.trace (print every executed
// warp instruction) and compile.ssde. Workload parameters (workload.*) are not the
// simulator's: callers take them out first.
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "config/config.h"
#include "func/device.h"
#include "ptx/ir.h"
#include "timing/gpu/timing_gpu.h"

namespace simtsync::sim {

using ModuleHook = std::function<ptx::Module(const ptx::Module&)>;

struct SimOptions {
  std::string mode = "timing";  // timing | functional
  std::string config = "gtx480";
  std::vector<std::pair<std::string, std::string>> sets;  // key=value, in order
  // Host threads for the timing model's SM phase; results are the same for any count.
  unsigned threads = 1;
};

// The device options a config gives (the functional mode's and the host API's: watchdog,
// warp size, lock bits, host memory budget, resident warps, reconvergence unit).
func::DeviceOptions device_options_from(const config::Config& c, bool trace = false);

class Simulator {
 public:
  // Validates everything before anything runs; a bad mode, key or value is a usage error
  // naming it (exit 2).
  explicit Simulator(const SimOptions& o);

  const config::Config& config() const { return config_; }
  const std::string& mode() const { return mode_; }
  unsigned warp_size() const { return dopts_.warp_size; }
  bool ssde() const { return ssde_; }
  const func::DeviceOptions& device_options() const { return dopts_; }
  // The device kernels run on (its launches go to the timing GPU in timing mode).
  func::Device& device() { return *device_; }
  const func::Device& device() const { return *device_; }
  gpu::TimingGpu* timing() { return timing_.get(); }
  bool has_timing() const { return timing_ != nullptr; }
  // Applied to every module before it is loaded (empty: none).
  const ModuleHook& module_hook() const { return hook_; }

  // Timing statistics (null / empty in the functional mode).
  nlohmann::json timing_json() const;
  std::string timing_table() const;
  // Everything a run depends on besides the workload: the resolved config as YAML and the
  // simulator keys outside the schema.
  std::string resolved_yaml() const;

 private:
  std::string mode_;
  config::Config config_;
  func::DeviceOptions dopts_;
  bool warp_size_set_ = false;
  bool ssde_ = false;
  std::unique_ptr<gpu::TimingGpu> timing_;
  std::unique_ptr<func::Device> device_;
  ModuleHook hook_;
};

}  // namespace simtsync::sim
