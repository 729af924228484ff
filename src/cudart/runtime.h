// The simulator side of libsimtsync_cudart.so: what the CUDA runtime API does, on a
// sim::Simulator. The C entry points (api.cc) translate between the CUDA ABI and this class;
// this class knows nothing of the CUDA headers, so unit tests drive it directly.
//
// Model of the runtime (docs/cuda-runtime.md):
// - One device, the simulated GPU of the selected config. Every operation runs to completion
//   when called, in program order: streams and events keep their order and their handles but
//   never overlap work. Simulated time advances by each kernel's cycles at the config's core
//   clock; copies and memsets take no simulated time.
// - Device memory is the simulator's global memory: cudaMalloc returns simulated addresses.
//   Host-visible allocations (cudaMallocManaged, cudaMallocHost/cudaHostAlloc) are host memory
//   mapped at the same address in the simulated GPU's address space; the host's copy is
//   written to the device before every launch and read back after it (coherent at every
//   launch, and so at every synchronisation point).
// - Each registered fat binary is its own module (kernels of the same name in different
//   translation units stay apart); its PTX is chosen, parsed and loaded at first use.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/types.h"
#include "cudart/fatbin.h"
#include "sim/simulator.h"
#include "timing/gpu/kernel_resources.h"
#include "timing/gpu/timing_gpu.h"
#include "trace/tracer.h"

namespace simtsync::cudart {

// cudaError_t values this runtime returns (api.cc checks each against the CUDA headers).
enum class Err : int {
  kSuccess = 0,
  kInvalidValue = 1,
  kMemoryAllocation = 2,
  kInitialization = 3,
  kInvalidConfiguration = 9,
  kInvalidSymbol = 13,
  kInvalidDevicePointer = 17,
  kInvalidMemcpyDirection = 21,
  kInvalidDeviceFunction = 98,
  kNoDevice = 100,
  kInvalidDevice = 101,
  kNoKernelImageForDevice = 209,
  kInvalidPtx = 218,
  kInvalidResourceHandle = 400,
  kNotReady = 600,
  kIllegalAddress = 700,
  kLaunchOutOfResources = 701,
  kLaunchTimeout = 702,
  kAssert = 710,
  kIllegalInstruction = 715,
  kLaunchFailure = 719,
  kNotSupported = 801,
  kUnknown = 999,
};

// What a runtime call failed with. `report`: print the message (simulator-side failures and
// unsupported calls); plain API misuse is only returned, as the real runtime does.
struct Failure {
  Err code;
  std::string message;
  bool report = true;
};

// cudaMemcpyKind's values.
enum class CopyKind : int {
  kHostToHost = 0,
  kHostToDevice = 1,
  kDeviceToHost = 2,
  kDeviceToDevice = 3,
  kDefault = 4
};

struct RuntimeOptions {
  sim::SimOptions sim;
  std::string json_path;  // statistics written here at exit ("" : none)
  // SIMTSYNC_OUTCOME: a file `simtsync exec` creates fresh for each run; the library appends a
  // line to it as things happen (start, each launch's outcome, a failed statistics write), so
  // exec knows the outcome however the program ends (docs/cuda-runtime.md, "Outcome channel").
  std::string outcome_path;
  bool quiet = false;  // no line per launch on stderr
  // SIMTSYNC_TRACE, SIMTSYNC_TRACE_WINDOW (`simtsync exec --trace FILE --trace-window S:E`):
  // the timeline trace of every launch, closed at exit (docs/timeline.md).
  std::string trace_path, trace_window;
  std::string source;  // where the settings came from (for the statistics)

