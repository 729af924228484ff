// lockinst_limits host driver: the limits of the lock instructions that seed 004 sec. 4.5 names,
// Example 12 (a branch outside the critical section reconverging inside it: both arms lock, the
// unlock follows the join) and Example 13 (a nested lock inside a divergent branch: a thread
// waits for a lock that a warp-mate off the top of the stack holds). Under the lock_stack
// reconvergence unit both must deadlock and be reported (exit 3); under MIMD scheduling
// (`--set func.warp_size=1`) they finish and validate: every critical section ran.
#include <fmt/format.h>

#include "framework/workload.h"

namespace simtsync::workloads {
namespace {

class LockInstLimit final : public Workload {
 public:
  explicit LockInstLimit(int example) : example_(example) {}
  std::string name() const override { return fmt::format("lockinst_ex{}", example_); }
  std::string description() const override {
    return example_ == 12 ? "seed 004 Example 12: lock in both arms of an if, unlock after the "
                            "join; deadlocks under lock_stack"
                          : "seed 004 Example 13: nested lock inside a divergent branch; "
                            "deadlocks under lock_stack";
  }
  std::string suite() const override { return "microbenchmark"; }
  std::vector<std::pair<std::string, std::string>> config_defaults() const override {
    return {{"sm.reconvergence.impl", "lock_stack"}};
  }
  std::vector<ParamSpec> params() const override {
    return {{"ctas", "CTAs in the grid", 1, 2, 2, 1, 1 << 16},
            {"threads", "threads per CTA (Example 13: even)", 32, 64, 64, 2, 1024}};
  }
  Validation run(WorkloadContext& ctx) const override {
    const auto ctas = static_cast<std::uint32_t>(ctx.param("ctas"));
    const auto threads = static_cast<std::uint32_t>(ctx.param("threads"));
    const std::size_t total = std::size_t{ctas} * threads;
    auto& dev = ctx.device();
    const int m = ctx.load("lockinst_limits/lockinst_limits.ptx");
    if (example_ == 12) {
      // One lock for the whole grid; counter[0]: every thread, counter[1]: odd threads.
      Addr lock = dev.upload(std::vector<std::int32_t>{-1}, "lock");
      Addr counter = dev.upload(std::vector<std::int32_t>{0, 0}, "counters");
      if (!ctx.launch(
              m, "lockinst_ex12", {ctas, 1, 1}, {threads, 1, 1},
              func::KernelArgs().add(lock).add(lock).add(counter).add(static_cast<int>(total))))
        return {};
      const auto c = dev.download<std::int32_t>(counter, 2);
      const auto all = static_cast<std::int64_t>(total);
      const auto odd = static_cast<std::int64_t>(ctas) * (threads / 2);
      if (c[0] != all || c[1] != odd)
        return {false,
                fmt::format("counters are {} and {}, expected {} and {}", c[0], c[1], all, odd)};
      if (dev.download<std::int32_t>(lock, 1)[0] != -1) return {false, "the lock is still held"};
      return {true, fmt::format("{} critical sections", all)};
    }
    if (threads % 2 != 0) return {false, "Example 13 needs an even number of threads per CTA"};
    Addr locks = dev.upload(std::vector<std::int32_t>(total, -1), "per-thread locks");
    Addr counter = dev.upload(std::vector<std::int32_t>(total, 0), "per-thread counters");
    if (!ctx.launch(m, "lockinst_ex13", {ctas, 1, 1}, {threads, 1, 1},
                    func::KernelArgs().add(locks).add(counter)))
      return {};
    const auto c = dev.download<std::int32_t>(counter, total);
    const auto l = dev.download<std::int32_t>(locks, total);
    for (std::size_t t = 0; t < total; ++t) {
      if (c[t] != (t % 2 == 0 ? 2 : 1))
        return {false, fmt::format("thread {} ran {} critical sections, expected {}", t, c[t],
                                   t % 2 == 0 ? 2 : 1)};
      if (l[t] != -1) return {false, fmt::format("lock {} is still held by {}", t, l[t])};
    }
    return {true, fmt::format("{} threads, every critical section ran", total)};
  }

 private:
  int example_;
};

}  // namespace

std::unique_ptr<Workload> make_lockinst_ex12() {
  return std::make_unique<LockInstLimit>(12);
}
std::unique_ptr<Workload> make_lockinst_ex13() {
  return std::make_unique<LockInstLimit>(13);
}

}  // namespace simtsync::workloads
