// The CUDA runtime API entry points of libsimtsync_cudart.so, with the exact signatures of the
// toolkit's cuda_runtime_api.h (compiled against it, so a signature that drifts fails to
// build). Each one takes the runtime lock, calls Runtime and turns a Failure into the CUDA
// error code it carries, recording it as the thread's last error. Calls not defined here fall
// to the weak definitions of stubs.cc: cudaErrorNotSupported and a one-line message.
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>

#include "common/error.h"
#include "cudart/runtime.h"

namespace simtsync::cudart {
namespace {

#define SIMTSYNC_SAME(ours, theirs) \
  static_assert(static_cast<int>(Err::ours) == static_cast<int>(theirs), #theirs)
SIMTSYNC_SAME(kSuccess, cudaSuccess);
SIMTSYNC_SAME(kInvalidValue, cudaErrorInvalidValue);
SIMTSYNC_SAME(kMemoryAllocation, cudaErrorMemoryAllocation);
SIMTSYNC_SAME(kInitialization, cudaErrorInitializationError);
SIMTSYNC_SAME(kInvalidConfiguration, cudaErrorInvalidConfiguration);
SIMTSYNC_SAME(kInvalidSymbol, cudaErrorInvalidSymbol);
SIMTSYNC_SAME(kInvalidDevicePointer, cudaErrorInvalidDevicePointer);
SIMTSYNC_SAME(kInvalidMemcpyDirection, cudaErrorInvalidMemcpyDirection);
SIMTSYNC_SAME(kInvalidDeviceFunction, cudaErrorInvalidDeviceFunction);
SIMTSYNC_SAME(kNoDevice, cudaErrorNoDevice);
SIMTSYNC_SAME(kInvalidDevice, cudaErrorInvalidDevice);
SIMTSYNC_SAME(kNoKernelImageForDevice, cudaErrorNoKernelImageForDevice);
SIMTSYNC_SAME(kInvalidPtx, cudaErrorInvalidPtx);
SIMTSYNC_SAME(kInvalidResourceHandle, cudaErrorInvalidResourceHandle);
SIMTSYNC_SAME(kNotReady, cudaErrorNotReady);
SIMTSYNC_SAME(kIllegalAddress, cudaErrorIllegalAddress);
SIMTSYNC_SAME(kLaunchOutOfResources, cudaErrorLaunchOutOfResources);
SIMTSYNC_SAME(kLaunchTimeout, cudaErrorLaunchTimeout);
SIMTSYNC_SAME(kAssert, cudaErrorAssert);
SIMTSYNC_SAME(kIllegalInstruction, cudaErrorIllegalInstruction);
SIMTSYNC_SAME(kLaunchFailure, cudaErrorLaunchFailure);
SIMTSYNC_SAME(kNotSupported, cudaErrorNotSupported);
SIMTSYNC_SAME(kUnknown, cudaErrorUnknown);
#undef SIMTSYNC_SAME

std::recursive_mutex g_lock;
thread_local cudaError_t t_last = cudaSuccess;

// Streams and events: handles the program passes back. Work never overlaps, so a stream is a
// name and an event a point of simulated time.
struct Stream {
  int id;
};
struct Event {
  bool recorded = false;
  double ms = 0;
};
std::set<const void*> g_streams;
std::set<const void*> g_events;

cudaError_t fail(const char* api, const Failure& f) {
  if (f.report) std::fprintf(stderr, "simtsync cudart: %s: %s\n", api, f.message.c_str());
  const auto code = static_cast<cudaError_t>(f.code);
  t_last = code;
  return code;
}

Err from_exit_code(ExitCode c) {
  switch (c) {
    case ExitCode::kUsage:
      return Err::kInvalidValue;
    case ExitCode::kDeadlock:
      return Err::kLaunchTimeout;
    case ExitCode::kUnsupported:
      return Err::kNotSupported;
    case ExitCode::kKernelFault:
      return Err::kIllegalAddress;
    default:
      return Err::kUnknown;
  }
}

template <typename F>
cudaError_t guarded(const char* api, F&& f) {
  std::lock_guard<std::recursive_mutex> lock(g_lock);
  try {
    f(runtime());
    return cudaSuccess;
  } catch (const Failure& e) {
    return fail(api, e);
  } catch (const Error& e) {
    return fail(api, Failure{from_exit_code(e.code()), e.what()});
  } catch (const std::exception& e) {
    return fail(api, Failure{Err::kUnknown, e.what()});
  }
}

void need(bool ok, const char* what) {
  if (!ok) throw Failure{Err::kInvalidValue, what, false};
}

CopyKind kind_of(cudaMemcpyKind k) {
  return static_cast<CopyKind>(static_cast<int>(k));
}

void check_stream(cudaStream_t s) {
  if (s && s != cudaStreamLegacy && s != cudaStreamPerThread && !g_streams.count(s))
    throw Failure{Err::kInvalidResourceHandle, "not a stream of this runtime", false};
}

Event& event_of(cudaEvent_t e) {
  if (!e || !g_events.count(e))
    throw Failure{Err::kInvalidResourceHandle, "not an event of this runtime", false};
  return *reinterpret_cast<Event*>(e);
}

LaunchConfig config_of(dim3 g, dim3 b, size_t shared, cudaStream_t s) {
  return LaunchConfig{Dim3{g.x, g.y, g.z}, Dim3{b.x, b.y, b.z}, shared, s};
}

int device_attribute(const DeviceInfo& d, cudaDeviceAttr a) {
  switch (a) {
    case cudaDevAttrMaxThreadsPerBlock:
      return 1024;
    case cudaDevAttrMaxBlockDimX:
    case cudaDevAttrMaxBlockDimY:
      return 1024;
    case cudaDevAttrMaxBlockDimZ:
      return 64;
    case cudaDevAttrMaxGridDimX:
      return 2147483647;
    case cudaDevAttrMaxGridDimY:
    case cudaDevAttrMaxGridDimZ:
      return 65535;
    case cudaDevAttrMaxSharedMemoryPerBlock:
    case cudaDevAttrMaxSharedMemoryPerBlockOptin:
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
      return static_cast<int>(d.shared_per_sm);
    case cudaDevAttrTotalConstantMemory:
      return 65536;
    case cudaDevAttrWarpSize:
      return static_cast<int>(d.warp_size);
    case cudaDevAttrMaxRegistersPerBlock:
    case cudaDevAttrMaxRegistersPerMultiprocessor:
      return static_cast<int>(d.registers_per_sm);
    case cudaDevAttrClockRate:
      return static_cast<int>(d.core_clock_mhz * 1000);
    case cudaDevAttrMultiProcessorCount:
      return static_cast<int>(d.num_sms);
    case cudaDevAttrMaxThreadsPerMultiProcessor:
      return static_cast<int>(d.max_threads_per_sm);
    case cudaDevAttrMaxBlocksPerMultiprocessor:
      return static_cast<int>(d.max_ctas_per_sm);
    case cudaDevAttrL2CacheSize:
      return static_cast<int>(d.l2_bytes);
    case cudaDevAttrComputeCapabilityMajor:
      return 7;
    case cudaDevAttrComputeCapabilityMinor:
      return 5;
    case cudaDevAttrUnifiedAddressing:
    case cudaDevAttrManagedMemory:
    case cudaDevAttrCanMapHostMemory:
    case cudaDevAttrConcurrentKernels:
      return 1;
    case cudaDevAttrIntegrated:
    case cudaDevAttrEccEnabled:
      return 0;
    default:
      throw Failure{Err::kNotSupported, "cudaDeviceGetAttribute: attribute " +
                                            std::to_string(static_cast<int>(a)) +
                                            " is not modelled"};
  }
}

struct ErrorText {
  cudaError_t code;
  const char* name;
  const char* text;
};
// Descriptions written here; the names are the enumerators of driver_types.h.
const ErrorText kErrors[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration",
     "invalid launch configuration"},
    {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice",
     "no kernel image the simulator can run (it needs PTX)"},
    {cudaErrorInvalidPtx, "cudaErrorInvalidPtx", "PTX the simulator cannot load"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid handle"},
    {cudaErrorNotReady, "cudaErrorNotReady", "not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress",
     "a kernel accessed memory outside every allocation"},
    {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources",
     "too many resources requested for launch"},
    {cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout",
     "the simulator's watchdog stopped the kernel (deadlock or livelock)"},
    {cudaErrorAssert, "cudaErrorAssert", "device-side assertion failed"},
    {cudaErrorIllegalInstruction, "cudaErrorIllegalInstruction",
     "a kernel executed an instruction the simulator cannot execute"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "kernel launch failed"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported by simtsync"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};

const ErrorText* error_text(cudaError_t e) {
  for (const auto& t : kErrors)
    if (t.code == e) return &t;
  return nullptr;
}

}  // namespace

// Used by the weak stubs of stubs.cc.
int unsupported_call(const char* name) {
  std::lock_guard<std::recursive_mutex> lock(g_lock);
  return static_cast<int>(
      fail(name, Failure{Err::kNotSupported, "not supported by the simulator's CUDA runtime"}));
}

}  // namespace simtsync::cudart

using simtsync::cudart::CopyKind;
using simtsync::cudart::Err;
using simtsync::cudart::Failure;
using simtsync::cudart::guarded;
using simtsync::cudart::need;
using simtsync::cudart::Runtime;

extern "C" {

// ---- Registration and launch (called by nvcc's generated host code) ----

void** CUDARTAPI __cudaRegisterFatBinary(void* fatCubin) {
  void** h = nullptr;
  guarded("__cudaRegisterFatBinary", [&](Runtime& rt) { h = rt.register_fatbin(fatCubin); });
  return h;
}

void CUDARTAPI __cudaRegisterFatBinaryEnd(void** fatCubinHandle) {
  guarded("__cudaRegisterFatBinaryEnd", [&](Runtime& rt) { rt.fatbin_end(fatCubinHandle); });
}

void CUDARTAPI __cudaUnregisterFatBinary(void** fatCubinHandle) {
  guarded("__cudaUnregisterFatBinary", [&](Runtime& rt) { rt.unregister_fatbin(fatCubinHandle); });
}

void CUDARTAPI __cudaRegisterFunction(void** fatCubinHandle, const char* hostFun, char* deviceFun,
                                      const char* deviceName, int thread_limit, uint3* tid,
                                      uint3* bid, dim3* bDim, dim3* gDim, int* wSize) {
  guarded("__cudaRegisterFunction", [&](Runtime& rt) {
    rt.register_function(fatCubinHandle, hostFun, deviceName ? deviceName : deviceFun);
  });
}

void CUDARTAPI __cudaRegisterVar(void** fatCubinHandle, char* hostVar, char* deviceAddress,
                                 const char* deviceName, int ext, size_t size, int constant,
                                 int global) {
  guarded("__cudaRegisterVar", [&](Runtime& rt) {
    rt.register_var(fatCubinHandle, hostVar, deviceName ? deviceName : deviceAddress, size,
                    constant != 0);
  });
}

void CUDARTAPI __cudaRegisterManagedVar(void** fatCubinHandle, void** hostVarPtrAddress,
                                        char* deviceAddress, const char* deviceName, int ext,
                                        size_t size, int constant, int global) {
  guarded("__cudaRegisterManagedVar", [&](Runtime& rt) {
    rt.register_managed_var(fatCubinHandle, hostVarPtrAddress,
                            deviceName ? deviceName : deviceAddress, size);
  });
}

char CUDARTAPI __cudaInitModule(void** fatCubinHandle) {
  return 1;
}

unsigned CUDARTAPI __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                               struct CUstream_st* stream) {
  const cudaError_t e = guarded("<<<...>>>", [&](Runtime& rt) {
    rt.push_config(simtsync::cudart::config_of(gridDim, blockDim, sharedMem, stream));
  });
  return e == cudaSuccess ? 0 : 1;
}

cudaError_t CUDARTAPI __cudaPopCallConfiguration(dim3* gridDim, dim3* blockDim, size_t* sharedMem,
                                                 void* stream) {
  return guarded("__cudaPopCallConfiguration", [&](Runtime& rt) {
    const simtsync::cudart::LaunchConfig c = rt.pop_config();
    *gridDim = dim3(c.grid.x, c.grid.y, c.grid.z);
    *blockDim = dim3(c.block.x, c.block.y, c.block.z);
    *sharedMem = c.shared;
    *static_cast<cudaStream_t*>(stream) = static_cast<cudaStream_t>(c.stream);
  });
}

// A cudaKernel_t is the kernel's host function address.
cudaError_t CUDARTAPI __cudaGetKernel(cudaKernel_t* kernel, const void* func) {
  return guarded("__cudaGetKernel", [&](Runtime&) {
    need(kernel != nullptr, "null kernel pointer");
    *kernel = reinterpret_cast<cudaKernel_t>(const_cast<void*>(func));
  });
}

cudaError_t CUDARTAPI cudaGetKernel(cudaKernel_t* kernelPtr, const void* entryFuncAddr) {
  return __cudaGetKernel(kernelPtr, entryFuncAddr);
}

cudaError_t CUDARTAPI cudaLaunchKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                                       size_t sharedMem, cudaStream_t stream) {
  return guarded("cudaLaunchKernel", [&](Runtime& rt) {
    simtsync::cudart::check_stream(stream);
    rt.launch(func, simtsync::cudart::config_of(gridDim, blockDim, sharedMem, stream), args);
  });
}

// cudaLaunchKernelEx: attributes that only hint at performance are accepted; those that change
// what a launch means (clusters, cooperative and programmatic launches, completion events) are
// not supported.
cudaError_t CUDARTAPI cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func,
                                          void** args) {
  return guarded("cudaLaunchKernelExC", [&](Runtime& rt) {
    need(config != nullptr, "null config");
    for (unsigned i = 0; i < config->numAttrs; ++i) {
      switch (config->attrs[i].id) {
        case cudaLaunchAttributeIgnore:
        case cudaLaunchAttributeAccessPolicyWindow:
        case cudaLaunchAttributeSynchronizationPolicy:
        case cudaLaunchAttributePriority:
        case cudaLaunchAttributeMemSyncDomainMap:
        case cudaLaunchAttributeMemSyncDomain:
        case cudaLaunchAttributePreferredSharedMemoryCarveout:
          break;
        default:
          throw Failure{Err::kNotSupported,
                        "launch attribute " +
                            std::to_string(static_cast<int>(config->attrs[i].id)) +
                            " (clusters, cooperative or programmatic launches) is not supported"};
      }
    }
    simtsync::cudart::check_stream(config->stream);
    rt.launch(func,
              simtsync::cudart::config_of(config->gridDim, config->blockDim,
                                          config->dynamicSmemBytes, config->stream),
              args);
  });
}

cudaError_t CUDARTAPI cudaPointerGetAttributes(struct cudaPointerAttributes* attributes,
                                               const void* ptr) {
  return guarded("cudaPointerGetAttributes", [&](Runtime& rt) {
    need(attributes != nullptr, "null attributes");
    std::memset(attributes, 0, sizeof *attributes);
    const int kind = rt.host_visible_kind(ptr);
    void* p = const_cast<void*>(ptr);
    if (kind == 2) {
      attributes->type = cudaMemoryTypeManaged;
      attributes->devicePointer = attributes->hostPointer = p;
    } else if (kind == 1) {
      attributes->type = cudaMemoryTypeHost;
      attributes->devicePointer = attributes->hostPointer = p;
    } else if (ptr && rt.is_device(ptr)) {
      attributes->type = cudaMemoryTypeDevice;
      attributes->devicePointer = p;
    } else {
      attributes->type = cudaMemoryTypeUnregistered;
      attributes->hostPointer = p;
    }
    attributes->device = 0;
  });
}

cudaError_t CUDARTAPI __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                         void** args, size_t sharedMem, cudaStream_t stream) {
  return cudaLaunchKernel(reinterpret_cast<const void*>(kernel), gridDim, blockDim, args, sharedMem,
                          stream);
}

