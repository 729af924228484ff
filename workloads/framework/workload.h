// The workload framework: each workload is a CUDA kernel (compiled to PTX, committed), a host
// driver written against the host API, a CPU reference and a validation that does not depend
// on execution order. Workloads are listed in workloads/workloads.def.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "func/device.h"

namespace simtsync::workloads {

enum class Size { kTest, kDefault, kPaper };
const char* size_name(Size s);
Size size_from_name(const std::string& s);  // throws usage_error

// A workload parameter with its value at each size.
struct ParamSpec {
  std::string name;
  std::string description;
  std::int64_t test = 0;
  std::int64_t def = 0;
  std::int64_t paper = 0;
  std::int64_t min = 0;
  std::int64_t max = INT64_MAX;
};

// Everything a host driver needs while it runs.
class WorkloadContext {
 public:
  WorkloadContext(func::Device& device, std::map<std::string, std::int64_t> params)
      : device_(device), params_(std::move(params)) {}

  func::Device& device() { return device_; }
  std::int64_t param(const std::string& name) const;
  // Loads the embedded PTX of a workload source (e.g. "ht/ht.ptx"), passed through the
  // module hook when one is set (compile.ssde=true applies the SSDE transform there).
  int load(const std::string& ptx_name);
  void set_module_hook(std::function<ptx::Module(const ptx::Module&)> hook) {
    module_hook_ = std::move(hook);
  }
  // Launches; returns false (and records the report) when the watchdog stopped the kernel.
  bool launch(int module, const std::string& kernel, Dim3 grid, Dim3 block,
              const func::KernelArgs& args, std::uint32_t dynamic_shared = 0);

  bool deadlocked() const { return !watchdog_report_.empty(); }
  const std::string& watchdog_report() const { return watchdog_report_; }
  std::vector<std::string>& notes() { return notes_; }

 private:
  func::Device& device_;
  std::map<std::string, std::int64_t> params_;
  std::string watchdog_report_;
  std::vector<std::string> notes_;
  std::function<ptx::Module(const ptx::Module&)> module_hook_;
};

struct Validation {
  bool ok = false;
  std::string message;
};

class Workload {
 public:
  virtual ~Workload() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  // synchronization | synchronization-free | barrier-intensive | microbenchmark
  virtual std::string suite() const = 0;
  virtual std::vector<ParamSpec> params() const = 0;
  // Config keys the workload needs to run at all, applied before the user's --set keys (which
  // may override them): the lock-instruction variants need sm.reconvergence.impl=lock_stack.
  virtual std::vector<std::pair<std::string, std::string>> config_defaults() const { return {}; }
  // Runs the host driver; returns the validation of its output. Not called again on the same
  // context. When a launch deadlocks, return right away (the caller reports it).
  virtual Validation run(WorkloadContext& ctx) const = 0;
};

// The registry (workloads/workloads.def), in listing order.
const std::vector<std::unique_ptr<Workload>>& all_workloads();
const Workload* find_workload(const std::string& name);
// Resolved parameters of a workload at a size, with `overrides` (name -> value) applied and
// range-checked (unknown names and out-of-range values are usage errors naming the key).
std::map<std::string, std::int64_t> resolve_params(const Workload& w, Size size,
                                                   const std::map<std::string, std::string>& overrides);

// Embedded PTX sources: name ("ht/ht.ptx") -> text. Generated at build time.
const std::map<std::string, std::string_view>& embedded_ptx();

}  // namespace simtsync::workloads
