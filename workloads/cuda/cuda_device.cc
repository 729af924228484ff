#include "cuda/cuda_device.h"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include "common/error.h"
#include "cuda/kernel_table.h"

namespace simtsync::standalone {
namespace {

void check(cudaError_t e, const char* call) {
  if (e != cudaSuccess)
    throw Error(ExitCode::kKernelFault, fmt::format("{} failed: {} ({})", call,
                                                    cudaGetErrorString(e), cudaGetErrorName(e)));
}

// What nvcc's `kernel<<<grid, block, shared, stream>>>(...)` does: push the launch
// configuration, then (in the kernel's host stub) pop it and call cudaLaunchKernel. The
// standalone program launches from a kernel table instead of `<<<>>>`, so it goes through the
// same three calls: GPGPU-Sim 4.2's runtime takes the configuration from the push and cannot
// launch without it.
extern "C" unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, std::size_t shared,
                                                cudaStream_t stream);
extern "C" cudaError_t __cudaPopCallConfiguration(dim3* grid, dim3* block, std::size_t* shared,
                                                  void* stream);

void* ptr(Addr a) {
  return reinterpret_cast<void*>(a);
}

}  // namespace

CudaRuntimeDevice::CudaRuntimeDevice() {
  for (const KernelEntry* const* t = kKernelTables; *t; ++t)
    for (const KernelEntry* e = *t; e->name; ++e) kernels_.emplace(e->name, e->fn);
  // Room for a newer runtime's larger cudaDeviceProp: this program built with CUDA 11.8's
  // headers (728 bytes) runs on simtsync's runtime, which fills CUDA 13's (1008 bytes) for the
  // GPGPU-Sim correlation (scripts/gpgpusim/build_workloads.sh). Only the name is read, and it
  // leads the struct in every version.
  union {
    cudaDeviceProp p;
    unsigned char bytes[4096];
  } prop{};
  const cudaError_t e = cudaGetDeviceProperties(&prop.p, 0);
  if (e != cudaSuccess)
    throw usage_error(fmt::format("no CUDA device: {} (run it on a GPU or under `simtsync exec`)",
                                  cudaGetErrorString(e)));
  name_ = prop.p.name;
  // Kernels and their timing events go to a stream of their own: GPGPU-Sim 4.2 aborts on an
  // event recorded on the default stream.
  check(cudaStreamCreate(&stream_), "cudaStreamCreate");
}

Addr CudaRuntimeDevice::malloc(std::uint64_t bytes) {
  void* p = nullptr;
  check(cudaMalloc(&p, std::max<std::uint64_t>(bytes, 1)), "cudaMalloc");
  return reinterpret_cast<Addr>(p);
}

void CudaRuntimeDevice::free(Addr a) {
  check(cudaFree(ptr(a)), "cudaFree");
}

void CudaRuntimeDevice::copy_to_device(Addr dst, const void* src, std::uint64_t n) {
  check(cudaMemcpy(ptr(dst), src, n, cudaMemcpyHostToDevice), "cudaMemcpy (to device)");
}

void CudaRuntimeDevice::copy_to_host(void* dst, Addr src, std::uint64_t n) {
  check(cudaMemcpy(dst, ptr(src), n, cudaMemcpyDeviceToHost), "cudaMemcpy (to host)");
}

void CudaRuntimeDevice::memset(Addr dst, std::uint8_t value, std::uint64_t n) {
  check(cudaMemset(ptr(dst), value, n), "cudaMemset");
}

int CudaRuntimeDevice::load_module(const ptx::Module&) {
  return 0;
}

func::LaunchResult CudaRuntimeDevice::launch(int, const std::string& kernel, Dim3 grid, Dim3 block,
                                             const std::vector<std::vector<std::uint8_t>>& args,
                                             std::uint32_t dynamic_shared) {
  auto it = kernels_.find(kernel);
  if (it == kernels_.end())
    throw usage_error(fmt::format("kernel '{}' is not compiled into this program", kernel));
  std::vector<void*> params;
  for (const auto& a : args) params.push_back(const_cast<std::uint8_t*>(a.data()));
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  check(cudaEventRecord(start, stream_), "cudaEventRecord");
  dim3 g(grid.x, grid.y, grid.z), b(block.x, block.y, block.z);
  std::size_t shared = dynamic_shared;
  cudaStream_t stream = stream_;
  cudaError_t e = cudaSuccess;
  if (__cudaPushCallConfiguration(g, b, shared, stream) != 0)
    e = cudaErrorInvalidConfiguration;
  else
    e = __cudaPopCallConfiguration(&g, &b, &shared, &stream);
  if (e == cudaSuccess) e = cudaLaunchKernel(it->second, g, b, params.data(), shared, stream);
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  func::LaunchResult r;
  if (e == cudaErrorLaunchTimeout) {  // the simulator's watchdog (or a GPU's) stopped it
    r.watchdog_reason = "the CUDA runtime stopped the kernel";
    r.watchdog_report =
        fmt::format("kernel {}: {} ({})\n", kernel, cudaGetErrorString(e), cudaGetErrorName(e));
    return r;
  }
  check(e, fmt::format("kernel {}", kernel).c_str());
  check(cudaEventRecord(stop, stream_), "cudaEventRecord");
  check(cudaEventSynchronize(stop), "cudaEventSynchronize");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  r.completed = true;
  r.native_ms = ms;
  return r;
}

}  // namespace simtsync::standalone