  // SIMTSYNC_CONFIG, SIMTSYNC_MODE, SIMTSYNC_SET (KEY=VALUE, separated by ';' or newlines),
  // SIMTSYNC_THREADS, SIMTSYNC_JSON, SIMTSYNC_QUIET; below them a simtsync.yaml in the
  // working directory (keys config, mode, threads, json, quiet and a map `set`). Throws
  // simtsync::Error(kUsage) naming the bad variable or key.
  static RuntimeOptions from_environment();
};

// The simulated device as cudaGetDeviceProperties reports it.
struct DeviceInfo {
  std::string name;
  unsigned num_sms = 0, warp_size = 32, max_threads_per_sm = 0, max_warps_per_sm = 0,
           max_ctas_per_sm = 0, registers_per_sm = 0, shared_per_sm = 0, l2_bytes = 0,
           partitions = 0;
  double core_clock_mhz = 0;
  // clock.dram_mhz x mem.dram.data_rate / 2: the clock CUDA reports, whose double is the data
  // rate (GTX480: 924 MHz GDDR5 at 4 beats per clock reads 1,848 MHz, as the real board does).
  unsigned memory_clock_khz = 0;
  unsigned bus_width_bits = 0;   // mem.partitions x mem.dram.bus_bytes x 8
  bool l1_caches_global = true;  // mem.l1.enabled
};

struct FuncAttributes {
  unsigned num_regs = 0, static_shared = 0, local_bytes = 0, const_bytes = 0, params_bytes = 0;
  unsigned max_threads = 1024;
};

struct LaunchConfig {
  Dim3 grid, block;
  std::size_t shared = 0;
  void* stream = nullptr;
};

class Runtime {
 public:
  explicit Runtime(const RuntimeOptions& o);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  sim::Simulator& simulator() { return sim_; }
  const DeviceInfo& device_info() const { return info_; }

  // Registration (the program's static constructors). The handle is opaque to the program.
  void** register_fatbin(const void* wrapper);
  void register_function(void** handle, const void* host_fn, const std::string& device_name);
  void register_var(void** handle, const void* host_var, const std::string& device_name,
                    std::size_t size, bool constant);
  // __managed__ variables: the runtime stores the variable's address in *host_ptr: a
  // host-visible copy, kept coherent with the module's variable at every launch.
  void register_managed_var(void** handle, void** host_ptr, const std::string& device_name,
                            std::size_t size);
  // All of a fat binary's registrations are in: loads its module now when it has __managed__
  // variables (their host copies start with the PTX's initial values).
  void fatbin_end(void** handle);
  void unregister_fatbin(void** handle);

  // <<<...>>> configuration stack.
  void push_config(const LaunchConfig& c) { configs_.push_back(c); }
  LaunchConfig pop_config();

  // Runs `host_fn`'s kernel now. args[i] points at the i-th parameter's value.
  void launch(const void* host_fn, const LaunchConfig& c, void** args);
  FuncAttributes attributes(const void* host_fn);
  // Largest number of resident CTAs of `block_threads` threads per SM for the kernel.
  int occupancy(const void* host_fn, unsigned block_threads, std::size_t dynamic_shared);

  void* malloc(std::size_t bytes);
  void free(void* p);
  void* malloc_host(std::size_t bytes);  // pinned host memory, device-accessible
  void free_host(void* p);
  void* malloc_managed(std::size_t bytes);
  void memcpy(void* dst, const void* src, std::size_t n, CopyKind kind);
  void memset(void* dst, int value, std::size_t n);
  // Copies between a registered variable and `other`, host or device memory: under unified
  // addressing the pointer says which, whatever cudaMemcpyKind the program passed.
  void copy_symbol(const void* symbol, std::size_t offset, void* other, std::size_t n,
                   bool to_symbol);
  void* symbol_address(const void* symbol);
  std::size_t symbol_size(const void* symbol);
  // True when [p, p+n) is device memory or a host-visible allocation.
  bool is_device(const void* p, std::size_t n = 1) const;
  bool is_host_visible(const void* p) const;
  // A host-visible pointer's allocation: 1 pinned (cudaMallocHost/cudaHostAlloc), 2 managed
  // (cudaMallocManaged, __managed__); 0 for any other pointer.
  int host_visible_kind(const void* p) const;
  std::size_t free_device_bytes() const;
  std::size_t total_device_bytes() const { return kDeviceBytes; }

