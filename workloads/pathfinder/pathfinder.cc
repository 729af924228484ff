// pathfinder host driver: the cheapest top-to-bottom path cost into every bottom cell of a
// rows x cols grid of random weights 0..9; must equal the CPU dynamic program exactly.
#include "refutil/ref_util.h"

namespace simtsync::workloads {
namespace {

class PathFinder final : public Workload {
 public:
  std::string name() const override { return "pathfinder"; }
  std::string description() const override {
    return "grid dynamic programming, a launch per row with grid-strided loops (Rodinia "
           "pathfinder)";
  }
  std::string suite() const override { return "synchronization-free"; }
  std::vector<ParamSpec> params() const override {
    return {{"rows", "grid rows", 8, 100, 100, 2, 1 << 16},
            {"cols", "grid columns", 2048, 100000, 100000, 1, 1 << 24},
            {"ctas", "CTAs per launch (each thread loops over columns)", 2, 60, 60, 1, 1 << 16},
            ref::seed_param()};
  }
  Validation run(WorkloadContext& ctx) const override {
    const int rows = ref::i32(ctx, "rows"), cols = ref::i32(ctx, "cols");
    auto rng = ref::rng_of(ctx);
    auto wall = ref::uniform_ints(std::size_t(rows) * cols, 0, 9, rng);
    auto& dev = ctx.device();
    Addr dw = dev.upload(wall, "wall");
    Addr a = dev.upload(std::vector<int>(wall.begin(), wall.begin() + cols), "row costs");
    Addr b = dev.malloc(std::size_t(cols) * 4, "row costs'");
    int m = ctx.load("pathfinder/pathfinder.ptx");
    for (int r = 1; r < rows; ++r) {
      if (!ctx.launch(
              m, "pf_row", {ref::u32(ctx, "ctas"), 1, 1}, {256, 1, 1},
              func::KernelArgs().add(dw + std::uint64_t(r) * cols * 4).add(a).add(b).add(cols)))
        return {};
      std::swap(a, b);
    }
    std::vector<int> prev(wall.begin(), wall.begin() + cols), cur(cols);
    for (int r = 1; r < rows; ++r) {
      for (int j = 0; j < cols; ++j) {
        int best = prev[j];
        if (j > 0) best = std::min(best, prev[j - 1]);
        if (j < cols - 1) best = std::min(best, prev[j + 1]);
        cur[j] = wall[std::size_t(r) * cols + j] + best;
      }
      std::swap(prev, cur);
    }
    return ref::compare_exact("path costs", dev.download<int>(a, cols), prev);
  }
};

}  // namespace

std::unique_ptr<Workload> make_pathfinder() {
  return std::make_unique<PathFinder>();
}

}  // namespace simtsync::workloads
