// mb_lockbit host driver: lock-bit contention between CTAs resident on one SM (mb_lockbit.cu).
// Every thread takes and frees the lock bit of its own shared word `iters` times; CTAs on one SM
// share the lock unit, and `footprint` (shared words per CTA) decides whether their words'
// bits coincide: 1024 puts word t of every resident CTA on one bit, `threads` gives each of up
// to 1024 / threads resident CTAs bits of its own. The CTA dispatcher is round-robin, so with
// `ctas` = k x gpu.num_sms every SM holds k CTAs (as many as fit). Validation: every word ends at
// `iters` (the critical sections all ran, none was lost; no deadlock). The message carries the
// failed LDSLK attempts (contention) and the CTAs' span in clock64 ticks.
#include <fmt/format.h>

#include <algorithm>
#include <climits>

#include "common/error.h"
#include "framework/workload.h"

namespace simtsync::workloads {
namespace {

class MbLockbit final : public Workload {
 public:
  std::string name() const override { return "mb_lockbit"; }
  std::string description() const override {
    return "lock-bit contention between CTAs on one SM: footprint 1024 aliases every resident "
           "CTA's words to the same bits, footprint = threads keeps them apart";
  }
  std::string suite() const override { return "microbenchmark"; }
  std::vector<ParamSpec> params() const override {
    // gtx480 (15 SMs, round-robin dispatch): test 30 CTAs = 2 per SM, default 60 = 4 per SM
    // (4 x 256 threads fit the 1536 of an SM); paper as default.
    return {
        {"ctas", "CTAs in the grid (k x gpu.num_sms puts k on every SM)", 30, 60, 60, 1, 1 << 16},
        {"threads", "threads per CTA, each owning one word and its lock bit", 64, 256, 256, 1,
         1024},
        {"iters", "lock / increment / unlock rounds per thread", 8, 32, 32, 1, 1 << 20},
        {"footprint",
         "shared words per CTA (dynamic; 1024: every resident CTA's words share "
         "bits; = threads: disjoint bits for up to 1024 / threads CTAs per SM)",
         1024, 1024, 1024, 1, 12288}};
  }
  Validation run(WorkloadContext& ctx) const override {
    const auto ctas = static_cast<std::uint32_t>(ctx.param("ctas"));
    const auto threads = static_cast<std::uint32_t>(ctx.param("threads"));
    const auto iters = static_cast<std::int32_t>(ctx.param("iters"));
    const auto footprint = static_cast<std::uint32_t>(ctx.param("footprint"));
    if (footprint < threads)
      throw usage_error(
          fmt::format("key 'workload.footprint': {} words, fewer than "
                      "workload.threads = {} (one word per thread)",
                      footprint, threads));
    const std::size_t n = std::size_t{ctas} * threads;
    auto& dev = ctx.device();
    Addr words = dev.upload(std::vector<std::uint32_t>(n, 0xdeadbeefu), "words");
    Addr failures = dev.upload(std::vector<std::uint32_t>(n, 0), "failed attempts");
    Addr start = dev.malloc(std::size_t{ctas} * sizeof(std::int64_t), "start clocks");
    Addr end = dev.malloc(std::size_t{ctas} * sizeof(std::int64_t), "end clocks");
    int m = ctx.load("mb_lockbit/mb_lockbit.ptx");
    if (!ctx.launch(m, "mb_lockbit", {ctas, 1, 1}, {threads, 1, 1},
                    func::KernelArgs().add(iters).add(words).add(failures).add(start).add(end),
                    footprint * 4))
      return {};
    const auto got = dev.download<std::uint32_t>(words, n);
    for (std::size_t i = 0; i < n; ++i)
      if (got[i] != static_cast<std::uint32_t>(iters))
        return {false, fmt::format("CTA {} thread {}: word is {}, expected {} increments",
                                   i / threads, i % threads, got[i], iters)};
    const auto failed = dev.download<std::uint32_t>(failures, n);
    std::uint64_t total_failed = 0;
    for (auto f : failed) total_failed += f;
    const auto t0 = dev.download<std::int64_t>(start, ctas);
    const auto t1 = dev.download<std::int64_t>(end, ctas);
    const std::int64_t span =
        *std::max_element(t1.begin(), t1.end()) - *std::min_element(t0.begin(), t0.end());
    return {true, fmt::format("{} CTAs x {} threads x {} locked increments, every word exact; "
                              "{} failed LDSLK attempts ({:.2f} per acquisition); span {} clock "
                              "ticks; footprint {} words",
                              ctas, threads, iters, total_failed,
                              static_cast<double>(total_failed) / static_cast<double>(n * iters),
                              span, footprint)};
  }
};

}  // namespace

std::unique_ptr<Workload> make_mb_lockbit() {
  return std::make_unique<MbLockbit>();
}

}  // namespace simtsync::workloads
