// tl host drivers: the test-lock microbenchmark of seed 003 (Table I and sec. V-B, TL-FG and
// TL-CG), in a SIMT-compliant form (tl_simt.cu) and as written for a CPU (tl_mimd.cu).
// Thread t takes the locks targets[t * per_thread + i] one after the other and increments the
// counter of each lock inside its critical section. Validation, independent of the order of
// acquisitions: every counter equals the number of times its lock is named in targets[], and
// every lock is free at the end.
#include <fmt/format.h>

#include <random>

#include "framework/workload.h"

namespace simtsync::workloads {
namespace {

class TestLock final : public Workload {
 public:
  TestLock(bool simt, bool coarse) : simt_(simt), coarse_(coarse) {}

  std::string name() const override {
    return fmt::format("tl_{}_{}", coarse_ ? "cg" : "fg", simt_ ? "simt" : "mimd");
  }
  std::string description() const override {
    return fmt::format("test lock, {} (seed 003 TL-{}), {}",
                       coarse_ ? "one lock for all threads" : "many locks", coarse_ ? "CG" : "FG",
                       simt_ ? "SIMT-compliant" : "MIMD lock loop: SIMT-deadlocks under IPDOM");
  }
  std::string suite() const override { return "synchronization"; }
  std::vector<ParamSpec> params() const override {
    // Paper: 3K threads (seed 003 sec. V-B: "3K threads are competing for one lock" in TL-CG);
    // the seed gives no iteration or lock counts, so those are ours.
    if (coarse_)
      return {{"ctas", "CTAs in the grid", 1, 4, 12, 1, 1 << 20},
              {"threads", "threads per CTA", 64, 256, 256, 1, 1024},
              {"per_thread", "lock acquisitions per thread", 2, 2, 4, 1, 1 << 16},
              {"locks", "number of locks (1 = coarse-grained)", 1, 1, 1, 1, 1 << 24},
              {"seed", "lock-choice generator seed", 1, 1, 1, 0, INT32_MAX}};
    return {{"ctas", "CTAs in the grid", 2, 60, 12, 1, 1 << 20},
            {"threads", "threads per CTA", 64, 256, 256, 1, 1024},
            {"per_thread", "lock acquisitions per thread", 4, 4, 16, 1, 1 << 16},
            {"locks", "number of locks (fewer = more contention)", 64, 4096, 3072, 1, 1 << 24},
            {"seed", "lock-choice generator seed", 1, 1, 1, 0, INT32_MAX}};
  }
  Validation run(WorkloadContext& ctx) const override {
    const auto ctas = static_cast<std::uint32_t>(ctx.param("ctas"));
    const auto threads = static_cast<std::uint32_t>(ctx.param("threads"));
    const auto per = static_cast<std::uint32_t>(ctx.param("per_thread"));
    const auto nlocks = static_cast<std::uint32_t>(ctx.param("locks"));
    const std::size_t total = std::size_t{ctas} * threads * per;
    std::mt19937 rng(static_cast<std::uint32_t>(ctx.param("seed")));
    std::uniform_int_distribution<std::int32_t> pick(0, static_cast<std::int32_t>(nlocks) - 1);
    std::vector<std::int32_t> targets(total);
    std::vector<std::int64_t> expect(nlocks, 0);
    for (auto& t : targets) ++expect[static_cast<std::size_t>(t = pick(rng))];

    auto& dev = ctx.device();
    Addr locks = dev.upload(std::vector<std::int32_t>(nlocks, 0), "locks");
    Addr counts = dev.upload(std::vector<std::int32_t>(nlocks, 0), "counters");
    Addr dtargets = dev.upload(targets, "lock choices");
    const char* kernel = simt_ ? "tl_simt" : "tl_mimd";
    int m = ctx.load(fmt::format("tl/{}.ptx", kernel));
    if (!ctx.launch(
            m, kernel, {ctas, 1, 1}, {threads, 1, 1},
            func::KernelArgs().add(locks).add(counts).add(dtargets).add(static_cast<int>(per))))
      return {};

    auto c = dev.download<std::int32_t>(counts, nlocks);
    auto l = dev.download<std::int32_t>(locks, nlocks);
    for (std::uint32_t i = 0; i < nlocks; ++i) {
      if (l[i] != 0) return {false, fmt::format("lock {} is still held", i)};
      if (c[i] != expect[i])
        return {false, fmt::format("counter of lock {} is {}, expected {} (a lost update)", i, c[i],
                                   expect[i])};
    }
    return {true, fmt::format("{} acquisitions of {} lock(s), every counter exact", total, nlocks)};
  }

 private:
  bool simt_;
  bool coarse_;
};

}  // namespace

std::unique_ptr<Workload> make_tl_fg_simt() {
  return std::make_unique<TestLock>(true, false);
}
std::unique_ptr<Workload> make_tl_fg_mimd() {
  return std::make_unique<TestLock>(false, false);
}
std::unique_ptr<Workload> make_tl_cg_simt() {
  return std::make_unique<TestLock>(true, true);
}
std::unique_ptr<Workload> make_tl_cg_mimd() {
  return std::make_unique<TestLock>(false, true);
}

}  // namespace simtsync::workloads
