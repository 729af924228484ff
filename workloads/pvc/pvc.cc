// pvc host driver: counts the views of each of `pages` pages in a log of n entries drawn from a
// skewed (Zipf-like) distribution; the counts must equal a CPU tally exactly.
#include "refutil/ref_util.h"

namespace simtsync::workloads {
namespace {

class PageViewCount final : public Workload {
 public:
  std::string name() const override { return "pvc"; }
  std::string description() const override {
    return "page view count: bitonic sort of log tiles in shared memory, then run counting "
           "(seed 002 Table 2, Mars)";
  }
  std::string suite() const override { return "barrier-intensive"; }
  std::vector<ParamSpec> params() const override {
    // Seed 002 Table 2: 6 CTAs per SM, 8 warps per CTA.
    return {{"n", "log entries", 2048, 262144, 1 << 22, 1, 1 << 26},
            {"pages", "distinct pages", 64, 4096, 65536, 1, 1 << 24},
            {"threads", "threads per CTA (a power of two; tile = 2 x threads)", 256, 256, 256, 32,
             1024},
            ref::seed_param()};
  }
  Validation run(WorkloadContext& ctx) const override {
    const int n = ref::i32(ctx, "n"), pages = ref::i32(ctx, "pages");
    const auto threads = ref::u32(ctx, "threads");
    if (threads & (threads - 1)) return {false, "threads must be a power of two"};
    auto rng = ref::rng_of(ctx);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<std::uint32_t> log(n), want(pages, 0);
    for (auto& e : log) {
      const double x = u(rng);
      e = std::min<std::uint32_t>(std::uint32_t(pages * x * x * x), pages - 1);
      ++want[e];
    }
    auto& dev = ctx.device();
    Addr dlog = dev.upload(log, "log"), dcounts = dev.upload(std::vector<std::uint32_t>(pages, 0));
    int m = ctx.load("pvc/pvc.ptx");
    if (!ctx.launch(m, "pvc", {ref::ceil_div(n, 2 * threads), 1, 1}, {threads, 1, 1},
                    func::KernelArgs().add(dlog).add(n).add(dcounts), 2 * threads * 4))
      return {};
    return ref::compare_exact("page counts", dev.download<std::uint32_t>(dcounts, pages), want);
  }
};

}  // namespace

std::unique_ptr<Workload> make_pvc() {
  return std::make_unique<PageViewCount>();
}

}  // namespace simtsync::workloads