cudaError_t CUDARTAPI __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                              void** args, size_t sharedMem, cudaStream_t stream) {
  return __cudaLaunchKernel(kernel, gridDim, blockDim, args, sharedMem, stream);
}

// ---- Errors ----

cudaError_t CUDARTAPI cudaGetLastError(void) {
  std::lock_guard<std::recursive_mutex> lock(simtsync::cudart::g_lock);
  cudaError_t e = simtsync::cudart::t_last;
  simtsync::cudart::t_last = cudaSuccess;
  // A sticky error (a kernel fault or a watchdog stop) stays.
  if (simtsync::cudart::runtime_started() && simtsync::cudart::runtime().sticky())
    simtsync::cudart::t_last = e;
  return e;
}

cudaError_t CUDARTAPI cudaPeekAtLastError(void) {
  return simtsync::cudart::t_last;
}

const char* CUDARTAPI cudaGetErrorString(cudaError_t error) {
  const auto* t = simtsync::cudart::error_text(error);
  return t ? t->text : "unrecognized error code";
}

const char* CUDARTAPI cudaGetErrorName(cudaError_t error) {
  const auto* t = simtsync::cudart::error_text(error);
  return t ? t->name : "cudaErrorUnknown";
}

// ---- Device ----

cudaError_t CUDARTAPI cudaGetDeviceCount(int* count) {
  return guarded("cudaGetDeviceCount", [&](Runtime&) {
    need(count != nullptr, "null count");
    *count = 1;
  });
}

