// The host API: what a CUDA host program does with a device, for simtsync's workloads and
// tools. Allocate/free/copy device memory, load PTX modules, launch kernels.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common/types.h"
#include "func/exec_stats.h"
#include "func/global_memory.h"
#include "func/program.h"
#include "func/watchdog.h"
#include "ptx/ir.h"

namespace simtsync::func {

// Kernel arguments, packed in declaration order.
class KernelArgs {
 public:
  template <typename T>
  KernelArgs& add(const T& v) {
    std::vector<std::uint8_t> b(sizeof(T));
    std::memcpy(b.data(), &v, sizeof(T));
    values_.push_back(std::move(b));
    return *this;
  }
  // One parameter of `n` raw bytes (the CUDA runtime's void** argument form).
  KernelArgs& add_bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    values_.emplace_back(b, b + n);
    return *this;
  }
  const std::vector<std::vector<std::uint8_t>>& values() const { return values_; }

 private:
  std::vector<std::vector<std::uint8_t>> values_;
};

struct DeviceOptions {
  unsigned warp_size = 32;
  WatchdogOptions watchdog;
  bool trace = false;              // print every executed warp instruction to stderr
  unsigned lock_bits = 1024;       // shared-memory lock bits per CTA (sm.shared.lock_bits)
  simt::UnitChoice reconvergence;  // sm.reconvergence.impl (make == nullptr: the IPDOM stack)
  // sim.host_memory_budget_mb in bytes: a launch estimated to need more host memory (warp
  // objects, and in the functional mode every CTA's registers and shared memory) throws
  // HostMemoryError (common/host_memory.h) before allocating.
  std::uint64_t host_memory_budget = ~std::uint64_t{0};
  // sim.functional_resident_warps: the functional mode keeps at most this many warps' CTAs
  // resident (0: the whole grid; the schema's default).
  std::uint64_t resident_warps = 16384;
  // sim.analysis_budget: entries one function's SIMT-deadlock analysis may hold (0: no limit).
  std::uint64_t analysis_budget = analysis::kDefaultBudgetEntries;
  // Analysis results by function content, shared with other devices of the process (null:
  // the device keeps its own, shared by its modules).
  std::shared_ptr<AnalysisCache> analysis_cache;
};

// How a launch ended. A fault throws simtsync::Error(kKernelFault) instead.
struct LaunchResult {
  bool completed = false;  // false: the watchdog stopped it (deadlock/livelock)
  std::string watchdog_reason;
  std::string watchdog_report;
  ExecStats stats;
  double seconds = 0;        // host time spent simulating the kernel
  std::uint64_t cycles = 0;  // simulated core cycles (0 in the functional mode)
  // Device printf output, in execution order (cycle, then warp, then lane).
  std::string printf_output;
  double native_ms = 0;  // kernel time measured on a real GPU (the native backend)
};

class ILaunchBackend;

// A real GPU behind the host API (`simtsync run --backend native`, src/native/): memory,
// modules and launches go to it instead of the simulator. Addresses are the GPU's.
class INativeDevice {
 public:
  virtual ~INativeDevice() = default;
  virtual Addr malloc(std::uint64_t bytes) = 0;
  virtual void free(Addr a) = 0;
  virtual void copy_to_device(Addr dst, const void* src, std::uint64_t n) = 0;
  virtual void copy_to_host(void* dst, Addr src, std::uint64_t n) = 0;
  virtual void memset(Addr dst, std::uint8_t value, std::uint64_t n) = 0;
  // Loads the module's PTX; returns the backend's handle.
  virtual int load_module(const ptx::Module& m) = 0;
  virtual LaunchResult launch(int module, const std::string& kernel, Dim3 grid, Dim3 block,
                              const std::vector<std::vector<std::uint8_t>>& args,
                              std::uint32_t dynamic_shared) = 0;
};

class Device {
 public:
  explicit Device(DeviceOptions opts = {});
  ~Device();

  Addr malloc(std::uint64_t bytes, const std::string& what = "device buffer");
  void free(Addr a);
  void copy_to_device(Addr dst, const void* src, std::uint64_t n);
  void copy_to_host(void* dst, Addr src, std::uint64_t n);
  void memset(Addr dst, std::uint8_t value, std::uint64_t n);
  template <typename T>
  Addr upload(const std::vector<T>& v, const std::string& what = "device buffer") {
    Addr a = malloc(std::max<std::uint64_t>(v.size() * sizeof(T), 1), what);
    if (!v.empty()) copy_to_device(a, v.data(), v.size() * sizeof(T));
    return a;
  }
  template <typename T>
  std::vector<T> download(Addr a, std::size_t count) {
    std::vector<T> v(count);
    if (count) copy_to_host(v.data(), a, count * sizeof(T));
    return v;
  }

  // Loads a module (parsed IR). Returns its handle. The device keeps the module alive.
  int load_module(ptx::Module module);
  const Program& program(int module) const { return *programs_[static_cast<size_t>(module)]; }

  // Runs a kernel to completion in the functional mode (CTAs resident up to
  // sim.functional_resident_warps, warps stepped round-robin one instruction at a time).
  LaunchResult launch(int module, const std::string& kernel, Dim3 grid, Dim3 block,
                      const KernelArgs& args, std::uint32_t dynamic_shared = 0);

  // Runs launches on `b` (not owned; nullptr: the functional runner).
  void set_backend(ILaunchBackend* b) { backend_ = b; }
  // Sends memory, modules and launches to a real GPU (not owned; nullptr: the simulator).
  void set_native(INativeDevice* n) { native_ = n; }
  bool native() const { return native_ != nullptr; }
  double native_ms() const { return native_ms_; }
  GlobalMemory& memory() { return mem_; }
  const GlobalMemory& memory() const { return mem_; }
  const DeviceOptions& options() const { return opts_; }
  // Statistics summed over every launch so far.
  const ExecStats& totals() const { return totals_; }
  double sim_seconds() const { return sim_seconds_; }
  std::uint64_t cycles() const { return cycles_; }

 private:
  // Throws HostMemoryError when the launch would need more than opts_.host_memory_budget.
  void check_host_memory(const Program& prog, const DecodedFunction& k, Dim3 grid, Dim3 block,
                         std::uint32_t dynamic_shared) const;

  DeviceOptions opts_;
  GlobalMemory mem_;
  std::vector<std::unique_ptr<ptx::Module>> modules_;
  std::vector<std::unique_ptr<Program>> programs_;
  ExecStats totals_;
  double sim_seconds_ = 0;
  std::uint64_t cycles_ = 0;
  ILaunchBackend* backend_ = nullptr;
  INativeDevice* native_ = nullptr;
  std::vector<int> native_modules_;  // module handle -> the native backend's
  double native_ms_ = 0;
};

}  // namespace simtsync::func