  // Simulated time since start-up, in milliseconds.
  double now_ms() const { return now_ms_; }

  // A kernel failure (fault, watchdog) poisons the context as on a real GPU: every later call
  // that touches the device fails with it.
  const std::optional<Failure>& sticky() const { return sticky_; }

  // Statistics as `simtsync run --json` writes them, plus a record per launch.
  nlohmann::json statistics() const;
  // Writes the statistics to --json FILE; a failed open, write or close is reported on stderr
  // and on the outcome channel (exec then exits 2).
  void write_statistics();
  // Ends and closes the timeline trace (--trace); a failed write is reported as write_statistics
  // reports one.
  void close_trace();

  static constexpr std::size_t kDeviceBytes = std::size_t{4} << 30;

 private:
  struct Module {
    std::vector<FatbinEntry> entries;
    int device_module = -1;  // Device's handle once loaded
    std::string ptx_name;    // "fatbin #N (sm_75 PTX)"
    std::optional<Failure> load_error;
  };
  struct Kernel {
    Module* module;
    std::string name;
  };
  struct Symbol {
    Module* module;
    std::string name;
    std::size_t size;
    bool constant;
    void** managed_host = nullptr;  // __managed__: where the program keeps the pointer
  };
  struct ManagedVar {
    Module* module;
    std::string name;
    std::size_t size;
    Addr host;        // the host-visible copy (*host_ptr)
    Addr device = 0;  // the module's variable, once loaded
  };
  struct HostRange {
    std::size_t size;
    bool pinned;  // cudaMallocHost (else managed)
  };
  struct LaunchRecord {
    std::string kernel;
    Dim3 grid, block;
    std::size_t shared;
    std::uint64_t cycles, warp_instructions;
    double seconds;
    std::string outcome;  // ok, deadlock, fault
  };

  const func::Program& load(Module& m);
  const Kernel& kernel_of(const void* host_fn);
  const Symbol& symbol_of(const void* sym);
  // One line on the outcome channel (no-op without SIMTSYNC_OUTCOME): TAB-separated fields,
  // written with one write() so that lines of several processes never interleave.
  void report_outcome(const std::vector<std::string>& fields) const;
  Addr symbol_device_address(const Symbol& s);
  // Loads a __managed__ variable's module, copying its initial value to the host copy.
  bool bind_managed(ManagedVar& v);
  void sync_host_to_device();
  void sync_device_to_host();
  void check_sticky() const;

  sim::Simulator sim_;
  RuntimeOptions opts_;
  gpu::GpuParams gp_;         // the simulated GPU's parameters (also in the functional mode)
  gpu::ResourceOracle regs_;  // registers per thread, as the CTA dispatcher counts them
  DeviceInfo info_;
  std::vector<std::unique_ptr<Module>> modules_;
  std::map<const void*, Kernel> kernels_;
  std::map<const void*, Symbol> symbols_;
  std::map<Addr, std::size_t> device_allocs_;
  std::map<Addr, HostRange> host_ranges_;  // host-visible allocations, by address
  std::vector<ManagedVar> managed_vars_;
  std::size_t device_used_ = 0;
  std::vector<LaunchConfig> configs_;
  std::vector<LaunchRecord> launches_;
  double now_ms_ = 0;
  std::optional<Failure> sticky_;
  int exit_code_ = 0;  // simtsync's: 3 after a watchdog stop, 5 after a kernel fault
  std::unique_ptr<trace::Tracer> tracer_;  // --trace; listens to sim_'s timing GPU
  std::string watchdog_report_;
  bool written_ = false;
};

// The process's runtime, created at first use from the environment. A bad setting ends the
// process with exit code 2 and a message naming it.
Runtime& runtime();
// Whether runtime() has been created (exit-time code must not create it).
bool runtime_started();

}  // namespace simtsync::cudart