cudaError_t CUDARTAPI cudaGetDevice(int* device) {
  return guarded("cudaGetDevice", [&](Runtime&) {
    need(device != nullptr, "null device");
    *device = 0;
  });
}

cudaError_t CUDARTAPI cudaSetDevice(int device) {
  return guarded("cudaSetDevice", [&](Runtime&) {
    if (device != 0) throw Failure{Err::kInvalidDevice, "the simulator has device 0 only", false};
  });
}

cudaError_t CUDARTAPI cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags) {
  return cudaSetDevice(device);
}

cudaError_t CUDARTAPI cudaSetDeviceFlags(unsigned int flags) {
  return guarded("cudaSetDeviceFlags", [](Runtime&) {});
}

cudaError_t CUDARTAPI cudaGetDeviceFlags(unsigned int* flags) {
  return guarded("cudaGetDeviceFlags", [&](Runtime&) {
    need(flags != nullptr, "null flags");
    *flags = cudaDeviceScheduleAuto;
  });
}

cudaError_t CUDARTAPI cudaGetDeviceProperties(struct cudaDeviceProp* prop, int device) {
  return guarded("cudaGetDeviceProperties", [&](Runtime& rt) {
    need(prop != nullptr, "null prop");
    if (device != 0) throw Failure{Err::kInvalidDevice, "the simulator has device 0 only", false};
    const simtsync::cudart::DeviceInfo& d = rt.device_info();
    std::memset(prop, 0, sizeof *prop);
    std::snprintf(prop->name, sizeof prop->name, "%s", d.name.c_str());
    prop->totalGlobalMem = Runtime::kDeviceBytes;
    prop->sharedMemPerBlock = d.shared_per_sm;
    prop->sharedMemPerBlockOptin = d.shared_per_sm;
    prop->sharedMemPerMultiprocessor = d.shared_per_sm;
    prop->regsPerBlock = static_cast<int>(d.registers_per_sm);
    prop->regsPerMultiprocessor = static_cast<int>(d.registers_per_sm);
    prop->warpSize = static_cast<int>(d.warp_size);
    prop->memPitch = 2147483647;
    prop->maxThreadsPerBlock = 1024;
    prop->maxThreadsDim[0] = prop->maxThreadsDim[1] = 1024;
    prop->maxThreadsDim[2] = 64;
    prop->maxGridSize[0] = 2147483647;
    prop->maxGridSize[1] = prop->maxGridSize[2] = 65535;
    prop->totalConstMem = 65536;
    prop->major = 7;  // the PTX target nvcc 13 compiles for by default (sm_75)
    prop->minor = 5;
    prop->textureAlignment = 512;
    prop->texturePitchAlignment = 32;
    prop->multiProcessorCount = static_cast<int>(d.num_sms);
    prop->canMapHostMemory = 1;
    prop->concurrentKernels = 1;
    prop->unifiedAddressing = 1;
    prop->managedMemory = 1;
    prop->l2CacheSize = static_cast<int>(d.l2_bytes);
    prop->maxThreadsPerMultiProcessor = static_cast<int>(d.max_threads_per_sm);
    prop->maxBlocksPerMultiProcessor = static_cast<int>(d.max_ctas_per_sm);
    prop->globalL1CacheSupported = 1;
    prop->localL1CacheSupported = 1;
  });
}

