// fwt host driver: Walsh-Hadamard transform of n = 2^k small integers (held in floats, so every
// sum is exact), compared exactly with a CPU butterfly transform.
#include "refutil/ref_util.h"

namespace simtsync::workloads {
namespace {

class FastWalsh final : public Workload {
 public:
  std::string name() const override { return "fwt"; }
  std::string description() const override {
    return "fast Walsh-Hadamard transform, butterflies in shared memory (seed 002 Table 2, "
           "CUDA SDK)";
  }
  std::string suite() const override { return "barrier-intensive"; }
  std::vector<ParamSpec> params() const override {
    // Seed 002 Table 2: 3 CTAs per SM, 16 warps per CTA.
    return {{"log2n", "log2 of the transform length (>= log2 of the tile)", 11, 17, 22, 6, 22},
            {"threads", "threads per CTA (a power of two; tile = 2 x threads)", 512, 512, 512, 32,
             1024},
            ref::seed_param()};
  }
  Validation run(WorkloadContext& ctx) const override {
    const auto threads = ref::u32(ctx, "threads");
    const std::uint32_t n = 1u << ref::u32(ctx, "log2n"), tile = 2 * threads;
    if ((threads & (threads - 1)) || n < tile)
      return {false, "threads must be a power of two and 2^log2n at least 2 x threads"};
    auto rng = ref::rng_of(ctx);
    auto ints = ref::uniform_ints(n, -4, 4, rng);
    std::vector<float> data(ints.begin(), ints.end());
    auto& dev = ctx.device();
    Addr d = dev.upload(data, "data");
    int m = ctx.load("fwt/fwt.ptx");
    for (std::uint32_t stride = n / 2; stride >= tile; stride /= 2)
      if (!ctx.launch(m, "fwt_global", {n / 2 / threads, 1, 1}, {threads, 1, 1},
                      func::KernelArgs().add(d).add(int(stride))))
        return {};
    if (!ctx.launch(m, "fwt_tile", {n / tile, 1, 1}, {threads, 1, 1}, func::KernelArgs().add(d),
                    tile * 4))
      return {};
    auto got = dev.download<float>(d, n);
    std::vector<float> want = data;
    for (std::uint32_t s = 1; s < n; s *= 2)
      for (std::uint32_t i = 0; i < n; i += 2 * s)
        for (std::uint32_t j = i; j < i + s; ++j) {
          const float x = want[j], y = want[j + s];
          want[j] = x + y, want[j + s] = x - y;
        }
    return ref::compare_exact("coefficients", got, want);
  }
};

}  // namespace

std::unique_ptr<Workload> make_fwt() {
  return std::make_unique<FastWalsh>();
}

}  // namespace simtsync::workloads
