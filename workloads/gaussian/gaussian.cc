// gaussian host driver: solves a diagonally dominant n x n system A x = b: forward elimination
// on the GPU (fan1 + fan2 per pivot), back substitution on the host (as Rodinia does). The
// solution must match a double-precision CPU solve.
#include "refutil/ref_util.h"

namespace simtsync::workloads {
namespace {

class Gaussian final : public Workload {
 public:
  std::string name() const override { return "gaussian"; }
  std::string description() const override {
    return "Gaussian elimination, one thread per matrix element per pivot (Rodinia gaussian)";
  }
  std::string suite() const override { return "synchronization-free"; }
  std::vector<ParamSpec> params() const override {
    return {{"n", "unknowns", 16, 128, 1024, 2, 1 << 13}, ref::seed_param()};
  }
  Validation run(WorkloadContext& ctx) const override {
    const int n = ref::i32(ctx, "n");
    auto rng = ref::rng_of(ctx);
    auto a = ref::uniform_floats(std::size_t(n) * n, -1.0f, 1.0f, rng);
    for (int i = 0; i < n; ++i) a[std::size_t(i) * n + i] += float(n);
    auto b = ref::uniform_floats(n, -10.0f, 10.0f, rng);
    auto& dev = ctx.device();
    Addr da = dev.upload(a, "A"), db = dev.upload(b, "b");
    Addr dm = dev.upload(std::vector<float>(a.size(), 0.0f), "multipliers");
    int m = ctx.load("gaussian/gaussian.ptx");
    for (int t = 0; t < n - 1; ++t) {
      if (!ctx.launch(m, "fan1", {ref::ceil_div(n - t - 1, 64), 1, 1}, {64, 1, 1},
                      func::KernelArgs().add(da).add(dm).add(n).add(t)))
        return {};
      if (!ctx.launch(m, "fan2", {ref::ceil_div(n - t, 16), ref::ceil_div(n - t - 1, 16), 1},
                      {16, 16, 1}, func::KernelArgs().add(da).add(db).add(dm).add(n).add(t)))
        return {};
    }
    auto u = dev.download<float>(da, a.size());
    auto y = dev.download<float>(db, std::size_t(n));
    std::vector<double> x(n);
    for (int i = n - 1; i >= 0; --i) {
      double s = y[i];
      for (int j = i + 1; j < n; ++j) s -= double(u[std::size_t(i) * n + j]) * x[j];
      x[i] = s / u[std::size_t(i) * n + i];
    }
    // CPU: elimination with partial pivoting in double precision.
    std::vector<double> A(a.begin(), a.end()), B(b.begin(), b.end()), want(n);
    for (int t = 0; t < n; ++t) {
      int p = t;
      for (int i = t + 1; i < n; ++i)
        if (std::fabs(A[std::size_t(i) * n + t]) > std::fabs(A[std::size_t(p) * n + t])) p = i;
      for (int j = 0; j < n; ++j) std::swap(A[std::size_t(t) * n + j], A[std::size_t(p) * n + j]);
      std::swap(B[t], B[p]);
      for (int i = t + 1; i < n; ++i) {
        const double f = A[std::size_t(i) * n + t] / A[std::size_t(t) * n + t];
        for (int j = t; j < n; ++j) A[std::size_t(i) * n + j] -= f * A[std::size_t(t) * n + j];
        B[i] -= f * B[t];
      }
    }
    for (int i = n - 1; i >= 0; --i) {
      double s = B[i];
      for (int j = i + 1; j < n; ++j) s -= A[std::size_t(i) * n + j] * want[j];
      want[i] = s / A[std::size_t(i) * n + i];
    }
    return ref::compare_close("solution entries", x, want, 1e-5, 1e-4);
  }
};

}  // namespace

std::unique_ptr<Workload> make_gaussian() {
  return std::make_unique<Gaussian>();
}

}  // namespace simtsync::workloads
