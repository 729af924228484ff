// A workload as a standalone CUDA program: `PROGRAM WORKLOAD [--size test|default|paper]
// [--set workload.NAME=VALUE]...` runs the built-in workload's own host driver, inputs and
// validation, with its kernels (compiled in by nvcc) launched through the CUDA runtime
// (cuda_device.h). Prints VALIDATED or VALIDATION FAILED; exit codes as `simtsync run`'s
// (0 validated, 1 not, 2 usage, 3 the runtime stopped a kernel, 5 a CUDA error).
// `PROGRAM WORKLOAD --simulator-settings` prints the KEY=VALUE settings the workload expects of
// the simulator (for `simtsync exec --set`).
#include <fmt/format.h>

#include <cstring>

#include "common/error.h"
#include "cuda/cuda_device.h"
#include "framework/workload.h"

using namespace simtsync;

int main(int argc, char** argv) {
  try {
    if (argc < 2)
      throw usage_error(fmt::format(
          "usage: {} WORKLOAD [--size test|default|paper] [--set workload.NAME=VALUE]...",
          argv[0]));
    const workloads::Workload* w = workloads::find_workload(argv[1]);
    if (!w) throw usage_error(fmt::format("unknown workload '{}'", argv[1]));
    // The simulator settings the workload is meant for (lock instructions need the lock_stack
    // unit): `simtsync exec --set` them; a GPU ignores them.
    if (argc == 3 && std::strcmp(argv[2], "--simulator-settings") == 0) {
      for (const auto& [k, v] : w->config_defaults()) fmt::print("{}={}\n", k, v);
      return 0;
    }
    workloads::Size size = workloads::Size::kDefault;
    std::map<std::string, std::string> sets;
    for (int i = 2; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--size" && i + 1 < argc) {
        size = workloads::size_from_name(argv[++i]);
      } else if (a == "--set" && i + 1 < argc) {
        const std::string kv = argv[++i];
        const auto eq = kv.find('=');
        if (kv.rfind("workload.", 0) != 0 || eq == std::string::npos)
          throw usage_error(fmt::format("--set takes workload.NAME=VALUE, got '{}'", kv));
        sets[kv.substr(9, eq - 9)] = kv.substr(eq + 1);
      } else {
        throw usage_error(fmt::format("unexpected argument '{}'", a));
      }
    }
    const auto params = workloads::resolve_params(*w, size, sets);
    standalone::CudaRuntimeDevice gpu;
    func::Device dev;
    dev.set_native(&gpu);
    workloads::WorkloadContext ctx(dev, params);
    fmt::print("{} --size {} on {}\n", w->name(), workloads::size_name(size), gpu.device_name());
    const workloads::Validation v = w->run(ctx);
    for (const auto& n : ctx.notes()) fmt::print("note: {}\n", n);
    if (ctx.deadlocked()) {
      fmt::print("{}", ctx.watchdog_report());
      return static_cast<int>(ExitCode::kDeadlock);
    }
    fmt::print("{}: {}\nkernel time {:.4f} ms\n", v.ok ? "VALIDATED" : "VALIDATION FAILED",
               v.message, dev.native_ms());
    return v.ok ? 0 : 1;
  } catch (const Error& e) {
    fmt::print(stderr, "{}: error: {}\n", argv[0], e.what());
    return static_cast<int>(e.code());
  }
}
