// The native backend (`simtsync run W --backend native`): the workload's host code, inputs and
// validation unchanged, its kernels run on a real NVIDIA GPU through the CUDA driver API. The
// driver library is loaded at run time (dlopen of libcuda.so.1, or SIMTSYNC_CUDA_DRIVER), so
// neither the build nor a run on the simulator needs a GPU or the driver. Modules are the
// same PTX the simulator runs (printed from the loaded IR, after any module hook such as SSDE);
// each launch is timed with driver events.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "func/device.h"

namespace simtsync::native {

struct DriverApi;

class NativeDevice : public func::INativeDevice {
 public:
  // Loads the driver and makes device `ordinal`'s primary context current. Throws
  // simtsync::Error(kUsage) with a clear message when there is no driver or no device.
  explicit NativeDevice(int ordinal = 0);
  ~NativeDevice() override;

  const std::string& device_name() const { return name_; }
  const std::string& driver_path() const { return path_; }

  Addr malloc(std::uint64_t bytes) override;
  void free(Addr a) override;
  void copy_to_device(Addr dst, const void* src, std::uint64_t n) override;
  void copy_to_host(void* dst, Addr src, std::uint64_t n) override;
  void memset(Addr dst, std::uint8_t value, std::uint64_t n) override;
  int load_module(const ptx::Module& m) override;
  func::LaunchResult launch(int module, const std::string& kernel, Dim3 grid, Dim3 block,
                            const std::vector<std::vector<std::uint8_t>>& args,
                            std::uint32_t dynamic_shared) override;

 private:
  void check(int result, const char* call) const;

  std::unique_ptr<DriverApi> api_;
  std::string path_, name_;
  int device_ = 0;
  void* context_ = nullptr;
  double timeout_s_ = 60;  // SIMTSYNC_NATIVE_TIMEOUT
  bool hung_ = false;      // a kernel outlived the timeout
  std::vector<void*> modules_;
};

}  // namespace simtsync::native
