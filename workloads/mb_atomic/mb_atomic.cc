// mb_atomic host driver: same-address atomic throughput. `ctas` x `threads` threads each do
// `iters` atomicAdd(1) on one of `addresses` words (thread t on word t % addresses); thread 0 of
// every CTA records clock64 at its start and end, and the message gives atomics per cycle over
// the span max(end) - min(start). Validation is exact and ignores the clocks: every word counts
// its atomics, and the values returned on a word with k atomics sum to 0 + 1 + ... + (k - 1)
// (each thread stores the sum of its returns).
#include <fmt/format.h>

#include "framework/workload.h"
#include "refutil/cta_span.h"

namespace simtsync::workloads {
namespace {

class MbAtomic final : public Workload {
 public:
  std::string name() const override { return "mb_atomic"; }
  std::string description() const override {
    return "atomicAdd by every thread on one (or a few) global words: atomics per cycle";
  }
  std::string suite() const override { return "microbenchmark"; }
  std::vector<ParamSpec> params() const override {
    return {
        {"ctas", "CTAs in the grid", 2, 15, 60, 1, 1 << 20},
        {"threads", "threads per CTA", 64, 256, 256, 1, 1024},
        {"iters", "atomicAdd per thread", 4, 16, 16, 1, 1 << 20},
        {"addresses", "distinct words (thread t uses word t % addresses)", 1, 1, 1, 1, 1 << 24}};
  }
  Validation run(WorkloadContext& ctx) const override {
    const auto ctas = static_cast<std::uint32_t>(ctx.param("ctas"));
    const auto threads = static_cast<std::uint32_t>(ctx.param("threads"));
    const auto iters = static_cast<std::uint64_t>(ctx.param("iters"));
    const auto addresses = static_cast<std::size_t>(ctx.param("addresses"));
    const std::size_t total_threads = std::size_t{ctas} * threads;

    auto& dev = ctx.device();
    Addr dwords = dev.upload(std::vector<std::uint32_t>(addresses, 0), "atomic words");
    Addr dreturned = dev.upload(std::vector<std::uint64_t>(total_threads, 0), "returned sums");
    Addr dstart = dev.upload(std::vector<std::uint64_t>(ctas, 0), "CTA start clocks");
    Addr dend = dev.upload(std::vector<std::uint64_t>(ctas, 0), "CTA end clocks");
    int m = ctx.load("mb_atomic/mb_atomic.ptx");
    if (!ctx.launch(m, "mb_atomic", {ctas, 1, 1}, {threads, 1, 1},
                    func::KernelArgs()
                        .add(dwords)
                        .add(static_cast<int>(addresses))
                        .add(static_cast<int>(iters))
                        .add(dreturned)
                        .add(dstart)
                        .add(dend)))
      return {};

    // Expected count per word; the returns of a word sum to k(k-1)/2 (mod 2^64: the device
    // sums in 64 bits, the words themselves count mod 2^32).
    std::vector<std::uint64_t> count(addresses, 0), returned(addresses, 0);
    const auto sums = dev.download<std::uint64_t>(dreturned, total_threads);
    for (std::size_t t = 0; t < total_threads; ++t) {
      count[t % addresses] += iters;
      returned[t % addresses] += sums[t];
    }
    const auto words = dev.download<std::uint32_t>(dwords, addresses);
    for (std::size_t w = 0; w < addresses; ++w) {
      const std::uint64_t k = count[w];
      if (words[w] != static_cast<std::uint32_t>(k))
        return {false, fmt::format("word {} is {}, expected {} atomicAdd (a lost update)", w,
                                   words[w], k)};
      if (k < (std::uint64_t{1} << 32) && returned[w] != k * (k - 1) / 2)
        return {false, fmt::format("returns on word {} sum to {}, expected {} (0 + 1 + ... + {}): "
                                   "two atomics saw the same value",
                                   w, returned[w], k * (k - 1) / 2, k - 1)};
    }

    const std::uint64_t span = ref::cta_span(dev.download<std::uint64_t>(dstart, ctas),
                                             dev.download<std::uint64_t>(dend, ctas));
    const std::uint64_t total = total_threads * iters;
    const std::string rate =
        span ? fmt::format("{:.3f}", static_cast<double>(total) / static_cast<double>(span))
             : "n/a";
    return {true, fmt::format("{} atomicAdd on {} word(s) in a span of {} cycles over {} CTAs, "
                              "{} atomics/cycle; every count and return sum exact",
                              total, addresses, span, ctas, rate)};
  }
};

}  // namespace

std::unique_ptr<Workload> make_mb_atomic() {
  return std::make_unique<MbAtomic>();
}

}  // namespace simtsync::workloads
