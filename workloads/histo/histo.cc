// histo host driver: an 8-bit saturating histogram of n values concentrated around the middle
// bin (a normal distribution, as in Parboil's input); both the raw and the saturated bins must
// equal a CPU tally.
#include "refutil/ref_util.h"

namespace simtsync::workloads {
namespace {

class Histogram final : public Workload {
 public:
  std::string name() const override { return "histo"; }
  std::string description() const override {
    return "saturating histogram, privatized in shared memory with shared atomics (seed 002 "
           "Table 2, Parboil)";
  }
  std::string suite() const override { return "barrier-intensive"; }
  std::vector<ParamSpec> params() const override {
    // Seed 002 Table 2: 3 CTAs per SM, 16 warps per CTA.
    return {{"n", "input values", 8192, 1 << 20, 1 << 22, 1, 1 << 26},
            {"bins", "histogram bins", 256, 1024, 4096, 1, 8192},
            {"ctas", "CTAs in the grid", 4, 45, 45, 1, 1 << 16},
            {"threads", "threads per CTA", 512, 512, 512, 32, 1024},
            ref::seed_param()};
  }
  Validation run(WorkloadContext& ctx) const override {
    const int n = ref::i32(ctx, "n"), nb = ref::i32(ctx, "bins");
    const auto threads = ref::u32(ctx, "threads");
    auto rng = ref::rng_of(ctx);
    std::normal_distribution<double> g(nb / 2.0, nb / 16.0);
    std::vector<std::uint32_t> in(n), want(nb, 0);
    for (auto& v : in) {
      v = std::uint32_t(std::clamp(g(rng), 0.0, nb - 1.0));
      ++want[v];
    }
    auto& dev = ctx.device();
    Addr din = dev.upload(in, "input"), dbins = dev.upload(std::vector<std::uint32_t>(nb, 0));
    Addr d8 = dev.malloc(std::uint64_t(nb), "saturated bins");
    int m = ctx.load("histo/histo.ptx");
    if (!ctx.launch(m, "histo", {ref::u32(ctx, "ctas"), 1, 1}, {threads, 1, 1},
                    func::KernelArgs().add(din).add(n).add(nb).add(dbins), nb * 4))
      return {};
    if (!ctx.launch(m, "histo_final", {ref::ceil_div(nb, threads), 1, 1}, {threads, 1, 1},
                    func::KernelArgs().add(dbins).add(nb).add(d8)))
      return {};
    auto raw = ref::compare_exact("bins", dev.download<std::uint32_t>(dbins, nb), want);
    if (!raw.ok) return raw;
    std::vector<std::uint8_t> sat(nb);
    int saturated = 0;
    for (int b = 0; b < nb; ++b)
      sat[b] = std::uint8_t(std::min(want[b], 255u)), saturated += want[b] > 255;
    auto got8 = dev.download<std::uint8_t>(d8, nb);
    for (int b = 0; b < nb; ++b)
      if (got8[b] != sat[b])
        return {false, fmt::format("saturated bin {} = {}, expected {}", b, got8[b], sat[b])};
    return {true, fmt::format("{} values in {} bins ({} saturated) equal the CPU tally", n, nb,
                              saturated)};
  }
};

}  // namespace

std::unique_ptr<Workload> make_histo() {
  return std::make_unique<Histogram>();
}

}  // namespace simtsync::workloads
