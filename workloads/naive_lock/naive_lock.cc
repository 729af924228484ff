// naive_lock host driver: the MIMD spin lock of seed 003 Fig. 1, every thread incrementing one
// counter under one lock. Correct under MIMD scheduling (counter == threads); under the IPDOM
// stack it is a SIMT-induced deadlock and the watchdog must report it.
#include <fmt/format.h>

#include "framework/workload.h"

namespace simtsync::workloads {
namespace {

class NaiveLock final : public Workload {
 public:
  std::string name() const override { return "naive_lock"; }
  std::string description() const override {
    return "MIMD spin lock of seed 003 Fig. 1: SIMT-deadlocks under the IPDOM stack";
  }
  std::string suite() const override { return "microbenchmark"; }
  std::vector<ParamSpec> params() const override {
    return {{"ctas", "CTAs in the grid", 1, 2, 2, 1, 1 << 16},
            {"threads", "threads per CTA", 64, 64, 256, 1, 1024}};
  }
  Validation run(WorkloadContext& ctx) const override {
    const auto ctas = static_cast<std::uint32_t>(ctx.param("ctas"));
    const auto threads = static_cast<std::uint32_t>(ctx.param("threads"));
    auto& dev = ctx.device();
    Addr mutex = dev.upload(std::vector<std::int32_t>{0}, "mutex");
    Addr counter = dev.upload(std::vector<std::int32_t>{0}, "counter");
    int m = ctx.load("naive_lock/naive_lock.ptx");
    if (!ctx.launch(m, "naive_lock", {ctas, 1, 1}, {threads, 1, 1},
                    func::KernelArgs().add(mutex).add(counter)))
      return {};
    auto c = dev.download<std::int32_t>(counter, 1)[0];
    const auto expect = static_cast<std::int64_t>(ctas) * threads;
    if (c != expect) return {false, fmt::format("counter is {}, expected {}", c, expect)};
    return {true, fmt::format("counter = {}", c)};
  }
};

}  // namespace

std::unique_ptr<Workload> make_naive_lock() { return std::make_unique<NaiveLock>(); }

}  // namespace simtsync::workloads