cudaError_t CUDARTAPI cudaDeviceGetAttribute(int* value, enum cudaDeviceAttr attr, int device) {
  return guarded("cudaDeviceGetAttribute", [&](Runtime& rt) {
    need(value != nullptr, "null value");
    if (device != 0) throw Failure{Err::kInvalidDevice, "the simulator has device 0 only", false};
    *value = simtsync::cudart::device_attribute(rt.device_info(), attr);
  });
}

cudaError_t CUDARTAPI cudaDeviceSynchronize(void) {
  return guarded("cudaDeviceSynchronize", [](Runtime& rt) {
    if (rt.sticky()) throw Failure{rt.sticky()->code, rt.sticky()->message, false};
  });
}

cudaError_t CUDARTAPI cudaDeviceReset(void) {
  return guarded("cudaDeviceReset", [](Runtime& rt) { rt.write_statistics(); });
}

cudaError_t CUDARTAPI cudaDriverGetVersion(int* v) {
  return guarded("cudaDriverGetVersion", [&](Runtime&) {
    need(v != nullptr, "null version");
    *v = CUDART_VERSION;
  });
}

cudaError_t CUDARTAPI cudaRuntimeGetVersion(int* v) {
  return guarded("cudaRuntimeGetVersion", [&](Runtime&) {
    need(v != nullptr, "null version");
    *v = CUDART_VERSION;
  });
}

