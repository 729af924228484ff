// The workload framework's device on the CUDA runtime API: a standalone workload program
// (main.cc) gives its func::Device this backend, so the workload's host code, inputs and
// validation run unchanged while memory and launches go through cudaMalloc, cudaMemcpy and
// cudaLaunchKernel: on a GPU with NVIDIA's runtime, or on the simulator under `simtsync exec`.
#pragma once

#include <map>
#include <string>

#include "func/device.h"

struct CUstream_st;  // cudaStream_t

namespace simtsync::standalone {

class CudaRuntimeDevice : public func::INativeDevice {
 public:
  CudaRuntimeDevice();
  Addr malloc(std::uint64_t bytes) override;
  void free(Addr a) override;
  void copy_to_device(Addr dst, const void* src, std::uint64_t n) override;
  void copy_to_host(void* dst, Addr src, std::uint64_t n) override;
  void memset(Addr dst, std::uint8_t value, std::uint64_t n) override;
  int load_module(const ptx::Module& m) override;  // the kernels are compiled in
  func::LaunchResult launch(int module, const std::string& kernel, Dim3 grid, Dim3 block,
                            const std::vector<std::vector<std::uint8_t>>& args,
                            std::uint32_t dynamic_shared) override;
  const std::string& device_name() const { return name_; }

 private:
  std::map<std::string, const void*> kernels_;
  CUstream_st* stream_ = nullptr;  // launches and their timing events
  std::string name_;
};

}  // namespace simtsync::standalone
