// nn host driver: distances from `records` random (latitude, longitude) records to a target;
// every distance must match the CPU within float tolerance, and the k nearest records chosen
// from the GPU distances must be at the k smallest CPU distances.
#include "refutil/ref_util.h"

namespace simtsync::workloads {
namespace {

class NearestNeighbour final : public Workload {
 public:
  std::string name() const override { return "nn"; }
  std::string description() const override {
    return "nearest neighbour: distances to a target in grid-strided loops (Rodinia nn)";
  }
  std::string suite() const override { return "synchronization-free"; }
  std::vector<ParamSpec> params() const override {
    return {{"records", "(latitude, longitude) records", 4096, 262144, 1 << 20, 1, 1 << 26},
            {"k", "neighbours to report", 5, 10, 10, 1, 1 << 16},
            {"ctas", "CTAs (each thread loops over records)", 4, 60, 60, 1, 1 << 16},
            ref::seed_param()};
  }
  Validation run(WorkloadContext& ctx) const override {
    const int n = ref::i32(ctx, "records"), k = std::min(ref::i32(ctx, "k"), n);
    auto rng = ref::rng_of(ctx);
    auto lat = ref::uniform_floats(n, -90.0f, 90.0f, rng);
    auto lng = ref::uniform_floats(n, -180.0f, 180.0f, rng);
    std::vector<float> rec(2 * std::size_t(n));
    for (int i = 0; i < n; ++i) rec[2 * i] = lat[i], rec[2 * i + 1] = lng[i];
    const float tlat = 30.0f, tlng = 90.0f;
    auto& dev = ctx.device();
    Addr dr = dev.upload(rec, "records"), dd = dev.malloc(std::size_t(n) * 4, "distances");
    int m = ctx.load("nn/nn.ptx");
    if (!ctx.launch(m, "nn_dist", {ref::u32(ctx, "ctas"), 1, 1}, {256, 1, 1},
                    func::KernelArgs().add(dr).add(n).add(tlat).add(tlng).add(dd)))
      return {};
    auto got = dev.download<float>(dd, n);
    std::vector<double> want(n);
    for (int i = 0; i < n; ++i) want[i] = std::hypot(double(lat[i]) - tlat, double(lng[i]) - tlng);
    auto v = ref::compare_close("distances", got, want, 1e-4, 1e-6);
    if (!v.ok) return v;
    std::vector<int> idx(n);
    for (int i = 0; i < n; ++i) idx[i] = i;
    std::partial_sort(idx.begin(), idx.begin() + k, idx.end(),
                      [&](int a, int b) { return got[a] < got[b]; });
    std::vector<double> sorted = want;
    std::nth_element(sorted.begin(), sorted.begin() + (k - 1), sorted.end());
    const double kth = sorted[k - 1];
    for (int j = 0; j < k; ++j)
      if (want[idx[j]] > kth + 1e-4)
        return {false,
                fmt::format("record {} is among the GPU's {} nearest but is not", idx[j], k)};
    v.message += fmt::format("; nearest record {} at {:.4f}", idx[0], got[idx[0]]);
    return v;
  }
};

}  // namespace

std::unique_ptr<Workload> make_nn() {
  return std::make_unique<NearestNeighbour>();
}

}  // namespace simtsync::workloads