cudaError_t CUDARTAPI cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig) {
  return guarded("cudaDeviceSetCacheConfig", [](Runtime&) {});  // accepted; no effect (docs)
}

cudaError_t CUDARTAPI cudaDeviceGetCacheConfig(enum cudaFuncCache* c) {
  return guarded("cudaDeviceGetCacheConfig", [&](Runtime&) {
    need(c != nullptr, "null config");
    *c = cudaFuncCachePreferNone;
  });
}

cudaError_t CUDARTAPI cudaDeviceSetLimit(enum cudaLimit limit, size_t value) {
  return guarded("cudaDeviceSetLimit", [](Runtime&) {});  // accepted; no effect (docs)
}

cudaError_t CUDARTAPI cudaDeviceGetLimit(size_t* pValue, enum cudaLimit limit) {
  return guarded("cudaDeviceGetLimit", [&](Runtime&) {
    need(pValue != nullptr, "null value");
    switch (limit) {
      case cudaLimitStackSize:
        *pValue = 1024;
        break;
      case cudaLimitPrintfFifoSize:
        *pValue = 1 << 20;
        break;
      case cudaLimitMallocHeapSize:
        *pValue = 8 << 20;
        break;
      default:
        *pValue = 0;
    }
  });
}

cudaError_t CUDARTAPI cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
  return guarded("cudaDeviceGetStreamPriorityRange", [&](Runtime&) {
    if (least) *least = 0;
    if (greatest) *greatest = 0;
  });
}

cudaError_t CUDARTAPI cudaMemGetInfo(size_t* free, size_t* total) {
  return guarded("cudaMemGetInfo", [&](Runtime& rt) {
    need(free && total, "null pointer");
    *free = rt.free_device_bytes();
    *total = rt.total_device_bytes();
  });
}

// ---- Memory ----

cudaError_t CUDARTAPI cudaMalloc(void** devPtr, size_t size) {
  return guarded("cudaMalloc", [&](Runtime& rt) {
    need(devPtr != nullptr, "null devPtr");
    *devPtr = rt.malloc(size);
  });
}

cudaError_t CUDARTAPI cudaMallocPitch(void** devPtr, size_t* pitch, size_t width, size_t height) {
  return guarded("cudaMallocPitch", [&](Runtime& rt) {
    need(devPtr && pitch, "null pointer");
    *pitch = (width + 255) / 256 * 256;
    *devPtr = rt.malloc(*pitch * height);
  });
}

