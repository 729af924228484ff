// mg host driver: grids `samples` complex k-space samples (denser towards the centre, as on a
// spiral trajectory) onto a size x size Cartesian grid. The host bins samples by 32x16 output
// tile (a sample joins every tile whose box widened by the radius contains it); the CPU
// reference sums every sample within the radius of every grid point by brute force.
#include "refutil/ref_util.h"

namespace simtsync::workloads {
namespace {

constexpr int kTw = 32, kTh = 16;
struct Sample {
  float x, y, re, im;
};

float window(float d2, float r2) {  // mirrors mg.cu
  const float t = 1.0f - d2 / r2;
  return t * t * (1.0f + 2.0f * t);
}

class MriGridding final : public Workload {
 public:
  std::string name() const override { return "mg"; }
  std::string description() const override {
    return "MRI Cartesian gridding: binned samples staged in shared memory, windowed "
           "accumulation per grid point (seed 002 Table 2, Parboil)";
  }
  std::string suite() const override { return "barrier-intensive"; }
  std::vector<ParamSpec> params() const override {
    // Seed 002 Table 2: 3 CTAs per SM, 16 warps (32x16 threads) per CTA.
    return {{"size", "grid points per side (multiple of 32)", 32, 128, 256, 32, 4096},
            {"samples", "non-uniform samples", 200, 12000, 65536, 1, 1 << 24},
            {"radius10", "window radius in tenths of a grid cell", 25, 25, 30, 1, 200},
            ref::seed_param()};
  }
  Validation run(WorkloadContext& ctx) const override {
    const int g = ref::i32(ctx, "size"), ns = ref::i32(ctx, "samples");
    if (g % kTw) return {false, "size must be a multiple of 32"};
    const float radius = float(ref::i32(ctx, "radius10")) / 10.0f, r2 = radius * radius;
    auto rng = ref::rng_of(ctx);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    std::vector<Sample> s(ns);
    for (auto& p : s) {
      const float r = 0.5f * float(g) * u(rng) * u(rng), a = 6.2831853f * u(rng);
      p = {std::clamp(0.5f * g + r * std::cos(a), 0.0f, g - 0.001f),
           std::clamp(0.5f * g + r * std::sin(a), 0.0f, g - 0.001f), 2 * u(rng) - 1,
           2 * u(rng) - 1};
    }
    const int tx = g / kTw, ty = g / kTh;
    std::vector<Sample> binned;
    std::vector<int> start{0};
    for (int by = 0; by < ty; ++by)
      for (int bx = 0; bx < tx; ++bx) {
        const float x0 = float(bx * kTw) - radius, x1 = float(bx * kTw + kTw - 1) + radius;
        const float y0 = float(by * kTh) - radius, y1 = float(by * kTh + kTh - 1) + radius;
        for (const auto& p : s)
          if (p.x > x0 && p.x < x1 && p.y > y0 && p.y < y1) binned.push_back(p);
        start.push_back(int(binned.size()));
      }
    auto& dev = ctx.device();
    Addr dsamp = dev.upload(binned, "binned samples"), dstart = dev.upload(start, "tile starts");
    Addr dout = dev.malloc(std::size_t(g) * g * 8, "grid");
    int m = ctx.load("mg/mg.ptx");
    if (!ctx.launch(m, "mg", {std::uint32_t(tx), std::uint32_t(ty), 1}, {kTw, kTh, 1},
                    func::KernelArgs().add(dsamp).add(dstart).add(tx).add(g).add(radius).add(dout)))
      return {};
    auto out = dev.download<float>(dout, std::size_t(g) * g * 2);
    std::vector<double> want(out.size()), scale(out.size());
    for (int y = 0; y < g; ++y)
      for (int x = 0; x < g; ++x)
        for (const auto& p : s) {
          const float dx = p.x - float(x), dy = p.y - float(y), d2 = dx * dx + dy * dy;
          if (d2 >= r2) continue;
          const double w = window(d2, r2);
          const std::size_t k = 2 * (std::size_t(y) * g + x);
          want[k] += w * p.re, want[k + 1] += w * p.im;
          scale[k] += std::fabs(w * p.re) + 1e-3, scale[k + 1] += std::fabs(w * p.im) + 1e-3;
        }
    auto v = ref::compare_close("grid values (re, im)", out, want, 1e-5, 1e-4, &scale);
    if (v.ok) v.message += fmt::format(" ({} binned samples)", binned.size());
    return v;
  }
};

}  // namespace

std::unique_ptr<Workload> make_mg() {
  return std::make_unique<MriGridding>();
}

}  // namespace simtsync::workloads
