// streamcluster host driver: greedy facility location over `points` weighted points in `dim`
// dimensions. Point 0 starts as the only facility; each of `candidates` random candidates is
// evaluated on the GPU (per-point savings) and opened on the host when the total saving beats
// the facility cost, reassigning the points that gain. Every launch's savings must match the CPU
// within float tolerance (decisions use the GPU's values, as Rodinia's host does).
#include "refutil/ref_util.h"

namespace simtsync::workloads {
namespace {

class StreamCluster final : public Workload {
 public:
  std::string name() const override { return "streamcluster"; }
  std::string description() const override {
    return "facility-location gain evaluation, a counted loop over dimensions (Rodinia "
           "streamcluster)";
  }
  std::string suite() const override { return "synchronization-free"; }
  std::vector<ParamSpec> params() const override {
    return {{"points", "points", 1024, 16384, 65536, 2, 1 << 24},
            {"dim", "dimensions", 8, 32, 256, 1, 1 << 12},
            {"candidates", "candidate facilities evaluated", 3, 20, 100, 1, 1 << 16},
            ref::seed_param()};
  }
  Validation run(WorkloadContext& ctx) const override {
    const int np = ref::i32(ctx, "points"), dim = ref::i32(ctx, "dim");
    const int nc = ref::i32(ctx, "candidates");
    auto rng = ref::rng_of(ctx);
    auto coord = ref::uniform_floats(std::size_t(np) * dim, 0.0f, 1.0f, rng);  // dim-major
    auto weight = ref::uniform_floats(np, 0.5f, 1.5f, rng);
    auto dist = [&](int p, int x) {
      double d = 0;
      for (int k = 0; k < dim; ++k) {
        const double t = double(coord[std::size_t(k) * np + p]) - coord[std::size_t(k) * np + x];
        d += t * t;
      }
      return d;
    };
    std::vector<float> cost(np);
    for (int p = 0; p < np; ++p) cost[p] = float(dist(p, 0) * weight[p]);
    const double z = 0.05 * np / 16;  // facility opening cost
    auto& dev = ctx.device();
    Addr dc = dev.upload(coord, "coordinates"), dw = dev.upload(weight, "weights");
    Addr dcost = dev.malloc(std::size_t(np) * 4, "costs"), ds = dev.malloc(std::size_t(np) * 4);
    int m = ctx.load("streamcluster/streamcluster.ptx");
    std::uniform_int_distribution<int> pick(0, np - 1);
    int opened = 0;
    double worst = 0;
    for (int c = 0; c < nc; ++c) {
      const int x = pick(rng);
      dev.copy_to_device(dcost, cost.data(), std::size_t(np) * 4);
      if (!ctx.launch(
              m, "sc_gain", {ref::ceil_div(np, 256), 1, 1}, {256, 1, 1},
              func::KernelArgs().add(dc).add(dw).add(dcost).add(np).add(dim).add(x).add(ds)))
        return {};
      auto saving = dev.download<float>(ds, np);
      double total = 0;
      for (int p = 0; p < np; ++p) {
        const double want = cost[p] - dist(p, x) * weight[p];
        const double err = std::fabs(saving[p] - want);
        if (!(err <= 1e-5 + 1e-5 * (std::fabs(cost[p]) + dist(p, x) * weight[p])))
          return {false, fmt::format("candidate {}: saving[{}] = {} but the CPU reference gives {}",
                                     x, p, saving[p], want)};
        worst = std::max(worst, err);
        total += std::max(0.0f, saving[p]);
      }
      if (total > z) {
        ++opened;
        for (int p = 0; p < np; ++p)
          if (saving[p] > 0) cost[p] -= saving[p];
      }
    }
    return {true, fmt::format("{} candidates x {} point savings match the CPU reference (max "
                              "abs error {:.3g}); {} facilities opened",
                              nc, np, worst, opened)};
  }
};

}  // namespace

std::unique_ptr<Workload> make_streamcluster() {
  return std::make_unique<StreamCluster>();
}

}  // namespace simtsync::workloads
