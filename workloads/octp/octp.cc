// octp host driver: partitions n clustered points in the unit cube into an octree, one level
// per launch, until every leaf holds at most `threshold` points or reaches max_depth.
// Validation (independent of the order of nodes and leaves): the leaves' point ranges tile
// [0, n) exactly, every input point appears once, every point lies in its leaf's box (by the
// same comparisons the kernel makes), and every leaf is small enough or at the depth limit.
#include "refutil/ref_util.h"

namespace simtsync::workloads {
namespace {

struct Node {  // layout of `struct Node` in octp.cu
  float cx, cy, cz, half;
  std::int32_t start, count, depth, pad;
};
struct Point {
  float x, y, z, w;  // w = input index
};

class OctreePartition final : public Workload {
 public:
  std::string name() const override { return "octp"; }
  std::string description() const override {
    return "octree partitioning: per-node octant counts, prefix sums and scatter in shared "
           "memory (seed 002 Table 2)";
  }
  std::string suite() const override { return "barrier-intensive"; }
  std::vector<ParamSpec> params() const override {
    // Seed 002 Table 2: 4 CTAs per SM, 8 warps per CTA (the kernel is written for 256 threads).
    return {{"n", "points", 2048, 65536, 1 << 20, 1, 1 << 24},
            {"ctas", "CTAs per level launch (at most one per node)", 8, 60, 60, 1, 1 << 16},
            {"threshold", "split nodes holding more points than this", 64, 64, 64, 1, 1 << 24},
            {"max_depth", "depth limit", 8, 10, 12, 1, 20},
            {"clusters", "Gaussian clusters in the point cloud", 4, 16, 64, 1, 1 << 16},
            ref::seed_param()};
  }
  Validation run(WorkloadContext& ctx) const override {
    const int n = ref::i32(ctx, "n"), threshold = ref::i32(ctx, "threshold");
    const int max_depth = ref::i32(ctx, "max_depth");
    const auto ctas = ref::u32(ctx, "ctas");
    auto rng = ref::rng_of(ctx);
    std::uniform_real_distribution<float> u(0.1f, 0.9f);
    std::vector<Point> centers(ref::u32(ctx, "clusters"));
    for (auto& c : centers) c = {u(rng), u(rng), u(rng), 0};
    std::normal_distribution<float> g(0.0f, 0.05f);
    std::vector<Point> pts(n);
    for (int i = 0; i < n; ++i) {
      const Point& c = centers[std::size_t(i) % centers.size()];
      auto clip = [](float v) { return std::clamp(v, 0.0f, 0.999f); };
      pts[i] = {clip(c.x + g(rng)), clip(c.y + g(rng)), clip(c.z + g(rng)), float(i)};
    }
    const std::size_t cap = 8 * (std::size_t(n) / threshold + 2);
    auto& dev = ctx.device();
    Addr dpts = dev.upload(pts, "points"), scratch = dev.malloc(n * sizeof(Point), "scratch");
    Addr cur = dev.upload(std::vector<Node>{{0.5f, 0.5f, 0.5f, 0.5f, 0, n, 0, 0}}, "level A");
    Addr next = dev.malloc(cap * sizeof(Node), "level B");
    Addr cur_cap = dev.malloc(cap * sizeof(Node), "level A'");
    Addr leaves = dev.malloc((std::size_t(n) + 8) * sizeof(Node), "leaves");
    Addr nnext = dev.malloc(4, "next count"), nleaves = dev.upload(std::vector<int>{0}, "leaves");
    int m = ctx.load("octp/octp.ptx");
    int nnodes = 1, levels = 0;
    while (nnodes > 0) {
      dev.copy_to_device(nnext, std::vector<int>{0}.data(), 4);
      const auto grid = std::min<std::uint32_t>(ctas, std::uint32_t(nnodes));
      if (!ctx.launch(m, "octp_level", {grid, 1, 1}, {256, 1, 1},
                      func::KernelArgs()
                          .add(dpts)
                          .add(scratch)
                          .add(cur)
                          .add(nnodes)
                          .add(next)
                          .add(nnext)
                          .add(leaves)
                          .add(nleaves)
                          .add(threshold)
                          .add(max_depth)))
        return {};
      nnodes = dev.download<int>(nnext, 1)[0];
      if (std::size_t(nnodes) > cap) return {false, "level overflow"};
      if (levels == 0) cur = cur_cap;  // the root buffer holds one node only
      std::swap(cur, next);
      ++levels;
    }
    const int nl = dev.download<int>(nleaves, 1)[0];
    auto leaf = dev.download<Node>(leaves, std::size_t(nl));
    auto out = dev.download<Point>(dpts, std::size_t(n));
    std::vector<char> covered(n, 0), seen(n, 0);
    for (const Node& l : leaf) {
      if (l.start < 0 || l.count < 1 || l.start + l.count > n)
        return {false, fmt::format("leaf range [{}, +{}) is outside the points", l.start, l.count)};
      if (l.count > threshold && l.depth < max_depth)
        return {false, fmt::format("leaf at depth {} holds {} points", l.depth, l.count)};
      for (int i = l.start; i < l.start + l.count; ++i) {
        if (covered[i]) return {false, fmt::format("point slot {} is in two leaves", i)};
        covered[i] = 1;
        const Point& p = out[i];
        const int idx = int(p.w);
        if (idx < 0 || idx >= n || seen[idx] || p.x != pts[idx].x || p.y != pts[idx].y ||
            p.z != pts[idx].z)
          return {false, fmt::format("slot {} holds a lost or duplicated point", i)};
        seen[idx] = 1;
        auto in = [&](float v, float c) { return v >= c - l.half && v < c + l.half; };
        if (!in(p.x, l.cx) || !in(p.y, l.cy) || !in(p.z, l.cz))
          return {false, fmt::format("point {} lies outside its leaf's box", idx)};
      }
    }
    for (int i = 0; i < n; ++i)
      if (!covered[i]) return {false, fmt::format("point slot {} is in no leaf", i)};
    return {true,
            fmt::format("{} points in {} leaves over {} levels, each in its box", n, nl, levels)};
  }
};

}  // namespace

std::unique_ptr<Workload> make_octp() {
  return std::make_unique<OctreePartition>();
}

}  // namespace simtsync::workloads
