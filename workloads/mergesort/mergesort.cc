// mergesort host driver: sorts n unsigned keys (any n) with ms_runs and log2(n / 8) ms_pass
// launches; the result must equal std::sort exactly.
#include "refutil/ref_util.h"

namespace simtsync::workloads {
namespace {

constexpr std::uint32_t kThreads = 256, kChunk = 2048, kRun = 8;  // as in mergesort.cu

class MergeSort final : public Workload {
 public:
  std::string name() const override { return "mergesort"; }
  std::string description() const override {
    return "bottom-up merge sort in global memory, power-of-two induction steps (seed 000 "
           "sec. VI-B, Rodinia mergesort)";
  }
  std::string suite() const override { return "synchronization-free"; }
  std::vector<ParamSpec> params() const override {
    return {{"n", "keys", 2000, 100000, 1000000, 1, 1 << 26},
            {"maxkey", "keys are drawn from [0, maxkey]", 1 << 30, 1 << 30, 1 << 30, 0, INT32_MAX},
            ref::seed_param()};
  }
  Validation run(WorkloadContext& ctx) const override {
    const std::uint32_t n = ref::u32(ctx, "n");
    auto rng = ref::rng_of(ctx);
    std::uniform_int_distribution<std::uint32_t> dist(0, ref::u32(ctx, "maxkey"));
    std::vector<std::uint32_t> keys(n);
    for (auto& k : keys) k = dist(rng);
    auto& dev = ctx.device();
    Addr a = dev.upload(keys, "keys"), b = dev.malloc(n * 4ull, "keys (ping-pong)");
    int m = ctx.load("mergesort/mergesort.ptx");
    if (!ctx.launch(m, "ms_runs", {ref::ceil_div(n, kThreads * kRun), 1, 1}, {kThreads, 1, 1},
                    func::KernelArgs().add(a).add(int(n))))
      return {};
    int passes = 0;
    for (std::uint32_t width = kRun; width < n; width *= 2, ++passes) {
      if (!ctx.launch(m, "ms_pass", {ref::ceil_div(n, kChunk), 1, 1}, {kThreads, 1, 1},
                      func::KernelArgs().add(a).add(b).add(int(n)).add(int(width))))
        return {};
      std::swap(a, b);
    }
    auto got = dev.download<std::uint32_t>(a, n);
    std::sort(keys.begin(), keys.end());
    auto v = ref::compare_exact("sorted keys", got, keys);
    if (v.ok) v.message += fmt::format(" after {} merge passes", passes);
    return v;
  }
};

}  // namespace

std::unique_ptr<Workload> make_mergesort() {
  return std::make_unique<MergeSort>();
}

}  // namespace simtsync::workloads
