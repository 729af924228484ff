// mb_chase host driver: pointer-chase latency (Wong et al. 2010; Mei & Chu 2017). One
// thread walks a ring laid out in a `footprint`-byte array, one element every `stride` bytes,
// each element holding the word index of the next. A warm pass of one full ring comes first
// (warm=1); the kernel times the second pass of `steps` dependent loads with clock64. The cycles
// only feed the message: validation compares the indices after both passes with a CPU walk.
// Step counts are not multiples of the ring lengths, so a kernel that did not walk fails.
#include <fmt/format.h>

#include "common/error.h"
#include "framework/workload.h"

namespace simtsync::workloads {
namespace {

class MbChase final : public Workload {
 public:
  std::string name() const override { return "mb_chase"; }
  std::string description() const override {
    return "pointer chase j = next[j] by one thread: average global load-to-use latency of a "
           "footprint (L1, L2 or DRAM resident; cg=1 bypasses L1)";
  }
  std::string suite() const override { return "microbenchmark"; }
  std::vector<ParamSpec> params() const override {
    // Footprints: test fits any L1 (4 KB), default fits a GTX480's 768 KB L2 but not its
    // 16/48 KB L1, paper (8 MB) fits no cache. Stride 128 = one L1 line per step. Paper skips
    // the warm pass: its 65536-element ring misses every cache anyway, and 70K dependent DRAM
    // loads would outlast the timing watchdog's 5M-cycle no-completion window.
    return {{"footprint", "bytes spanned by the ring", 4096, 256 << 10, 8 << 20, 4, 1 << 30},
            {"stride", "bytes between consecutive ring elements (multiple of 4)", 128, 128, 128, 4,
             1 << 30},
            {"steps", "dependent loads in the timed pass", 100, 2000, 4096, 1, INT32_MAX},
            {"warm", "1: walk the whole ring once before the timed pass; 0: time cold loads", 1, 1,
             0, 0, 1},
            {"cg", "1: load with ld.global.cg (__ldcg, bypasses L1); 0: plain ld.global", 0, 0, 0,
             0, 1}};
  }
  Validation run(WorkloadContext& ctx) const override {
    const auto footprint = static_cast<std::uint64_t>(ctx.param("footprint"));
    const auto stride = static_cast<std::uint64_t>(ctx.param("stride"));
    const int steps = static_cast<int>(ctx.param("steps"));
    const bool cg = ctx.param("cg") != 0;
    const bool warm = ctx.param("warm") != 0;
    if (stride % 4 != 0)
      throw usage_error(fmt::format("key 'workload.stride': {} is not a multiple of 4", stride));
    if (stride > footprint)
      throw usage_error(fmt::format("key 'workload.stride': {} exceeds workload.footprint = {}",
                                    stride, footprint));
    const std::uint64_t ring = footprint / stride;  // elements
    const std::uint64_t step_words = stride / 4;
    std::vector<std::uint32_t> next(footprint / 4, 0);
    for (std::uint64_t k = 0; k < ring; ++k)
      next[k * step_words] = static_cast<std::uint32_t>((k + 1) % ring * step_words);

    auto walk = [&next](std::uint32_t j, std::uint64_t n) {
      for (std::uint64_t i = 0; i < n; ++i) j = next[j];
      return j;
    };
    const std::uint64_t warm_steps = warm ? ring : 0;
    const std::uint32_t want_warm = walk(0, warm_steps);
    const std::uint32_t want_last = walk(want_warm, static_cast<std::uint64_t>(steps));

    auto& dev = ctx.device();
    Addr dnext = dev.upload(next, "ring");
    Addr dout = dev.upload(std::vector<std::uint64_t>(3, ~std::uint64_t{0}), "cycles and indices");
    int m = ctx.load("mb_chase/mb_chase.ptx");
    if (!ctx.launch(m, "mb_chase", {1, 1, 1}, {1, 1, 1},
                    func::KernelArgs()
                        .add(dnext)
                        .add(std::uint32_t{0})
                        .add(static_cast<int>(warm_steps))
                        .add(steps)
                        .add(cg ? 1 : 0)
                        .add(dout)))
      return {};
    const auto out = dev.download<std::uint64_t>(dout, 3);
    if (out[2] != want_warm)
      return {false, fmt::format("index after the warm pass is {}, the CPU walk gives {}", out[2],
                                 want_warm)};
    if (out[1] != want_last)
      return {false, fmt::format("index after the timed pass is {}, the CPU walk gives {}", out[1],
                                 want_last)};
    const double latency = static_cast<double>(out[0]) / steps;
    return {true, fmt::format("avg load-to-use latency {:.1f} cycles over {} dependent loads "
                              "(footprint {} bytes, stride {}{}{}); final index {} matches the CPU "
                              "walk",
                              latency, steps, footprint, stride, cg ? ", ld.global.cg" : "",
                              warm ? "" : ", no warm pass", out[1])};
  }
};

}  // namespace

std::unique_ptr<Workload> make_mb_chase() {
  return std::make_unique<MbChase>();
}

}  // namespace simtsync::workloads
