// Device management and properties, kernel attributes and occupancy (see api.cc).
#include <algorithm>
#include <cstdio>
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

// Every attribute of CUDA 13's cudaDeviceAttr, answered from the configuration or, where the
// simulator has nothing to configure, a fixed value that docs/cuda-runtime.md lists with its
// reason. cudaGetDeviceProperties fills its fields from this function, so the two never
// disagree. The compute capability is 7.5, the target the PTX is compiled for, whatever GPU
// the configuration models. Textures and surfaces are not supported (their calls fail with
// cudaErrorNotSupported), so their limits read 0.
constexpr int kSharedPerBlock = 48 * 1024;  // without opting in, on every generation since 2.0

int device_attribute(const DeviceInfo& d, cudaDeviceAttr a) {
  switch (a) {
    case cudaDevAttrMaxThreadsPerBlock:
      return static_cast<int>(std::min(1024u, d.max_threads_per_sm));
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
      return std::min(kSharedPerBlock, static_cast<int>(d.shared_per_sm));
    case cudaDevAttrMaxSharedMemoryPerBlockOptin:
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
      return static_cast<int>(d.shared_per_sm);
    case cudaDevAttrReservedSharedMemoryPerBlock:
      return 0;
    case cudaDevAttrTotalConstantMemory:
      return 65536;
    case cudaDevAttrWarpSize:
      return static_cast<int>(d.warp_size);
    case cudaDevAttrMaxPitch:
      return 2147483647;
    case cudaDevAttrMaxRegistersPerBlock:
      return static_cast<int>(std::min(65536u, d.registers_per_sm));
    case cudaDevAttrMaxRegistersPerMultiprocessor:
      return static_cast<int>(d.registers_per_sm);
    case cudaDevAttrClockRate:
      return static_cast<int>(d.core_clock_mhz * 1000);
    case cudaDevAttrMemoryClockRate:
      return static_cast<int>(d.memory_clock_khz);
    case cudaDevAttrGlobalMemoryBusWidth:
      return static_cast<int>(d.bus_width_bits);
    case cudaDevAttrTextureAlignment:
      return 512;
    case cudaDevAttrTexturePitchAlignment:
      return 32;
    case cudaDevAttrSurfaceAlignment:
      return 512;
    case cudaDevAttrMultiProcessorCount:
      return static_cast<int>(d.num_sms);
    case cudaDevAttrMaxThreadsPerMultiProcessor:
      return static_cast<int>(d.max_threads_per_sm);
    case cudaDevAttrMaxBlocksPerMultiprocessor:
      return static_cast<int>(d.max_ctas_per_sm);
    case cudaDevAttrL2CacheSize:
      return static_cast<int>(d.l2_bytes);
    case cudaDevAttrMaxPersistingL2CacheSize:
    case cudaDevAttrMaxAccessPolicyWindowSize:
      return 0;  // no persisting-L2 carve-out is modelled
    case cudaDevAttrComputeCapabilityMajor:
      return 7;
    case cudaDevAttrComputeCapabilityMinor:
      return 5;
    case cudaDevAttrComputeMode:
      return cudaComputeModeDefault;
    case cudaDevAttrGlobalL1CacheSupported:
    case cudaDevAttrLocalL1CacheSupported:
      return d.l1_caches_global ? 1 : 0;
    // Copies run in stream order and complete before the next operation of their stream, which
    // is one legal schedule of two copy engines overlapping kernels: programs that check for
    // overlap take their overlapping path and get the same results.
    case cudaDevAttrGpuOverlap:
      return 1;
    case cudaDevAttrAsyncEngineCount:
      return 2;
    case cudaDevAttrConcurrentKernels:
    case cudaDevAttrUnifiedAddressing:
    case cudaDevAttrManagedMemory:
    case cudaDevAttrCanMapHostMemory:
    case cudaDevAttrConcurrentManagedAccess:
    case cudaDevAttrDirectManagedMemAccessFromHost:
    case cudaDevAttrHostRegisterSupported:
    case cudaDevAttrCanUseHostPointerForRegisteredMem:
    case cudaDevAttrStreamPrioritiesSupported:
    case cudaDevAttrComputePreemptionSupported:
    case cudaDevAttrHostNativeAtomicSupported:
      return 1;
    case cudaDevAttrMemSyncDomainCount:
      return 1;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio:
      return 2;  // the DP unit is not modelled separately; Volta's 2:1 (documented)
    // A discrete board in PCI slot 0000:00:00.0, without ECC, timeout, TCC, NUMA, MPS, IPC,
    // peer access, RDMA, memory pools, clusters, cooperative launch or sparse arrays.
    case cudaDevAttrKernelExecTimeout:
    case cudaDevAttrIntegrated:
    case cudaDevAttrEccEnabled:
    case cudaDevAttrPciBusId:
    case cudaDevAttrPciDeviceId:
    case cudaDevAttrPciDomainId:
    case cudaDevAttrTccDriver:
    case cudaDevAttrIsMultiGpuBoard:
    case cudaDevAttrMultiGpuBoardGroupID:
    case cudaDevAttrPageableMemoryAccess:
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables:
    case cudaDevAttrCooperativeLaunch:
    case cudaDevAttrCanFlushRemoteWrites:
    case cudaDevAttrSparseCudaArraySupported:
    case cudaDevAttrHostRegisterReadOnlySupported:
    case cudaDevAttrTimelineSemaphoreInteropSupported:
    case cudaDevAttrMemoryPoolsSupported:
    case cudaDevAttrGPUDirectRDMASupported:
    case cudaDevAttrGPUDirectRDMAFlushWritesOptions:
    case cudaDevAttrGPUDirectRDMAWritesOrdering:
    case cudaDevAttrMemoryPoolSupportedHandleTypes:
    case cudaDevAttrClusterLaunch:
    case cudaDevAttrDeferredMappingCudaArraySupported:
    case cudaDevAttrIpcEventSupport:
    case cudaDevAttrNumaConfig:
    case cudaDevAttrMpsEnabled:
    case cudaDevAttrD3D12CigSupported:
    case cudaDevAttrVulkanCigSupported:
    case cudaDevAttrGpuPciDeviceId:
    case cudaDevAttrGpuPciSubsystemId:
    case cudaDevAttrHostNumaMemoryPoolsSupported:
    case cudaDevAttrHostNumaMultinodeIpcSupported:
    case cudaDevAttrHostMemoryPoolsSupported:
    case cudaDevAttrOnlyPartialHostNativeAtomicSupported:
      return 0;
    case cudaDevAttrNumaId:
    case cudaDevAttrHostNumaId:
      return -1;
    case cudaDevAttrMaxTexture1DWidth:
    case cudaDevAttrMaxTexture2DWidth:
    case cudaDevAttrMaxTexture2DHeight:
    case cudaDevAttrMaxTexture3DWidth:
    case cudaDevAttrMaxTexture3DHeight:
    case cudaDevAttrMaxTexture3DDepth:
    case cudaDevAttrMaxTexture2DLayeredWidth:
    case cudaDevAttrMaxTexture2DLayeredHeight:
    case cudaDevAttrMaxTexture2DLayeredLayers:
    case cudaDevAttrMaxTexture1DLayeredWidth:
    case cudaDevAttrMaxTexture1DLayeredLayers:
    case cudaDevAttrMaxTexture2DGatherWidth:
    case cudaDevAttrMaxTexture2DGatherHeight:
    case cudaDevAttrMaxTexture3DWidthAlt:
    case cudaDevAttrMaxTexture3DHeightAlt:
    case cudaDevAttrMaxTexture3DDepthAlt:
    case cudaDevAttrMaxTextureCubemapWidth:
    case cudaDevAttrMaxTextureCubemapLayeredWidth:
    case cudaDevAttrMaxTextureCubemapLayeredLayers:
    case cudaDevAttrMaxSurface1DWidth:
    case cudaDevAttrMaxSurface2DWidth:
    case cudaDevAttrMaxSurface2DHeight:
    case cudaDevAttrMaxSurface3DWidth:
    case cudaDevAttrMaxSurface3DHeight:
    case cudaDevAttrMaxSurface3DDepth:
    case cudaDevAttrMaxSurface1DLayeredWidth:
    case cudaDevAttrMaxSurface1DLayeredLayers:
    case cudaDevAttrMaxSurface2DLayeredWidth:
    case cudaDevAttrMaxSurface2DLayeredHeight:
    case cudaDevAttrMaxSurface2DLayeredLayers:
    case cudaDevAttrMaxSurfaceCubemapWidth:
    case cudaDevAttrMaxSurfaceCubemapLayeredWidth:
    case cudaDevAttrMaxSurfaceCubemapLayeredLayers:
    case cudaDevAttrMaxTexture1DLinearWidth:
    case cudaDevAttrMaxTexture2DLinearWidth:
    case cudaDevAttrMaxTexture2DLinearHeight:
    case cudaDevAttrMaxTexture2DLinearPitch:
    case cudaDevAttrMaxTexture2DMipmappedWidth:
    case cudaDevAttrMaxTexture2DMipmappedHeight:
    case cudaDevAttrMaxTexture1DMipmappedWidth:
      return 0;
    default:  // the Reserved* values and numbers CUDA 13 does not define, as the real runtime
      throw Failure{Err::kInvalidValue,
                    "cudaDeviceGetAttribute: " + std::to_string(static_cast<int>(a)) +
                        " is not a device attribute of CUDA 13",
                    false};
  }
}

