#include "native/native_device.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "common/error.h"
#include "ptx/printer.h"

namespace simtsync::native {

// The driver API entry points used, with their C signatures (cuda.h's, written with plain
// types: CUresult is an int, CUdeviceptr a 64-bit integer, handles opaque pointers).
struct DriverApi {
  void* lib = nullptr;
  int (*cuInit)(unsigned) = nullptr;
  int (*cuDeviceGetCount)(int*) = nullptr;
  int (*cuDeviceGet)(int*, int) = nullptr;
  int (*cuDeviceGetName)(char*, int, int) = nullptr;
  int (*cuDevicePrimaryCtxRetain)(void**, int) = nullptr;
  int (*cuDevicePrimaryCtxRelease)(int) = nullptr;
  int (*cuCtxSetCurrent)(void*) = nullptr;
  int (*cuCtxSynchronize)() = nullptr;
  int (*cuMemAlloc)(std::uint64_t*, std::size_t) = nullptr;
  int (*cuMemFree)(std::uint64_t) = nullptr;
  int (*cuMemcpyHtoD)(std::uint64_t, const void*, std::size_t) = nullptr;
  int (*cuMemcpyDtoH)(void*, std::uint64_t, std::size_t) = nullptr;
  int (*cuMemsetD8)(std::uint64_t, unsigned char, std::size_t) = nullptr;
  int (*cuModuleLoadData)(void**, const void*) = nullptr;
  int (*cuModuleUnload)(void*) = nullptr;
  int (*cuModuleGetFunction)(void**, void*, const char*) = nullptr;
  int (*cuLaunchKernel)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                        void*, void**, void**) = nullptr;
  int (*cuEventCreate)(void**, unsigned) = nullptr;
  int (*cuEventRecord)(void*, void*) = nullptr;
  int (*cuEventSynchronize)(void*) = nullptr;
  int (*cuEventQuery)(void*) = nullptr;
  int (*cuEventElapsedTime)(float*, void*, void*) = nullptr;
  int (*cuEventDestroy)(void*) = nullptr;
  int (*cuGetErrorString)(int, const char**) = nullptr;
};

namespace {

template <typename F>
void bind_symbol(DriverApi& api, F& fn, const char* name, const std::string& path) {
  void* p = dlsym(api.lib, name);
  if (!p)
    throw usage_error(fmt::format("--backend native: the CUDA driver {} lacks {}", path, name));
  fn = reinterpret_cast<F>(p);
}

}  // namespace

