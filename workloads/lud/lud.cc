// lud host driver: LU-decomposes a diagonally dominant n x n matrix in place (2 launches per
// pivot); L * U (unit lower L) must reproduce the input within a tolerance relative to the
// magnitude of the products summed.
#include "refutil/ref_util.h"

namespace simtsync::workloads {
namespace {

class Lud final : public Workload {
 public:
  std::string name() const override { return "lud"; }
  std::string description() const override {
    return "LU decomposition without pivoting, shrinking row loops (Rodinia lud)";
  }
  std::string suite() const override { return "synchronization-free"; }
  std::vector<ParamSpec> params() const override {
    return {{"n", "matrix order", 24, 256, 512, 2, 1 << 13}, ref::seed_param()};
  }
  Validation run(WorkloadContext& ctx) const override {
    const int n = ref::i32(ctx, "n");
    auto rng = ref::rng_of(ctx);
    auto a = ref::uniform_floats(std::size_t(n) * n, -1.0f, 1.0f, rng);
    for (int i = 0; i < n; ++i) a[std::size_t(i) * n + i] += float(n);
    auto& dev = ctx.device();
    Addr da = dev.upload(a, "matrix");
    int m = ctx.load("lud/lud.ptx");
    for (int k = 0; k < n - 1; ++k) {
      const Dim3 grid{ref::ceil_div(n - k - 1, 64), 1, 1}, block{64, 1, 1};
      if (!ctx.launch(m, "lud_column", grid, block, func::KernelArgs().add(da).add(n).add(k)))
        return {};
      if (!ctx.launch(m, "lud_trailing", grid, block, func::KernelArgs().add(da).add(n).add(k)))
        return {};
    }
    auto lu = dev.download<float>(da, a.size());
    std::vector<double> prod(a.size()), scale(a.size());
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int t = 0; t <= std::min(i, j); ++t) {
          const double l = t == i ? 1.0 : lu[std::size_t(i) * n + t];
          const double p = l * lu[std::size_t(t) * n + j];
          prod[std::size_t(i) * n + j] += p, scale[std::size_t(i) * n + j] += std::fabs(p);
        }
    return ref::compare_close("L*U entries", prod, a, 1e-5, 1e-4, &scale);
  }
};

}  // namespace

std::unique_ptr<Workload> make_lud() {
  return std::make_unique<Lud>();
}

}  // namespace simtsync::workloads
