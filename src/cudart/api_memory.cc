// Memory: allocation, copies, memsets, symbols, pointer attributes (see api.cc).
#include <fmt/format.h>

#include <cstring>

#include "cudart/api_internal.h"

using simtsync::cudart::CopyKind;
using simtsync::cudart::Err;
using simtsync::cudart::Failure;
using simtsync::cudart::guarded;
using simtsync::cudart::need;
using simtsync::cudart::need_device;
using simtsync::cudart::Runtime;

extern "C" {

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
    // Rows padded to 256 bytes; a pitch or a size that does not fit in size_t is more than the
    // device has (before, pitch * height wrapped to a small buffer).
    size_t p = 0, bytes = 0;
    if (__builtin_add_overflow(width, size_t{255}, &p) ||
        __builtin_mul_overflow(p / 256 * 256, height, &bytes))
      throw Failure{
          Err::kMemoryAllocation,
          fmt::format("cudaMallocPitch of {} x {} bytes: the size does not fit in 64 bits", width,
                      height),
          false};
    *devPtr = rt.malloc(bytes);
    *pitch = p / 256 * 256;
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
    rt.copy_symbol(symbol, offset, const_cast<void*>(src), count, true);
  });
}

cudaError_t CUDARTAPI cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count,
                                           size_t offset, enum cudaMemcpyKind kind) {
  return guarded("cudaMemcpyFromSymbol",
                 [&](Runtime& rt) { rt.copy_symbol(symbol, offset, dst, count, false); });
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

}  // extern "C"

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
#undef SIMTSYNC_PER_THREAD_FORM