cudaError_t CUDARTAPI cudaFree(void* devPtr) {
  return guarded("cudaFree", [&](Runtime& rt) { rt.free(devPtr); });
}

cudaError_t CUDARTAPI cudaMallocHost(void** ptr, size_t size) {
  return guarded("cudaMallocHost", [&](Runtime& rt) {
    need(ptr != nullptr, "null ptr");
    *ptr = rt.malloc_host(size);
  });
}

cudaError_t CUDARTAPI cudaHostAlloc(void** pHost, size_t size, unsigned int flags) {
  return guarded("cudaHostAlloc", [&](Runtime& rt) {
    need(pHost != nullptr, "null pHost");
    *pHost = rt.malloc_host(size);
  });
}

cudaError_t CUDARTAPI cudaHostGetDevicePointer(void** pDevice, void* pHost, unsigned int flags) {
  return guarded("cudaHostGetDevicePointer", [&](Runtime& rt) {
    need(pDevice != nullptr, "null pDevice");
    need(rt.is_host_visible(pHost), "not a cudaHostAlloc pointer");
    *pDevice = pHost;  // mapped at the same address
  });
}

cudaError_t CUDARTAPI cudaFreeHost(void* ptr) {
  return guarded("cudaFreeHost", [&](Runtime& rt) { rt.free_host(ptr); });
}

cudaError_t CUDARTAPI cudaMallocManaged(void** devPtr, size_t size, unsigned int flags) {
  return guarded("cudaMallocManaged", [&](Runtime& rt) {
    need(devPtr != nullptr, "null devPtr");
    *devPtr = rt.malloc_managed(size);
  });
}

cudaError_t CUDARTAPI cudaMemPrefetchAsync(const void* devPtr, size_t count,
                                           struct cudaMemLocation location, unsigned int flags,
                                           cudaStream_t stream) {
  // Managed memory is coherent at every launch; a prefetch has nothing to do.
  return guarded("cudaMemPrefetchAsync", [&](Runtime& rt) {
    need(rt.is_host_visible(devPtr), "not a managed allocation");
  });
}

cudaError_t CUDARTAPI cudaMemcpy(void* dst, const void* src, size_t count,
                                 enum cudaMemcpyKind kind) {
  return guarded("cudaMemcpy",
                 [&](Runtime& rt) { rt.memcpy(dst, src, count, simtsync::cudart::kind_of(kind)); });
}

cudaError_t CUDARTAPI cudaMemcpyAsync(void* dst, const void* src, size_t count,
                                      enum cudaMemcpyKind kind, cudaStream_t stream) {
  return guarded("cudaMemcpyAsync", [&](Runtime& rt) {
    simtsync::cudart::check_stream(stream);
    rt.memcpy(dst, src, count, simtsync::cudart::kind_of(kind));
  });
}

cudaError_t CUDARTAPI cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch,
                                   size_t width, size_t height, enum cudaMemcpyKind kind) {
  return guarded("cudaMemcpy2D", [&](Runtime& rt) {
    need(width <= dpitch && width <= spitch, "width exceeds a pitch");
    for (size_t r = 0; r < height; ++r)
      rt.memcpy(static_cast<char*>(dst) + r * dpitch, static_cast<const char*>(src) + r * spitch,
                width, simtsync::cudart::kind_of(kind));
  });
}

cudaError_t CUDARTAPI cudaMemset(void* devPtr, int value, size_t count) {
  return guarded("cudaMemset", [&](Runtime& rt) { rt.memset(devPtr, value, count); });
}

cudaError_t CUDARTAPI cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream) {
  return guarded("cudaMemsetAsync", [&](Runtime& rt) {
    simtsync::cudart::check_stream(stream);
    rt.memset(devPtr, value, count);
  });
}

cudaError_t CUDARTAPI cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count,
                                         size_t offset, enum cudaMemcpyKind kind) {
  return guarded("cudaMemcpyToSymbol", [&](Runtime& rt) {
    rt.copy_symbol(symbol, offset, const_cast<void*>(src), count, true,
                   simtsync::cudart::kind_of(kind));
  });
}

cudaError_t CUDARTAPI cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count,
                                           size_t offset, enum cudaMemcpyKind kind) {
  return guarded("cudaMemcpyFromSymbol", [&](Runtime& rt) {
    rt.copy_symbol(symbol, offset, dst, count, false, simtsync::cudart::kind_of(kind));
  });
}

cudaError_t CUDARTAPI cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count,
                                              size_t offset, enum cudaMemcpyKind kind,
                                              cudaStream_t stream) {
  return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}

cudaError_t CUDARTAPI cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count,
                                                size_t offset, enum cudaMemcpyKind kind,
                                                cudaStream_t stream) {
  return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}

cudaError_t CUDARTAPI cudaGetSymbolAddress(void** devPtr, const void* symbol) {
  return guarded("cudaGetSymbolAddress", [&](Runtime& rt) {
    need(devPtr != nullptr, "null devPtr");
    *devPtr = rt.symbol_address(symbol);
  });
}

