// The CUDA runtime API entry points of libsimtsync_cudart.so, with the exact signatures of the
// toolkit's cuda_runtime_api.h (compiled against it, so a signature that drifts fails to
// build), one file per group: registration, launch and errors here; api_device.cc (device,
// kernel attributes, occupancy), api_memory.cc (memory, symbols), api_streams.cc (streams,
// events). Each takes the runtime lock, calls Runtime and turns a Failure into the CUDA error
// code it carries (api_internal.h). Calls not defined in them fall to the weak definitions of
// stubs.cc: cudaErrorNotSupported and a one-line message.
#include "cudart/api_internal.h"

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

std::recursive_mutex g_lock;
thread_local cudaError_t t_last = cudaSuccess;
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
using simtsync::cudart::need_device;
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

}  // extern "C"

SIMTSYNC_PER_THREAD_FORM(cudaLaunchKernel_ptsz, cudaLaunchKernel)
#undef SIMTSYNC_PER_THREAD_FORM
