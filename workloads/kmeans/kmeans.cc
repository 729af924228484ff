// kmeans host driver: `iterations` rounds of k-means on npoints points with nfeatures features
// (Gaussian clusters). The GPU assigns points to the nearest cluster; the host recomputes the
// centroids from that assignment (as Rodinia does). Each round every assignment must be a
// nearest cluster: its distance within a relative 1e-5 of the CPU minimum (order-independent,
// and robust to ties and to fused multiply-adds).
#include "refutil/ref_util.h"

namespace simtsync::workloads {
namespace {

class Kmeans final : public Workload {
 public:
  std::string name() const override { return "kmeans"; }
  std::string description() const override {
    return "k-means assignment, counted loops over clusters and features (seed 000 Fig. 7c, "
           "Rodinia kmeans)";
  }
  std::string suite() const override { return "synchronization-free"; }
  std::vector<ParamSpec> params() const override {
    return {{"points", "data points", 1024, 65536, 494020, 1, 1 << 24},
            {"clusters", "clusters", 5, 5, 5, 1, 1 << 12},
            {"features", "features per point", 8, 34, 34, 1, 1 << 12},
            {"iterations", "assignment rounds", 2, 5, 10, 1, 1 << 12},
            {"threads", "threads per CTA", 256, 256, 256, 32, 1024},
            ref::seed_param()};
  }
  Validation run(WorkloadContext& ctx) const override {
    const int np = ref::i32(ctx, "points"), nc = ref::i32(ctx, "clusters");
    const int nf = ref::i32(ctx, "features"), iters = ref::i32(ctx, "iterations");
    const auto threads = ref::u32(ctx, "threads");
    auto rng = ref::rng_of(ctx);
    auto centers = ref::uniform_floats(std::size_t(nc) * nf, 0.0f, 10.0f, rng);
    std::normal_distribution<float> g(0.0f, 1.5f);
    std::vector<float> feat(std::size_t(np) * nf);  // feature-major
    for (int p = 0; p < np; ++p)
      for (int f = 0; f < nf; ++f)
        feat[std::size_t(f) * np + p] = centers[(p % nc) * nf + f] + g(rng);
    std::vector<float> clusters(std::size_t(nc) * nf);
    for (int c = 0; c < nc; ++c)  // initial centroids: the first nc points
      for (int f = 0; f < nf; ++f) clusters[c * nf + f] = feat[std::size_t(f) * np + c];
    auto& dev = ctx.device();
    Addr dfeat = dev.upload(feat, "features"), dcl = dev.malloc(clusters.size() * 4, "clusters");
    Addr dmem = dev.malloc(std::size_t(np) * 4, "membership");
    int m = ctx.load("kmeans/kmeans.ptx");
    for (int it = 0; it < iters; ++it) {
      dev.copy_to_device(dcl, clusters.data(), clusters.size() * 4);
      if (!ctx.launch(m, "kmeans_assign", {ref::ceil_div(np, threads), 1, 1}, {threads, 1, 1},
                      func::KernelArgs().add(dfeat).add(dcl).add(np).add(nc).add(nf).add(dmem)))
        return {};
      auto mem = dev.download<int>(dmem, np);
      std::vector<double> sum(clusters.size(), 0.0);
      std::vector<int> count(nc, 0);
      for (int p = 0; p < np; ++p) {
        if (mem[p] < 0 || mem[p] >= nc)
          return {false, fmt::format("round {}: point {} has cluster {}", it, p, mem[p])};
        double best = 1e300, mine = 0;
        for (int c = 0; c < nc; ++c) {
          double d = 0;
          for (int f = 0; f < nf; ++f) {
            const double t = double(feat[std::size_t(f) * np + p]) - clusters[c * nf + f];
            d += t * t;
          }
          best = std::min(best, d);
          if (c == mem[p]) mine = d;
        }
        if (mine > best * (1 + 1e-5) + 1e-6)
          return {false, fmt::format("round {}: point {} assigned to cluster {} at distance^2 {}, "
                                     "but the nearest is at {}",
                                     it, p, mem[p], mine, best)};
        ++count[mem[p]];
        for (int f = 0; f < nf; ++f) sum[mem[p] * nf + f] += feat[std::size_t(f) * np + p];
      }
      for (int c = 0; c < nc; ++c)
        if (count[c])
          for (int f = 0; f < nf; ++f) clusters[c * nf + f] = float(sum[c * nf + f] / count[c]);
    }
    return {true, fmt::format("{} rounds: all {} points assigned to a nearest of {} clusters",
                              iters, np, nc)};
  }
};

}  // namespace

std::unique_ptr<Workload> make_kmeans() {
  return std::make_unique<Kmeans>();
}

}  // namespace simtsync::workloads