NativeDevice::NativeDevice(int ordinal) : api_(std::make_unique<DriverApi>()) {
  if (const char* t = std::getenv("SIMTSYNC_NATIVE_TIMEOUT"); t && *t) {
    char* end = nullptr;
    timeout_s_ = std::strtod(t, &end);
    if (*end || !(timeout_s_ > 0))
      throw usage_error(
          fmt::format("SIMTSYNC_NATIVE_TIMEOUT: '{}' is not a positive number of "
                      "seconds",
                      t));
  }
  const char* env = std::getenv("SIMTSYNC_CUDA_DRIVER");
  path_ = env && *env ? env : "libcuda.so.1";
  api_->lib = dlopen(path_.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!api_->lib) {
    const char* why = dlerror();
    throw usage_error(
        fmt::format("--backend native needs an NVIDIA GPU and its driver: cannot load {} ({}); the "
                    "simulator backend needs neither",
                    path_, why ? why : "unknown reason"));
  }
  DriverApi& a = *api_;
  // The _v2 names are the 64-bit entry points cuda.h maps the plain names to.
  bind_symbol(a, a.cuInit, "cuInit", path_);
  bind_symbol(a, a.cuDeviceGetCount, "cuDeviceGetCount", path_);
  bind_symbol(a, a.cuDeviceGet, "cuDeviceGet", path_);
  bind_symbol(a, a.cuDeviceGetName, "cuDeviceGetName", path_);
  bind_symbol(a, a.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", path_);
  bind_symbol(a, a.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", path_);
  bind_symbol(a, a.cuCtxSetCurrent, "cuCtxSetCurrent", path_);
  bind_symbol(a, a.cuCtxSynchronize, "cuCtxSynchronize", path_);
  bind_symbol(a, a.cuMemAlloc, "cuMemAlloc_v2", path_);
  bind_symbol(a, a.cuMemFree, "cuMemFree_v2", path_);
  bind_symbol(a, a.cuMemcpyHtoD, "cuMemcpyHtoD_v2", path_);
  bind_symbol(a, a.cuMemcpyDtoH, "cuMemcpyDtoH_v2", path_);
  bind_symbol(a, a.cuMemsetD8, "cuMemsetD8_v2", path_);
  bind_symbol(a, a.cuModuleLoadData, "cuModuleLoadData", path_);
  bind_symbol(a, a.cuModuleUnload, "cuModuleUnload", path_);
  bind_symbol(a, a.cuModuleGetFunction, "cuModuleGetFunction", path_);
  bind_symbol(a, a.cuLaunchKernel, "cuLaunchKernel", path_);
  bind_symbol(a, a.cuEventCreate, "cuEventCreate", path_);
  bind_symbol(a, a.cuEventRecord, "cuEventRecord", path_);
  bind_symbol(a, a.cuEventSynchronize, "cuEventSynchronize", path_);
  bind_symbol(a, a.cuEventQuery, "cuEventQuery", path_);
  bind_symbol(a, a.cuEventElapsedTime, "cuEventElapsedTime", path_);
  bind_symbol(a, a.cuEventDestroy, "cuEventDestroy_v2", path_);
  bind_symbol(a, a.cuGetErrorString, "cuGetErrorString", path_);
  if (const int r = a.cuInit(0); r != 0)
    throw usage_error(fmt::format(
        "--backend native: cuInit failed ({}): no usable NVIDIA GPU on this machine", r));
  int count = 0;
  check(a.cuDeviceGetCount(&count), "cuDeviceGetCount");
  if (ordinal >= count)
    throw usage_error(
        fmt::format("--backend native: no CUDA device {} ({} found)", ordinal, count));
  check(a.cuDeviceGet(&device_, ordinal), "cuDeviceGet");
  char name[256] = {};
  check(a.cuDeviceGetName(name, sizeof name, device_), "cuDeviceGetName");
  name_ = name;
  check(a.cuDevicePrimaryCtxRetain(&context_, device_), "cuDevicePrimaryCtxRetain");
  check(a.cuCtxSetCurrent(context_), "cuCtxSetCurrent");
}

NativeDevice::~NativeDevice() {
  if (!api_->lib || hung_) return;
  for (void* m : modules_) api_->cuModuleUnload(m);
  if (context_) api_->cuDevicePrimaryCtxRelease(device_);
  // The driver stays loaded: unloading it at exit races with its own atexit handlers.
}

void NativeDevice::check(int result, const char* call) const {
  if (result == 0) return;
  const char* s = nullptr;
  api_->cuGetErrorString(result, &s);
  throw Error(ExitCode::kKernelFault,
              fmt::format("native backend: {} failed: {} ({})", call, s ? s : "unknown", result));
}

Addr NativeDevice::malloc(std::uint64_t bytes) {
  std::uint64_t p = 0;
  check(api_->cuMemAlloc(&p, std::max<std::uint64_t>(bytes, 1)), "cuMemAlloc");
  return p;
}

void NativeDevice::free(Addr a) {
  check(api_->cuMemFree(a), "cuMemFree");
}

void NativeDevice::copy_to_device(Addr dst, const void* src, std::uint64_t n) {
  if (n) check(api_->cuMemcpyHtoD(dst, src, n), "cuMemcpyHtoD");
}

void NativeDevice::copy_to_host(void* dst, Addr src, std::uint64_t n) {
  if (n) check(api_->cuMemcpyDtoH(dst, src, n), "cuMemcpyDtoH");
}

void NativeDevice::memset(Addr dst, std::uint8_t value, std::uint64_t n) {
  if (n) check(api_->cuMemsetD8(dst, value, n), "cuMemsetD8");
}

int NativeDevice::load_module(const ptx::Module& m) {
  // simtsync's own instructions (lock bits, lock instructions: workloads/include/simtsync.cuh)
  // are calls to functions whose GPU body is a trap.
  for (const auto& f : m.functions)
    if (f.name.rfind("simtsync_", 0) == 0)
      throw unsupported_error(fmt::format(
          "native backend: {} calls {}, an instruction only the simulator has (lock bits, lock "
          "instructions); this workload has no native form",
          m.path, f.name));
  const std::string text = ptx::print_module(m);
  void* mod = nullptr;
  const int r = api_->cuModuleLoadData(&mod, text.c_str());
  if (r != 0) {
    const char* s = nullptr;
    api_->cuGetErrorString(r, &s);
    throw unsupported_error(
        fmt::format("native backend: the GPU's driver rejects the PTX of {}: {}", m.path,
                    s ? s : std::to_string(r)));
  }
  modules_.push_back(mod);
  return static_cast<int>(modules_.size()) - 1;
}

func::LaunchResult NativeDevice::launch(int module, const std::string& kernel, Dim3 grid,
                                        Dim3 block,
                                        const std::vector<std::vector<std::uint8_t>>& args,
                                        std::uint32_t dynamic_shared) {
  void* fn = nullptr;
  check(api_->cuModuleGetFunction(&fn, modules_.at(static_cast<size_t>(module)), kernel.c_str()),
        "cuModuleGetFunction");
  std::vector<void*> params;
  for (const auto& a : args) params.push_back(const_cast<std::uint8_t*>(a.data()));
  void* start = nullptr;
  void* stop = nullptr;
  check(api_->cuEventCreate(&start, 0), "cuEventCreate");
  check(api_->cuEventCreate(&stop, 0), "cuEventCreate");
  check(api_->cuEventRecord(start, nullptr), "cuEventRecord");
  check(api_->cuLaunchKernel(fn, grid.x, grid.y, grid.z, block.x, block.y, block.z, dynamic_shared,
                             nullptr, params.data(), nullptr),
        "cuLaunchKernel");
  check(api_->cuEventRecord(stop, nullptr), "cuEventRecord");
  // A kernel that deadlocks never ends on a GPU: wait at most timeout_s_, then report it as the
  // simulator's watchdog would (exit code 3). The kernel cannot be stopped; the process ends.
  const auto t0 = std::chrono::steady_clock::now();
  for (;;) {
    const int q = api_->cuEventQuery(stop);
    if (q == 0) break;
    if (q != 600) check(q, "cuEventQuery (the kernel faulted)");  // 600: not ready
    if (std::chrono::steady_clock::now() - t0 > std::chrono::duration<double>(timeout_s_)) {
      hung_ = true;  // no more driver calls: they would wait for the kernel
      throw Error(ExitCode::kDeadlock,
                  fmt::format("native backend: kernel {} did not finish within {} s on {} "
                              "(SIMTSYNC_NATIVE_TIMEOUT); a deadlock or livelock on the GPU",
                              kernel, timeout_s_, name_));
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  float ms = 0;
  check(api_->cuEventElapsedTime(&ms, start, stop), "cuEventElapsedTime");
  api_->cuEventDestroy(start);
  api_->cuEventDestroy(stop);
  func::LaunchResult r;
  r.completed = true;
  r.native_ms = ms;
  return r;
}

}  // namespace simtsync::native
