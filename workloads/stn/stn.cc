// stn host driver: `iterations` Jacobi sweeps of a width x (ctas * rows) grid in one persistent
// launch with a global barrier between sweeps, compared with the same sweeps on the CPU.
#include "refutil/ref_util.h"

namespace simtsync::workloads {
namespace {

class Stencil final : public Workload {
 public:
  std::string name() const override { return "stn"; }
  std::string description() const override {
    return "iterative 2D Jacobi stencil, shared-memory bands and a global barrier across CTAs "
           "(seed 002 Table 2)";
  }
  std::string suite() const override { return "barrier-intensive"; }
  std::vector<ParamSpec> params() const override {
    // Seed 002 Table 2: 2 CTAs per SM, 16 warps per CTA. The global barrier needs every CTA
    // resident: 30 CTAs = 2 on each of the GTX480's 15 SMs.
    return {{"ctas", "CTAs (all must be co-resident)", 4, 30, 30, 1, 1024},
            {"threads", "threads per CTA", 512, 512, 512, 32, 1024},
            {"width", "grid columns", 512, 512, 1024, 3, 1 << 16},
            {"rows", "grid rows per CTA (shared memory: (rows + 2) x width floats)", 4, 8, 4, 1,
             1 << 12},
            {"iterations", "Jacobi sweeps (global barriers)", 3, 20, 100, 1, 1 << 20},
            ref::seed_param()};
  }
  Validation run(WorkloadContext& ctx) const override {
    const auto ctas = ref::u32(ctx, "ctas"), threads = ref::u32(ctx, "threads");
    const int width = ref::i32(ctx, "width"), rows = ref::i32(ctx, "rows");
    const int iters = ref::i32(ctx, "iterations"), height = int(ctas) * rows;
    const std::uint64_t shared = std::uint64_t(rows + 2) * width * 4;
    if (shared > 48 * 1024) return {false, "(rows + 2) x width floats exceed 48 KiB"};
    auto rng = ref::rng_of(ctx);
    auto grid = ref::uniform_floats(std::size_t(width) * height, 0.0f, 100.0f, rng);
    auto& dev = ctx.device();
    Addr g0 = dev.upload(grid, "grid 0"), g1 = dev.upload(grid, "grid 1");
    Addr arrived = dev.upload(std::vector<std::uint32_t>{0}, "barrier counter");
    int m = ctx.load("stn/stn.ptx");
    if (!ctx.launch(
            m, "stn", {ctas, 1, 1}, {threads, 1, 1},
            func::KernelArgs().add(g0).add(g1).add(arrived).add(width).add(height).add(iters),
            std::uint32_t(shared)))
      return {};
    auto got = dev.download<float>(iters % 2 ? g1 : g0, grid.size());
    std::vector<float> src = grid, dst = grid;
    for (int it = 0; it < iters; ++it) {
      for (int y = 1; y < height - 1; ++y)
        for (int x = 1; x < width - 1; ++x) {
          const float* c = &src[std::size_t(y) * width + x];
          dst[std::size_t(y) * width + x] = 0.2f * (c[0] + c[-width] + c[width] + c[-1] + c[1]);
        }
      std::swap(src, dst);
    }
    auto v = ref::compare_close("cells", got, src, 1e-4, 1e-5);
    if (v.ok) v.message += fmt::format(" after {} sweeps and global barriers", iters);
    return v;
  }
};

}  // namespace

std::unique_ptr<Workload> make_stn() {
  return std::make_unique<Stencil>();
}

}  // namespace simtsync::workloads
