// mb_imbalance host driver: a known warp-phase imbalance for the warp-phase statistics (see
// mb_imbalance.cu): warp w of each CTA chases (w + 1) * iters dependent shared-memory loads per
// phase, so RTRU is about (W - 1) / (2 W) for W warps per CTA. Validation recomputes every
// thread's final index on the CPU.
#include <fmt/format.h>

#include "framework/workload.h"

namespace simtsync::workloads {
namespace {

class MbImbalance final : public Workload {
 public:
  std::string name() const override { return "mb_imbalance"; }
  std::string description() const override {
    return "warp w of a CTA chases (w + 1) x iters dependent shared loads before each "
           "barrier: a known warp-phase imbalance, RTRU about (W - 1) / 2W";
  }
  std::string suite() const override { return "microbenchmark"; }
  std::vector<ParamSpec> params() const override {
    return {{"warps", "warps per CTA (W)", 8, 8, 8, 1, 32},
            {"ctas", "CTAs in the grid", 1, 15, 15, 1, 1 << 16},
            {"iters", "dependent shared loads per phase of warp 0", 64, 256, 256, 1, 1 << 20},
            {"phases", "warp-phases per CTA (phases - 1 barriers, then the exit)", 4, 4, 4, 1,
             1 << 16}};
  }
  Validation run(WorkloadContext& ctx) const override {
    const auto warps = static_cast<unsigned>(ctx.param("warps"));
    const auto ctas = static_cast<unsigned>(ctx.param("ctas"));
    const auto iters = static_cast<int>(ctx.param("iters"));
    const auto phases = static_cast<int>(ctx.param("phases"));
    const unsigned threads = warps * 32;
    // The chase: lane l's table sends index k to (5 k + 3) mod 32.
    std::vector<std::uint32_t> next(32);
    for (unsigned k = 0; k < 32; ++k) next[k] = (5 * k + 3) % 32;
    auto& dev = ctx.device();
    Addr dnext = dev.upload(next, "next");
    Addr out = dev.upload(std::vector<std::uint32_t>(std::size_t{ctas} * threads, 0), "out");
    int m = ctx.load("mb_imbalance/mb_imbalance.ptx");
    if (!ctx.launch(m, "mb_imbalance", {ctas, 1, 1}, {threads, 1, 1},
                    func::KernelArgs().add(dnext).add(out).add(iters).add(phases)))
      return {};
    const auto got = dev.download<std::uint32_t>(out, std::size_t{ctas} * threads);
    for (unsigned c = 0; c < ctas; ++c)
      for (unsigned t = 0; t < threads; ++t) {
        std::uint32_t x = t % 32;
        const long n = static_cast<long>(t / 32 + 1) * iters * phases;
        for (long i = 0; i < n; ++i) x = next[x];
        if (got[std::size_t{c} * threads + t] != x)
          return {false, fmt::format("CTA {} thread {} ended at index {}, the CPU chase gives {}",
                                     c, t, got[std::size_t{c} * threads + t], x)};
      }
    return {true, fmt::format("{} CTAs x {} warps, {} phases: every final index matches; "
                              "expected RTRU about (W - 1) / 2W = {:.4f}",
                              ctas, warps, phases, static_cast<double>(warps - 1) / (2.0 * warps))};
  }
};

}  // namespace

std::unique_ptr<Workload> make_mb_imbalance() {
  return std::make_unique<MbImbalance>();
}

}  // namespace simtsync::workloads