void fill_properties(const DeviceInfo& d, cudaDeviceProp& p, std::size_t global_bytes) {
  auto at = [&](cudaDeviceAttr a) { return device_attribute(d, a); };
  std::memset(&p, 0, sizeof p);
  std::snprintf(p.name, sizeof p.name, "%s", d.name.c_str());
  p.totalGlobalMem = global_bytes;
  p.sharedMemPerBlock = static_cast<std::size_t>(at(cudaDevAttrMaxSharedMemoryPerBlock));
  p.sharedMemPerBlockOptin = static_cast<std::size_t>(at(cudaDevAttrMaxSharedMemoryPerBlockOptin));
  p.sharedMemPerMultiprocessor =
      static_cast<std::size_t>(at(cudaDevAttrMaxSharedMemoryPerMultiprocessor));
  p.reservedSharedMemPerBlock =
      static_cast<std::size_t>(at(cudaDevAttrReservedSharedMemoryPerBlock));
  p.regsPerBlock = at(cudaDevAttrMaxRegistersPerBlock);
  p.regsPerMultiprocessor = at(cudaDevAttrMaxRegistersPerMultiprocessor);
  p.warpSize = at(cudaDevAttrWarpSize);
  p.memPitch = static_cast<std::size_t>(at(cudaDevAttrMaxPitch));
  p.maxThreadsPerBlock = at(cudaDevAttrMaxThreadsPerBlock);
  p.maxThreadsDim[0] = at(cudaDevAttrMaxBlockDimX);
  p.maxThreadsDim[1] = at(cudaDevAttrMaxBlockDimY);
  p.maxThreadsDim[2] = at(cudaDevAttrMaxBlockDimZ);
  p.maxGridSize[0] = at(cudaDevAttrMaxGridDimX);
  p.maxGridSize[1] = at(cudaDevAttrMaxGridDimY);
  p.maxGridSize[2] = at(cudaDevAttrMaxGridDimZ);
  p.totalConstMem = static_cast<std::size_t>(at(cudaDevAttrTotalConstantMemory));
  p.major = at(cudaDevAttrComputeCapabilityMajor);
  p.minor = at(cudaDevAttrComputeCapabilityMinor);
  p.textureAlignment = static_cast<std::size_t>(at(cudaDevAttrTextureAlignment));
  p.texturePitchAlignment = static_cast<std::size_t>(at(cudaDevAttrTexturePitchAlignment));
  p.surfaceAlignment = static_cast<std::size_t>(at(cudaDevAttrSurfaceAlignment));
  p.multiProcessorCount = at(cudaDevAttrMultiProcessorCount);
  p.integrated = at(cudaDevAttrIntegrated);
  p.canMapHostMemory = at(cudaDevAttrCanMapHostMemory);
  p.concurrentKernels = at(cudaDevAttrConcurrentKernels);
  p.ECCEnabled = at(cudaDevAttrEccEnabled);
  p.pciBusID = at(cudaDevAttrPciBusId);
  p.pciDeviceID = at(cudaDevAttrPciDeviceId);
  p.pciDomainID = at(cudaDevAttrPciDomainId);
  p.tccDriver = at(cudaDevAttrTccDriver);
  p.asyncEngineCount = at(cudaDevAttrAsyncEngineCount);
  p.unifiedAddressing = at(cudaDevAttrUnifiedAddressing);
  p.memoryBusWidth = at(cudaDevAttrGlobalMemoryBusWidth);
  p.l2CacheSize = at(cudaDevAttrL2CacheSize);
  p.persistingL2CacheMaxSize = at(cudaDevAttrMaxPersistingL2CacheSize);
  p.accessPolicyMaxWindowSize = at(cudaDevAttrMaxAccessPolicyWindowSize);
  p.maxThreadsPerMultiProcessor = at(cudaDevAttrMaxThreadsPerMultiProcessor);
  p.maxBlocksPerMultiProcessor = at(cudaDevAttrMaxBlocksPerMultiprocessor);
  p.streamPrioritiesSupported = at(cudaDevAttrStreamPrioritiesSupported);
  p.globalL1CacheSupported = at(cudaDevAttrGlobalL1CacheSupported);
  p.localL1CacheSupported = at(cudaDevAttrLocalL1CacheSupported);
  p.managedMemory = at(cudaDevAttrManagedMemory);
  p.isMultiGpuBoard = at(cudaDevAttrIsMultiGpuBoard);
  p.multiGpuBoardGroupID = at(cudaDevAttrMultiGpuBoardGroupID);
  p.hostNativeAtomicSupported = at(cudaDevAttrHostNativeAtomicSupported);
  p.pageableMemoryAccess = at(cudaDevAttrPageableMemoryAccess);
  p.concurrentManagedAccess = at(cudaDevAttrConcurrentManagedAccess);
  p.computePreemptionSupported = at(cudaDevAttrComputePreemptionSupported);
  p.canUseHostPointerForRegisteredMem = at(cudaDevAttrCanUseHostPointerForRegisteredMem);
  p.cooperativeLaunch = at(cudaDevAttrCooperativeLaunch);
  p.pageableMemoryAccessUsesHostPageTables = at(cudaDevAttrPageableMemoryAccessUsesHostPageTables);
  p.directManagedMemAccessFromHost = at(cudaDevAttrDirectManagedMemAccessFromHost);
  p.hostRegisterSupported = at(cudaDevAttrHostRegisterSupported);
  p.sparseCudaArraySupported = at(cudaDevAttrSparseCudaArraySupported);
  p.hostRegisterReadOnlySupported = at(cudaDevAttrHostRegisterReadOnlySupported);
  p.timelineSemaphoreInteropSupported = at(cudaDevAttrTimelineSemaphoreInteropSupported);
  p.memoryPoolsSupported = at(cudaDevAttrMemoryPoolsSupported);
  p.gpuDirectRDMASupported = at(cudaDevAttrGPUDirectRDMASupported);
  p.gpuDirectRDMAFlushWritesOptions =
      static_cast<unsigned>(at(cudaDevAttrGPUDirectRDMAFlushWritesOptions));
  p.gpuDirectRDMAWritesOrdering = at(cudaDevAttrGPUDirectRDMAWritesOrdering);
  p.memoryPoolSupportedHandleTypes =
      static_cast<unsigned>(at(cudaDevAttrMemoryPoolSupportedHandleTypes));
  p.deferredMappingCudaArraySupported = at(cudaDevAttrDeferredMappingCudaArraySupported);
  p.ipcEventSupported = at(cudaDevAttrIpcEventSupport);
  p.clusterLaunch = at(cudaDevAttrClusterLaunch);
  p.unifiedFunctionPointers = 1;  // indirect calls (`call` through a register) are executed
  p.deviceNumaConfig = at(cudaDevAttrNumaConfig);
  p.deviceNumaId = at(cudaDevAttrNumaId);
  p.mpsEnabled = at(cudaDevAttrMpsEnabled);
  p.hostNumaId = at(cudaDevAttrHostNumaId);
  p.gpuPciDeviceID = static_cast<unsigned>(at(cudaDevAttrGpuPciDeviceId));
  p.gpuPciSubsystemID = static_cast<unsigned>(at(cudaDevAttrGpuPciSubsystemId));
  p.hostNumaMultinodeIpcSupported = at(cudaDevAttrHostNumaMultinodeIpcSupported);
  // The texture and surface limits (maxTexture*, maxSurface*) stay 0 (see above); the UUID and
  // LUID stay zero: there is one device.
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
    simtsync::cudart::fill_properties(rt.device_info(), *prop, Runtime::kDeviceBytes);
  });
}

