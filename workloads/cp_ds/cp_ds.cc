// cp_ds host drivers: the distance solver of a cloth simulation (seed 000 sec. V, CP-DS; seed
// 003 Table I), SIMT-compliant (cp_ds_simt.cu, nested locks of seed 000 Fig. 6a) and as written
// for a CPU (cp_ds_mimd.cu). The cloth is a width x height grid of particles at unit spacing,
// jittered from a seed; structural constraints join horizontal and vertical neighbours. The
// seeds give no cloth size (a T-shirt); ours are below. Validation, independent of the order of
// updates: every particle's update count equals its number of constraints, the corrections of
// all particles sum to exactly zero (each constraint adds +c and -c), and each particle's
// correction matches a CPU reference to within one fixed-point unit per constraint.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>

#include "framework/workload.h"

namespace simtsync::workloads {
namespace {

struct Float4 {
  float x, y, z, w;
};
struct Int2 {
  std::int32_t x, y;
};
struct Int4 {
  std::int32_t x, y, z, w;
};

// The kernel's arithmetic, in the order nvcc emits it (fma for the squared length).
Int4 correction(const Float4& a, const Float4& b, float rest) {
  const float dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
  const float len = std::sqrt(std::fma(dz, dz, std::fma(dx, dx, dy * dy)));
  const float k = (len - rest) * 0.5f / len * 65536.0f;
  return {static_cast<std::int32_t>(std::nearbyint(dx * k)),
          static_cast<std::int32_t>(std::nearbyint(dy * k)),
          static_cast<std::int32_t>(std::nearbyint(dz * k)), 1};
}

class ClothDistance final : public Workload {
 public:
  explicit ClothDistance(bool simt) : simt_(simt) {}

  std::string name() const override { return simt_ ? "cp_ds_simt" : "cp_ds_mimd"; }
  std::string description() const override {
    return simt_ ? "cloth distance solver, two nested particle locks in one loop body (seed 000 "
                   "CP-DS)"
                 : "cloth distance solver, two nested MIMD lock loops: SIMT-deadlocks under the "
                   "IPDOM stack";
  }
  std::string suite() const override { return "synchronization"; }
  std::vector<ParamSpec> params() const override {
    return {{"width", "cloth particles per row", 16, 64, 128, 2, 1 << 14},
            {"height", "cloth rows", 8, 64, 128, 2, 1 << 14},
            {"ctas", "CTAs in the grid (threads loop over the constraints)", 2, 16, 64, 1, 1 << 20},
            {"threads", "threads per CTA", 64, 256, 256, 1, 1024},
            {"seed", "particle jitter seed", 1, 1, 1, 0, INT32_MAX}};
  }
  Validation run(WorkloadContext& ctx) const override {
    const auto w = static_cast<std::int32_t>(ctx.param("width"));
    const auto h = static_cast<std::int32_t>(ctx.param("height"));
    const auto ctas = static_cast<std::uint32_t>(ctx.param("ctas"));
    const auto threads = static_cast<std::uint32_t>(ctx.param("threads"));
    const std::size_t np = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
    const float rest = 1.0f;
    std::mt19937 rng(static_cast<std::uint32_t>(ctx.param("seed")));
    std::uniform_real_distribution<float> jitter(-0.25f, 0.25f);
    std::vector<Float4> pos(np);
    for (std::int32_t y = 0; y < h; ++y)
      for (std::int32_t x = 0; x < w; ++x) {
        Float4& p = pos[static_cast<std::size_t>(y * w + x)];
        p.x = static_cast<float>(x) + jitter(rng);
        p.y = static_cast<float>(y) + jitter(rng);
        p.z = jitter(rng);
        p.w = 0.0f;
      }
    std::vector<Int2> cons;
    for (std::int32_t y = 0; y < h; ++y)
      for (std::int32_t x = 0; x + 1 < w; ++x) cons.push_back({y * w + x, y * w + x + 1});
    for (std::int32_t y = 0; y + 1 < h; ++y)
      for (std::int32_t x = 0; x < w; ++x) cons.push_back({y * w + x, (y + 1) * w + x});
    std::vector<Int4> expect(np, Int4{0, 0, 0, 0});
    for (const Int2& c : cons) {
      const Int4 d =
          correction(pos[static_cast<std::size_t>(c.x)], pos[static_cast<std::size_t>(c.y)], rest);
      Int4& p = expect[static_cast<std::size_t>(c.x)];
      Int4& q = expect[static_cast<std::size_t>(c.y)];
      p = {p.x + d.x, p.y + d.y, p.z + d.z, p.w + 1};
      q = {q.x - d.x, q.y - d.y, q.z - d.z, q.w + 1};
    }

    auto& dev = ctx.device();
    Addr dpos = dev.upload(pos, "particle positions");
    Addr dcons = dev.upload(cons, "constraints");
    Addr corr = dev.upload(std::vector<Int4>(np, Int4{0, 0, 0, 0}), "corrections");
    Addr locks = dev.upload(std::vector<std::int32_t>(np, 0), "particle locks");
    const char* kernel = simt_ ? "cp_ds_simt" : "cp_ds_mimd";
    int m = ctx.load(fmt::format("cp_ds/{}.ptx", kernel));
    if (!ctx.launch(m, kernel, {ctas, 1, 1}, {threads, 1, 1},
                    func::KernelArgs()
                        .add(dpos)
                        .add(dcons)
                        .add(static_cast<int>(cons.size()))
                        .add(rest)
                        .add(corr)
                        .add(locks)))
      return {};

    auto got = dev.download<Int4>(corr, np);
    auto lk = dev.download<std::int32_t>(locks, np);
    std::int64_t sx = 0, sy = 0, sz = 0;
    std::int64_t worst = 0;
    for (std::size_t i = 0; i < np; ++i) {
      if (lk[i] != 0) return {false, fmt::format("lock of particle {} is still held", i)};
      const Int4& g = got[i];
      const Int4& e = expect[i];
      if (g.w != e.w)
        return {false, fmt::format("particle {} was updated {} times, expected {}", i, g.w, e.w)};
      sx += g.x;
      sy += g.y;
      sz += g.z;
      const std::int64_t dev_max =
          std::max({std::llabs(std::int64_t{g.x} - e.x), std::llabs(std::int64_t{g.y} - e.y),
                    std::llabs(std::int64_t{g.z} - e.z)});
      if (dev_max > e.w)
        return {false, fmt::format("particle {} correction ({}, {}, {}) differs from the CPU's "
                                   "({}, {}, {})",
                                   i, g.x, g.y, g.z, e.x, e.y, e.z)};
      worst = std::max(worst, dev_max);
    }
    if (sx != 0 || sy != 0 || sz != 0)
      return {false, fmt::format("corrections sum to ({}, {}, {}), expected zero (a lost update)",
                                 sx, sy, sz)};
    return {true, fmt::format("{} constraints on {} particles, update counts exact, corrections "
                              "sum to zero, largest deviation from the CPU {} unit(s)",
                              cons.size(), np, worst)};
  }

 private:
  bool simt_;
};

}  // namespace

std::unique_ptr<Workload> make_cp_ds_simt() {
  return std::make_unique<ClothDistance>(true);
}
std::unique_ptr<Workload> make_cp_ds_mimd() {
  return std::make_unique<ClothDistance>(false);
}

}  // namespace simtsync::workloads
