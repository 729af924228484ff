// A stand-in for libcuda.so.1 with the driver API entry points the native backend uses
// (src/native/native_device.cc), for testing that backend on machines without a GPU: memory is
// host memory behind fake device addresses, and a launched kernel runs on simtsync's own
// functional model. It records what it was asked (FAKE_CUDA_LOG names a file that gets one line
// per call) so tests can check the calls at the driver boundary. FAKE_CUDA_NO_DEVICE=1 makes
// cuInit fail as on a machine without a GPU.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "func/device.h"
#include "ptx/parser.h"

namespace {

struct Fake {
  simtsync::func::Device dev;
  std::vector<int> modules;  // our handle - 1 -> Device module
  struct Fn {
    int module;
    std::string name;
  };
  std::vector<std::unique_ptr<Fn>> functions;
  double clock_ms = 0;
  std::FILE* log = nullptr;
  Fake() {
    if (const char* p = std::getenv("FAKE_CUDA_LOG")) log = std::fopen(p, "w");
  }
  void note(const std::string& s) {
    if (log) std::fprintf(log, "%s\n", s.c_str()), std::fflush(log);
  }
};

Fake& fake() {
  static Fake* f = new Fake;  // never destroyed: the backend may call in at exit
  return *f;
}

struct Event {
  double ms = 0;
};

}  // namespace

extern "C" {

int cuInit(unsigned) {
  const char* no = std::getenv("FAKE_CUDA_NO_DEVICE");
  if (no && std::strcmp(no, "1") == 0) return 100;  // CUDA_ERROR_NO_DEVICE
  fake().note("cuInit");
  return 0;
}
int cuDeviceGetCount(int* n) {
  return *n = 1, 0;
}
int cuDeviceGet(int* d, int ordinal) {
  return *d = ordinal, 0;
}
int cuDeviceGetName(char* name, int len, int) {
  std::snprintf(name, static_cast<std::size_t>(len), "fake GPU (simtsync functional model)");
  return 0;
}
int cuDevicePrimaryCtxRetain(void** ctx, int) {
  return *ctx = &fake(), 0;
}
int cuDevicePrimaryCtxRelease_v2(int) {
  return 0;
}
int cuCtxSetCurrent(void*) {
  return 0;
}
int cuCtxSynchronize() {
  return 0;
}
int cuMemAlloc_v2(std::uint64_t* p, std::size_t n) {
  *p = fake().dev.malloc(n);
  fake().note("cuMemAlloc " + std::to_string(n));
  return 0;
}
int cuMemFree_v2(std::uint64_t p) {
  return fake().dev.free(p), 0;
}
int cuMemcpyHtoD_v2(std::uint64_t d, const void* s, std::size_t n) {
  return fake().dev.copy_to_device(d, s, n), 0;
}
int cuMemcpyDtoH_v2(void* d, std::uint64_t s, std::size_t n) {
  return fake().dev.copy_to_host(d, s, n), 0;
}
int cuMemsetD8_v2(std::uint64_t d, unsigned char v, std::size_t n) {
  return fake().dev.memset(d, v, n), 0;
}
int cuModuleLoadData(void** m, const void* image) {
  try {
    auto mod = simtsync::ptx::parse_module(static_cast<const char*>(image), "fake-driver.ptx");
    fake().modules.push_back(fake().dev.load_module(std::move(mod)));
  } catch (const std::exception& e) {
    fake().note(std::string("cuModuleLoadData rejected: ") + e.what());
    return 218;  // CUDA_ERROR_INVALID_PTX
  }
  *m = reinterpret_cast<void*>(static_cast<std::uintptr_t>(fake().modules.size()));
  fake().note("cuModuleLoadData");
  return 0;
}
int cuModuleUnload(void*) {
  return 0;
}
int cuModuleGetFunction(void** f, void* m, const char* name) {
  const int module = fake().modules.at(reinterpret_cast<std::uintptr_t>(m) - 1);
  if (!fake().dev.program(module).kernel(name)) return 500;  // CUDA_ERROR_NOT_FOUND
  fake().functions.push_back(std::make_unique<Fake::Fn>(Fake::Fn{module, name}));
  *f = fake().functions.back().get();
  return 0;
}
int cuLaunchKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                   unsigned bz, unsigned shared, void*, void** params, void**) {
  const auto* fn = static_cast<Fake::Fn*>(f);
  const auto* k = fake().dev.program(fn->module).kernel(fn->name);
  simtsync::func::KernelArgs args;
  for (std::size_t i = 0; i < k->param_sizes.size(); ++i)
    args.add_bytes(params[i], k->param_sizes[i]);
  fake().note("cuLaunchKernel " + fn->name + " " + std::to_string(gx) + "x" + std::to_string(bx) +
              " params " + std::to_string(k->param_sizes.size()));
  try {
    auto r = fake().dev.launch(fn->module, fn->name, simtsync::Dim3{gx, gy, gz},
                               simtsync::Dim3{bx, by, bz}, args, shared);
    fake().clock_ms += 0.001 * static_cast<double>(r.stats.warp_instructions + 1);
    return r.completed ? 0 : 702;  // CUDA_ERROR_LAUNCH_TIMEOUT
  } catch (const std::exception& e) {
    fake().note(std::string("kernel fault: ") + e.what());
    return 700;  // CUDA_ERROR_ILLEGAL_ADDRESS
  }
}
int cuEventCreate(void** e, unsigned) {
  return *e = new Event, 0;
}
int cuEventRecord(void* e, void*) {
  return static_cast<Event*>(e)->ms = fake().clock_ms, 0;
}
int cuEventSynchronize(void*) {
  return 0;
}
int cuEventQuery(void*) {
  return 0;
}
int cuEventElapsedTime(float* ms, void* a, void* b) {
  *ms = static_cast<float>(static_cast<Event*>(b)->ms - static_cast<Event*>(a)->ms);
  return 0;
}
int cuEventDestroy_v2(void* e) {
  return delete static_cast<Event*>(e), 0;
}
int cuGetErrorString(int r, const char** s) {
  *s = r == 700 ? "an illegal memory access was encountered (fake)" : "fake driver error";
  return 0;
}

}  // extern "C"
