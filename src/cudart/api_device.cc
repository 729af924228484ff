// Device management and properties, kernel attributes and occupancy (see api.cc).
#include <cstring>

#include "cudart/api_internal.h"

using simtsync::cudart::CopyKind;
using simtsync::cudart::Err;
using simtsync::cudart::Failure;
using simtsync::cudart::guarded;
using simtsync::cudart::need;
using simtsync::cudart::need_device;
using simtsync::cudart::Runtime;

namespace simtsync::cudart {
namespace {

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

}  // namespace
}  // namespace simtsync::cudart

extern "C" {

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
  return guarded("cudaSetDevice", [&](Runtime&) { need_device(device); });
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
    need_device(device);
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
    need_device(device);
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
