// mm host driver: C (n x m) = A (n x k) * B (k x m), dimensions multiples of 16, compared with a
// double-precision CPU product (tolerance relative to the sum of |a_ik * b_kj|).
#include "refutil/ref_util.h"

namespace simtsync::workloads {
namespace {

class MatrixMultiply final : public Workload {
 public:
  std::string name() const override { return "mm"; }
  std::string description() const override {
    return "tiled matrix multiply, 16x16 shared-memory tiles (seed 002 Table 2, CUDA SDK)";
  }
  std::string suite() const override { return "barrier-intensive"; }
  std::vector<ParamSpec> params() const override {
    // Seed 002 Table 2: 6 CTAs per SM, 8 warps (16x16 threads) per CTA.
    return {{"n", "rows of A and C (multiple of 16)", 32, 240, 480, 16, 1 << 14},
            {"m", "columns of B and C (multiple of 16)", 32, 240, 480, 16, 1 << 14},
            {"k", "columns of A, rows of B (multiple of 16)", 64, 240, 480, 16, 1 << 14},
            ref::seed_param()};
  }
  Validation run(WorkloadContext& ctx) const override {
    const int n = ref::i32(ctx, "n"), mm = ref::i32(ctx, "m"), k = ref::i32(ctx, "k");
    if (n % 16 || mm % 16 || k % 16) return {false, "n, m and k must be multiples of 16"};
    auto rng = ref::rng_of(ctx);
    auto a = ref::uniform_floats(std::size_t(n) * k, -1.0f, 1.0f, rng);
    auto b = ref::uniform_floats(std::size_t(k) * mm, -1.0f, 1.0f, rng);
    auto& dev = ctx.device();
    Addr da = dev.upload(a, "A"), db = dev.upload(b, "B");
    Addr dc = dev.malloc(std::size_t(n) * mm * 4, "C");
    int mod = ctx.load("mm/mm.ptx");
    if (!ctx.launch(mod, "mm", {std::uint32_t(mm / 16), std::uint32_t(n / 16), 1}, {16, 16, 1},
                    func::KernelArgs().add(da).add(db).add(dc).add(mm).add(k)))
      return {};
    auto got = dev.download<float>(dc, std::size_t(n) * mm);
    std::vector<double> want(got.size()), scale(got.size());
    for (int i = 0; i < n; ++i)
      for (int t = 0; t < k; ++t) {
        const double x = a[std::size_t(i) * k + t];
        for (int j = 0; j < mm; ++j) {
          const double p = x * b[std::size_t(t) * mm + j];
          want[std::size_t(i) * mm + j] += p;
          scale[std::size_t(i) * mm + j] += std::fabs(p);
        }
      }
    return ref::compare_close("C", got, want, 1e-6, 1e-5, &scale);
  }
};

}  // namespace

std::unique_ptr<Workload> make_mm() {
  return std::make_unique<MatrixMultiply>();
}

}  // namespace simtsync::workloads
