// mb_stream host driver: streaming bandwidth. `ctas` x `threads` threads copy `n` words from
// one array to another in a coalesced grid-stride loop; thread 0 of every CTA records clock64
// at its start and end. The message gives the bytes moved (read plus written), the kernel's
// span max(end) - min(start) and their ratio; validation checks the copy, never the clocks.
#include <fmt/format.h>

#include <random>

#include "framework/workload.h"
#include "refutil/cta_span.h"

namespace simtsync::workloads {
namespace {

class MbStream final : public Workload {
 public:
  std::string name() const override { return "mb_stream"; }
  std::string description() const override {
    return "coalesced grid-stride copy of n words: bytes per cycle of the memory system";
  }
  std::string suite() const override { return "microbenchmark"; }
  std::vector<ParamSpec> params() const override {
    // Default and paper: 4 and 8 CTAs per SM of a 15-SM GTX480; 4 MB and 16 MB per array,
    // well past its 768 KB L2.
    return {{"n", "words (4 bytes) copied", 4096, 1 << 20, 1 << 22, 1, 1 << 28},
            {"ctas", "CTAs in the grid", 4, 60, 120, 1, 1 << 20},
            {"threads", "threads per CTA", 128, 256, 256, 1, 1024},
            {"seed", "input generator seed", 1, 1, 1, 0, INT32_MAX}};
  }
  Validation run(WorkloadContext& ctx) const override {
    const auto n = static_cast<std::size_t>(ctx.param("n"));
    const auto ctas = static_cast<std::uint32_t>(ctx.param("ctas"));
    const auto threads = static_cast<std::uint32_t>(ctx.param("threads"));
    std::mt19937 rng(static_cast<std::uint32_t>(ctx.param("seed")));
    std::vector<std::uint32_t> src(n);
    for (auto& x : src) x = static_cast<std::uint32_t>(rng());

    auto& dev = ctx.device();
    Addr dsrc = dev.upload(src, "source");
    Addr ddst = dev.upload(std::vector<std::uint32_t>(n, 0), "destination");
    Addr dstart = dev.upload(std::vector<std::uint64_t>(ctas, 0), "CTA start clocks");
    Addr dend = dev.upload(std::vector<std::uint64_t>(ctas, 0), "CTA end clocks");
    int m = ctx.load("mb_stream/mb_stream.ptx");
    if (!ctx.launch(
            m, "mb_stream", {ctas, 1, 1}, {threads, 1, 1},
            func::KernelArgs().add(dsrc).add(ddst).add(static_cast<int>(n)).add(dstart).add(dend)))
      return {};
    const auto dst = dev.download<std::uint32_t>(ddst, n);
    for (std::size_t i = 0; i < n; ++i)
      if (dst[i] != src[i])
        return {false, fmt::format("dst[{}] = {:#x} but src[{}] = {:#x}", i, dst[i], i, src[i])};

    const std::uint64_t span = ref::cta_span(dev.download<std::uint64_t>(dstart, ctas),
                                             dev.download<std::uint64_t>(dend, ctas));
    const std::uint64_t bytes = 2 * std::uint64_t{n} * 4;
    const std::string rate =
        span ? fmt::format("{:.2f}", static_cast<double>(bytes) / static_cast<double>(span))
             : "n/a";
    return {true, fmt::format("{} words copied: {} bytes moved (read + written) in a span of {} "
                              "cycles over {} CTAs, {} bytes/cycle",
                              n, bytes, span, ctas, rate)};
  }
};

}  // namespace

std::unique_ptr<Workload> make_mb_stream() {
  return std::make_unique<MbStream>();
}

}  // namespace simtsync::workloads
