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

void* ptr(Addr a) {
  return reinterpret_cast<void*>(a);
}

}  // namespace

CudaRuntimeDevice::CudaRuntimeDevice() {
  for (const KernelEntry* const* t = kKernelTables; *t; ++t)
    for (const KernelEntry* e = *t; e->name; ++e) kernels_.emplace(e->name, e->fn);
  cudaDeviceProp p{};
  const cudaError_t e = cudaGetDeviceProperties(&p, 0);
  if (e != cudaSuccess)
    throw usage_error(fmt::format("no CUDA device: {} (run it on a GPU or under `simtsync exec`)",
                                  cudaGetErrorString(e)));
  name_ = p.name;
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
  check(cudaEventRecord(start, nullptr), "cudaEventRecord");
  cudaError_t e =
      cudaLaunchKernel(it->second, dim3(grid.x, grid.y, grid.z), dim3(block.x, block.y, block.z),
                       params.data(), dynamic_shared, nullptr);
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  func::LaunchResult r;
  if (e == cudaErrorLaunchTimeout) {  // the simulator's watchdog (or a GPU's) stopped it
    r.watchdog_reason = "the CUDA runtime stopped the kernel";
    r.watchdog_report =
        fmt::format("kernel {}: {} ({})\n", kernel, cudaGetErrorString(e), cudaGetErrorName(e));
    return r;
  }
  check(e, fmt::format("kernel {}", kernel).c_str());
  check(cudaEventRecord(stop, nullptr), "cudaEventRecord");
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