cudaError_t CUDARTAPI cudaGetSymbolSize(size_t* size, const void* symbol) {
  return guarded("cudaGetSymbolSize", [&](Runtime& rt) {
    need(size != nullptr, "null size");
    *size = rt.symbol_size(symbol);
  });
}

// ---- Streams and events ----

cudaError_t CUDARTAPI cudaStreamCreate(cudaStream_t* pStream) {
  return guarded("cudaStreamCreate", [&](Runtime&) {
    need(pStream != nullptr, "null pStream");
    auto* s = new simtsync::cudart::Stream{static_cast<int>(simtsync::cudart::g_streams.size())};
    *pStream = reinterpret_cast<cudaStream_t>(s);
    simtsync::cudart::g_streams.insert(*pStream);
  });
}

cudaError_t CUDARTAPI cudaStreamCreateWithFlags(cudaStream_t* pStream, unsigned int flags) {
  return cudaStreamCreate(pStream);
}

cudaError_t CUDARTAPI cudaStreamCreateWithPriority(cudaStream_t* pStream, unsigned int flags,
                                                   int priority) {
  return cudaStreamCreate(pStream);
}

cudaError_t CUDARTAPI cudaStreamDestroy(cudaStream_t stream) {
  return guarded("cudaStreamDestroy", [&](Runtime&) {
    if (!simtsync::cudart::g_streams.erase(stream))
      throw Failure{Err::kInvalidResourceHandle, "not a stream of this runtime", false};
    delete reinterpret_cast<simtsync::cudart::Stream*>(stream);
  });
}

cudaError_t CUDARTAPI cudaStreamSynchronize(cudaStream_t stream) {
  return guarded("cudaStreamSynchronize", [&](Runtime& rt) {
    simtsync::cudart::check_stream(stream);
    if (rt.sticky()) throw Failure{rt.sticky()->code, rt.sticky()->message, false};
  });
}

cudaError_t CUDARTAPI cudaStreamQuery(cudaStream_t stream) {
  return guarded("cudaStreamQuery", [&](Runtime&) { simtsync::cudart::check_stream(stream); });
}

cudaError_t CUDARTAPI cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                          unsigned int flags) {
  return guarded("cudaStreamWaitEvent", [&](Runtime&) {
    simtsync::cudart::check_stream(stream);
    simtsync::cudart::event_of(event);
  });
}

cudaError_t CUDARTAPI cudaEventCreate(cudaEvent_t* event) {
  return guarded("cudaEventCreate", [&](Runtime&) {
    need(event != nullptr, "null event");
    *event = reinterpret_cast<cudaEvent_t>(new simtsync::cudart::Event);
    simtsync::cudart::g_events.insert(*event);
  });
}

cudaError_t CUDARTAPI cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  return cudaEventCreate(event);
}

cudaError_t CUDARTAPI cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  return guarded("cudaEventRecord", [&](Runtime& rt) {
    simtsync::cudart::check_stream(stream);
    auto& e = simtsync::cudart::event_of(event);
    e.recorded = true;
    e.ms = rt.now_ms();
  });
}

cudaError_t CUDARTAPI cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
                                               unsigned int flags) {
  return cudaEventRecord(event, stream);
}

cudaError_t CUDARTAPI cudaEventSynchronize(cudaEvent_t event) {
  return guarded("cudaEventSynchronize", [&](Runtime&) { simtsync::cudart::event_of(event); });
}

cudaError_t CUDARTAPI cudaEventQuery(cudaEvent_t event) {
  return guarded("cudaEventQuery", [&](Runtime&) { simtsync::cudart::event_of(event); });
}

cudaError_t CUDARTAPI cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  return guarded("cudaEventElapsedTime", [&](Runtime&) {
    need(ms != nullptr, "null ms");
    const auto& a = simtsync::cudart::event_of(start);
    const auto& b = simtsync::cudart::event_of(end);
    if (!a.recorded || !b.recorded)
      throw Failure{Err::kInvalidResourceHandle, "event not recorded", false};
    *ms = static_cast<float>(b.ms - a.ms);
  });
}

cudaError_t CUDARTAPI cudaEventDestroy(cudaEvent_t event) {
  return guarded("cudaEventDestroy", [&](Runtime&) {
    simtsync::cudart::event_of(event);
    simtsync::cudart::g_events.erase(event);
    delete reinterpret_cast<simtsync::cudart::Event*>(event);
  });
}

// ---- Kernels: attributes and occupancy ----

cudaError_t CUDARTAPI cudaFuncGetAttributes(struct cudaFuncAttributes* attr, const void* func) {
  return guarded("cudaFuncGetAttributes", [&](Runtime& rt) {
    need(attr != nullptr, "null attr");
    const simtsync::cudart::FuncAttributes a = rt.attributes(func);
    std::memset(attr, 0, sizeof *attr);
    attr->sharedSizeBytes = a.static_shared;
    attr->constSizeBytes = a.const_bytes;
    attr->localSizeBytes = a.local_bytes;
    attr->maxThreadsPerBlock = static_cast<int>(a.max_threads);
    attr->numRegs = static_cast<int>(a.num_regs);
    attr->ptxVersion = 75;
    attr->binaryVersion = 75;
    attr->maxDynamicSharedSizeBytes =
        static_cast<int>(rt.device_info().shared_per_sm - a.static_shared);
  });
}