// One device: every request chooses it (the real runtime picks the closest match).
cudaError_t CUDARTAPI cudaChooseDevice(int* device, const struct cudaDeviceProp* prop) {
  return guarded("cudaChooseDevice", [&](Runtime&) {
    need(device != nullptr && prop != nullptr, "null device or prop");
    *device = 0;
  });
}

cudaError_t CUDARTAPI cudaSetValidDevices(int* devices, int len) {
  return guarded("cudaSetValidDevices", [&](Runtime&) {
    need(len >= 0 && (len == 0 || devices != nullptr), "null device list");
    for (int i = 0; i < len; ++i) need_device(devices[i]);
  });
}

cudaError_t CUDARTAPI cudaDeviceGetPCIBusId(char* pciBusId, int len, int device) {
  return guarded("cudaDeviceGetPCIBusId", [&](Runtime&) {
    need(pciBusId != nullptr && len > 0, "null or empty buffer");
    need_device(device);
    std::snprintf(pciBusId, static_cast<std::size_t>(len), "0000:00:00.0");
  });
}

cudaError_t CUDARTAPI cudaDeviceGetByPCIBusId(int* device, const char* pciBusId) {
  return guarded("cudaDeviceGetByPCIBusId", [&](Runtime&) {
    need(device != nullptr && pciBusId != nullptr, "null device or bus id");
    unsigned domain = 0, bus = 0, dev = 0, fn = 0;
    const bool full = std::sscanf(pciBusId, "%x:%x:%x.%x", &domain, &bus, &dev, &fn) == 4;
    const bool shortf = !full && std::sscanf(pciBusId, "%x:%x.%x", &bus, &dev, &fn) == 3;
    if (!(full || shortf) || domain != 0 || bus != 0 || dev != 0 || fn != 0)
      throw Failure{Err::kInvalidDevice,
                    std::string("no device at PCI bus id '") + pciBusId +
                        "' (the simulated GPU is 0000:00:00.0)",
                    false};
    *device = 0;
  });
}

// Peer access needs a second device; the one device is not its own peer (as on real GPUs).
cudaError_t CUDARTAPI cudaDeviceCanAccessPeer(int* canAccessPeer, int device, int peerDevice) {
  return guarded("cudaDeviceCanAccessPeer", [&](Runtime&) {
    need(canAccessPeer != nullptr, "null result");
    need_device(device);
    need_device(peerDevice);
    *canAccessPeer = 0;
  });
}

cudaError_t CUDARTAPI cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig* config) {
  return guarded("cudaDeviceGetSharedMemConfig", [&](Runtime&) {
    need(config != nullptr, "null config");
    *config = cudaSharedMemBankSizeFourByte;
  });
}

cudaError_t CUDARTAPI cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config) {
  return guarded("cudaDeviceSetSharedMemConfig", [](Runtime&) {});  // accepted; no effect (docs)
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
