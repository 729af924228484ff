// pvr host driver: ranks `pages` pages by a skewed view count (descending, ties by page id);
// every rank must equal the position in a CPU sort.
#include "refutil/ref_util.h"

namespace simtsync::workloads {
namespace {

class PageViewRank final : public Workload {
 public:
  std::string name() const override { return "pvr"; }
  std::string description() const override {
    return "page view rank: bitonic tile sort and tiled rank search in shared memory (seed 002 "
           "Table 2, Mars)";
  }
  std::string suite() const override { return "barrier-intensive"; }
  std::vector<ParamSpec> params() const override {
    // Seed 002 Table 2: 6 CTAs per SM, 8 warps per CTA.
    return {{"pages", "pages to rank", 1024, 16384, 65536, 1, 1 << 22},
            {"threads", "threads per CTA (a power of two; tile = 2 x threads)", 256, 256, 256, 32,
             1024},
            ref::seed_param()};
  }
  Validation run(WorkloadContext& ctx) const override {
    const int pages = ref::i32(ctx, "pages");
    const auto threads = ref::u32(ctx, "threads"), tile = 2 * threads;
    if (threads & (threads - 1)) return {false, "threads must be a power of two"};
    auto rng = ref::rng_of(ctx);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<std::uint32_t> counts(pages);
    for (auto& c : counts) c = std::uint32_t(1000.0 * std::pow(u(rng), 4));  // many ties
    const auto ntiles = ref::ceil_div(pages, tile);
    auto& dev = ctx.device();
    Addr dcounts = dev.upload(counts, "counts");
    Addr sorted = dev.malloc(std::uint64_t(ntiles) * tile * 8, "sorted tiles");
    Addr drank = dev.malloc(std::uint64_t(pages) * 4, "ranks");
    int m = ctx.load("pvr/pvr.ptx");
    if (!ctx.launch(m, "pvr_sort", {ntiles, 1, 1}, {threads, 1, 1},
                    func::KernelArgs().add(dcounts).add(pages).add(sorted), tile * 8))
      return {};
    if (!ctx.launch(m, "pvr_rank", {ntiles, 1, 1}, {threads, 1, 1},
                    func::KernelArgs().add(sorted).add(int(ntiles)).add(drank), tile * 8))
      return {};
    std::vector<int> order(pages), want(pages);
    for (int i = 0; i < pages; ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](int a, int b) { return counts[a] != counts[b] ? counts[a] > counts[b] : a < b; });
    for (int r = 0; r < pages; ++r) want[order[r]] = r;
    return ref::compare_exact("page ranks", dev.download<int>(drank, pages), want);
  }
};

}  // namespace

std::unique_ptr<Workload> make_pvr() {
  return std::make_unique<PageViewRank>();
}

}  // namespace simtsync::workloads
