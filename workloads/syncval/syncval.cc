// syncval host drivers: the synchronization validation kernel of seed 001 sec. 5 (Listing 10:
// A[i+32] = A[i] + f(i) for i < 32*N with N = 16 warps and f(i) = i: a dependent reduction with
// distance 32, one warp per step) in the five schemes of its Table 1: atomic spin locks
// (atom_lock, Listing 11), sync/arrive warp barriers (warp_barr, Listing 12), one spin lock per
// warp (shrd_lock), and the two that use the shared-memory lock bits directly: one lock bit per
// element (tiny_lock, Listing 13) and one per warp with a vote (warp_vote, sec. 4.5). Every CTA runs an independent reduction on its own 32 initial
// values. Validation is exact: out[t] = init[t % 32] + sum of f(k) over k <= t with k = t mod 32.
#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <random>

#include "framework/workload.h"

namespace simtsync::workloads {
namespace {

class SyncValidation final : public Workload {
 public:
  explicit SyncValidation(std::string scheme) : scheme_(std::move(scheme)) {}

  std::string name() const override { return "syncval_" + scheme_; }
  std::string description() const override {
    const char* how = scheme_ == "atom_lock"   ? "atomic spin lock per element"
                      : scheme_ == "warp_barr" ? "bar.sync/bar.arrive warp barriers"
                      : scheme_ == "shrd_lock" ? "one spin lock per warp"
                      : scheme_ == "tiny_lock" ? "one shared-memory lock bit per element"
                                               : "one lock bit per warp, acquired by a vote";
    return fmt::format("seed 001 sec. 5 validation kernel (distance-32 reduction), {}", how);
  }
  std::string suite() const override { return "microbenchmark"; }
  std::vector<ParamSpec> params() const override {
    // Paper: one CTA of 16 warps (seed 001 sec. 5); default runs one CTA per SM of its GTX 570.
    return {{"ctas", "independent CTAs, each one reduction", 1, 15, 1, 1, 1 << 20},
            {"warps", "warps per CTA (steps of the reduction)", 16, 16, 16, 2, 16},
            {"seed", "initial-value generator seed", 1, 1, 1, 0, INT32_MAX}};
  }
  Validation run(WorkloadContext& ctx) const override {
    const auto ctas = static_cast<std::uint32_t>(ctx.param("ctas"));
    const auto threads = static_cast<std::uint32_t>(ctx.param("warps")) * 32;
    std::mt19937 rng(static_cast<std::uint32_t>(ctx.param("seed")));
    std::uniform_int_distribution<std::int32_t> dist(-1000000, 1000000);
    std::vector<std::int32_t> init(std::size_t{ctas} * 32);
    for (auto& v : init) v = dist(rng);

    auto& dev = ctx.device();
    Addr dinit = dev.upload(init, "initial values");
    Addr out = dev.malloc(std::size_t{ctas} * threads * sizeof(std::int32_t), "results");
    // Each thread's %clock64 when the reduction phase starts and ends (seed 001 Fig. 4 plots
    // the phase's length).
    Addr phase = dev.malloc(std::size_t{ctas} * threads * 2 * sizeof(std::int64_t), "phase clocks");
    const std::string kernel = name();
    int m = ctx.load(fmt::format("syncval/{}.ptx", kernel));
    if (!ctx.launch(m, kernel, {ctas, 1, 1}, {threads, 1, 1},
                    func::KernelArgs().add(dinit).add(out).add(phase)))
      return {};

    auto got = dev.download<std::int32_t>(out, std::size_t{ctas} * threads);
    for (std::uint32_t c = 0; c < ctas; ++c) {
      for (std::uint32_t lane = 0; lane < 32; ++lane) {
        std::int64_t acc = init[std::size_t{c} * 32 + lane];
        for (std::uint32_t t = lane; t < threads; t += 32) {
          acc += t;
          const std::int32_t g = got[std::size_t{c} * threads + t];
          if (g != acc)
            return {false, fmt::format("CTA {} element {} is {}, expected {}", c, t + 32, g, acc)};
        }
      }
    }
    // Length of the reduction phase per CTA: first start to last end, in %clock64 ticks (core
    // cycles in the timing mode, executed warp instructions in the functional mode).
    auto clocks = dev.download<std::int64_t>(phase, std::size_t{ctas} * threads * 2);
    // Also the time per dependent step once the code is in the instruction cache: warp 1 ends
    // after the first synchronization (its first pass through the code pays the I-cache misses),
    // the last warp after the last one, so (end of the last - end of warp 1) / (warps - 2).
    const std::uint32_t warps = threads / 32;
    double sum = 0, step_sum = 0;
    std::int64_t longest = 0;
    auto end_of = [&](std::uint32_t c, std::uint32_t w) {
      std::int64_t hi = INT64_MIN;
      for (std::uint32_t t = w * 32; t < w * 32 + 32; ++t)
        hi = std::max(hi, clocks[(std::size_t{c} * threads + t) * 2 + 1]);
      return hi;
    };
    for (std::uint32_t c = 0; c < ctas; ++c) {
      std::int64_t lo = INT64_MAX, hi = INT64_MIN;
      for (std::uint32_t t = 0; t < threads; ++t) {
        lo = std::min(lo, clocks[(std::size_t{c} * threads + t) * 2]);
        hi = std::max(hi, clocks[(std::size_t{c} * threads + t) * 2 + 1]);
      }
      sum += static_cast<double>(hi - lo);
      longest = std::max(longest, hi - lo);
      if (warps > 2)
        step_sum += static_cast<double>(end_of(c, warps - 1) - end_of(c, 1)) / (warps - 2);
    }
    return {true, fmt::format("{} CTA(s) x {} dependent steps, every element exact; reduction "
                              "phase {:.0f} clock ticks per CTA on average, {} at most; {:.1f} "
                              "per step after the first",
                              ctas, warps, sum / ctas, longest, step_sum / ctas)};
  }

 private:
  std::string scheme_;
};

}  // namespace

std::unique_ptr<Workload> make_syncval_atom_lock() {
  return std::make_unique<SyncValidation>("atom_lock");
}
std::unique_ptr<Workload> make_syncval_warp_barr() {
  return std::make_unique<SyncValidation>("warp_barr");
}
std::unique_ptr<Workload> make_syncval_shrd_lock() {
  return std::make_unique<SyncValidation>("shrd_lock");
}
std::unique_ptr<Workload> make_syncval_tiny_lock() {
  return std::make_unique<SyncValidation>("tiny_lock");
}
std::unique_ptr<Workload> make_syncval_warp_vote() {
  return std::make_unique<SyncValidation>("warp_vote");
}

}  // namespace simtsync::workloads