cudaError_t CUDARTAPI cudaFuncSetCacheConfig(const void* func, enum cudaFuncCache cacheConfig) {
  return guarded("cudaFuncSetCacheConfig", [&](Runtime& rt) { rt.attributes(func); });
}

cudaError_t CUDARTAPI cudaFuncSetAttribute(const void* func, enum cudaFuncAttribute attr,
                                           int value) {
  return guarded("cudaFuncSetAttribute", [&](Runtime& rt) { rt.attributes(func); });
}

cudaError_t CUDARTAPI cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks,
                                                                    const void* func, int blockSize,
                                                                    size_t dynamicSMemSize) {
  return guarded("cudaOccupancyMaxActiveBlocksPerMultiprocessor", [&](Runtime& rt) {
    need(numBlocks != nullptr && blockSize > 0, "bad argument");
    *numBlocks = rt.occupancy(func, static_cast<unsigned>(blockSize), dynamicSMemSize);
  });
}

cudaError_t CUDARTAPI cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int* numBlocks, const void* func, int blockSize, size_t dynamicSMemSize, unsigned int flags) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, func, blockSize, dynamicSMemSize);
}

cudaError_t CUDARTAPI cudaOccupancyAvailableDynamicSMemPerBlock(size_t* dynamicSmemSize,
                                                                const void* func, int numBlocks,
                                                                int blockSize) {
  return guarded("cudaOccupancyAvailableDynamicSMemPerBlock", [&](Runtime& rt) {
    need(dynamicSmemSize != nullptr && numBlocks > 0, "bad argument");
    const auto a = rt.attributes(func);
    const size_t per = rt.device_info().shared_per_sm / static_cast<size_t>(numBlocks);
    *dynamicSmemSize = per > a.static_shared ? per - a.static_shared : 0;
  });
}

struct cudaChannelFormatDesc CUDARTAPI cudaCreateChannelDesc(int x, int y, int z, int w,
                                                             enum cudaChannelFormatKind f) {
  struct cudaChannelFormatDesc d;
  d.x = x;
  d.y = y;
  d.z = z;
  d.w = w;
  d.f = f;
  return d;
}

}  // extern "C"

// --default-stream per-thread: nvcc's code and the headers call the _ptds/_ptsz forms. Work
// never overlaps here, so the per-thread default stream is the default stream and each form is
// its base function.
#define SIMTSYNC_PER_THREAD_FORM(form, base) \
  extern "C" decltype(base) form __attribute__((alias(#base)));
SIMTSYNC_PER_THREAD_FORM(cudaEventRecordWithFlags_ptsz, cudaEventRecordWithFlags)
SIMTSYNC_PER_THREAD_FORM(cudaEventRecord_ptsz, cudaEventRecord)
SIMTSYNC_PER_THREAD_FORM(cudaLaunchKernel_ptsz, cudaLaunchKernel)
SIMTSYNC_PER_THREAD_FORM(cudaMemPrefetchAsync_ptsz, cudaMemPrefetchAsync)
SIMTSYNC_PER_THREAD_FORM(cudaMemcpy2D_ptds, cudaMemcpy2D)
SIMTSYNC_PER_THREAD_FORM(cudaMemcpyAsync_ptsz, cudaMemcpyAsync)
SIMTSYNC_PER_THREAD_FORM(cudaMemcpyFromSymbolAsync_ptsz, cudaMemcpyFromSymbolAsync)
SIMTSYNC_PER_THREAD_FORM(cudaMemcpyFromSymbol_ptds, cudaMemcpyFromSymbol)
SIMTSYNC_PER_THREAD_FORM(cudaMemcpyToSymbolAsync_ptsz, cudaMemcpyToSymbolAsync)
SIMTSYNC_PER_THREAD_FORM(cudaMemcpyToSymbol_ptds, cudaMemcpyToSymbol)
SIMTSYNC_PER_THREAD_FORM(cudaMemcpy_ptds, cudaMemcpy)
SIMTSYNC_PER_THREAD_FORM(cudaMemsetAsync_ptsz, cudaMemsetAsync)
SIMTSYNC_PER_THREAD_FORM(cudaMemset_ptds, cudaMemset)
SIMTSYNC_PER_THREAD_FORM(cudaStreamQuery_ptsz, cudaStreamQuery)
SIMTSYNC_PER_THREAD_FORM(cudaStreamSynchronize_ptsz, cudaStreamSynchronize)
SIMTSYNC_PER_THREAD_FORM(cudaStreamWaitEvent_ptsz, cudaStreamWaitEvent)
#undef SIMTSYNC_PER_THREAD_FORM
