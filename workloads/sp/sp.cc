// sp host driver: scalar products of nvec vector pairs of length len, each compared with a
// double-precision CPU dot product (tolerance relative to the sum of |a_i * b_i|).
#include "refutil/ref_util.h"

namespace simtsync::workloads {
namespace {

class ScalarProduct final : public Workload {
 public:
  std::string name() const override { return "sp"; }
  std::string description() const override {
    return "scalar products, shared-memory tree reduction (seed 002 Table 2, CUDA SDK)";
  }
  std::string suite() const override { return "barrier-intensive"; }
  std::vector<ParamSpec> params() const override {
    // Seed 002 Table 2: 3 CTAs per SM, 16 warps per CTA (45 CTAs fill a 15-SM GTX480).
    return {{"ctas", "CTAs in the grid", 4, 45, 45, 1, 1 << 16},
            {"threads", "threads per CTA (a power of two)", 512, 512, 512, 32, 1024},
            {"nvec", "vector pairs", 8, 180, 256, 1, 1 << 20},
            {"len", "elements per vector", 1024, 4096, 4096, 1, 1 << 24},
            ref::seed_param()};
  }
  Validation run(WorkloadContext& ctx) const override {
    const auto ctas = ref::u32(ctx, "ctas"), threads = ref::u32(ctx, "threads");
    const int nvec = ref::i32(ctx, "nvec"), len = ref::i32(ctx, "len");
    if (threads & (threads - 1)) return {false, "threads must be a power of two"};
    auto rng = ref::rng_of(ctx);
    const std::size_t total = std::size_t(nvec) * len;
    auto a = ref::uniform_floats(total, -1.0f, 1.0f, rng);
    auto b = ref::uniform_floats(total, -1.0f, 1.0f, rng);
    auto& dev = ctx.device();
    Addr da = dev.upload(a, "a"), db = dev.upload(b, "b");
    Addr dout = dev.malloc(std::size_t(nvec) * sizeof(float), "products");
    int m = ctx.load("sp/sp.ptx");
    if (!ctx.launch(m, "sp", {ctas, 1, 1}, {threads, 1, 1},
                    func::KernelArgs().add(da).add(db).add(dout).add(nvec).add(len),
                    threads * sizeof(float)))
      return {};
    auto got = dev.download<float>(dout, nvec);
    std::vector<double> want(nvec), scale(nvec);
    for (int v = 0; v < nvec; ++v)
      for (int i = 0; i < len; ++i) {
        const double p = double(a[std::size_t(v) * len + i]) * b[std::size_t(v) * len + i];
        want[v] += p;
        scale[v] += std::fabs(p);
      }
    return ref::compare_close("dot products", got, want, 1e-6, 1e-5, &scale);
  }
};

}  // namespace

std::unique_ptr<Workload> make_sp() {
  return std::make_unique<ScalarProduct>();
}

}  // namespace simtsync::workloads
