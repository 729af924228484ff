// ms host driver: sorts n = 2^k unsigned keys: ms_tile sorts tiles of 2*threads keys in shared
// memory, then log2(n / tile) ms_merge launches merge runs pairwise. Validated against
// std::sort (exact).
#include "refutil/ref_util.h"

namespace simtsync::workloads {
namespace {

class MergeSortShared final : public Workload {
 public:
  std::string name() const override { return "ms"; }
  std::string description() const override {
    return "merge sort: rank-based merges in shared memory, then global merges (seed 002 "
           "Table 2, CUDA SDK)";
  }
  std::string suite() const override { return "barrier-intensive"; }
  std::vector<ParamSpec> params() const override {
    // Seed 002 Table 2: 6 CTAs per SM, 8 warps per CTA.
    return {{"log2n", "log2 of the number of keys (>= log2 of the tile)", 11, 17, 20, 6, 26},
            {"threads", "threads per CTA (a power of two; tile = 2 x threads)", 256, 256, 256, 32,
             1024},
            {"maxkey", "keys are drawn from [0, maxkey] (small: many ties)", 1000, 1 << 30, 1 << 30,
             0, INT32_MAX},
            ref::seed_param()};
  }
  Validation run(WorkloadContext& ctx) const override {
    const auto threads = ref::u32(ctx, "threads");
    const std::uint32_t n = 1u << ref::u32(ctx, "log2n"), tile = 2 * threads;
    if ((threads & (threads - 1)) || n < tile)
      return {false, "threads must be a power of two and 2^log2n at least 2 x threads"};
    auto rng = ref::rng_of(ctx);
    std::uniform_int_distribution<std::uint32_t> dist(0, ref::u32(ctx, "maxkey"));
    std::vector<std::uint32_t> keys(n);
    for (auto& k : keys) k = dist(rng);
    auto& dev = ctx.device();
    Addr a = dev.upload(keys, "keys"), b = dev.malloc(n * 4ull, "keys (ping-pong)");
    int m = ctx.load("ms/ms.ptx");
    if (!ctx.launch(m, "ms_tile", {n / tile, 1, 1}, {threads, 1, 1},
                    func::KernelArgs().add(a).add(b), tile * 4))
      return {};
    std::swap(a, b);  // sorted tiles are in a
    for (std::uint32_t width = tile; width < n; width *= 2) {
      if (!ctx.launch(m, "ms_merge", {n / threads, 1, 1}, {threads, 1, 1},
                      func::KernelArgs().add(a).add(b).add(int(n)).add(int(width))))
        return {};
      std::swap(a, b);
    }
    auto got = dev.download<std::uint32_t>(a, n);
    std::sort(keys.begin(), keys.end());
    return ref::compare_exact("sorted keys", got, keys);
  }
};

}  // namespace

std::unique_ptr<Workload> make_ms() {
  return std::make_unique<MergeSortShared>();
}

}  // namespace simtsync::workloads
