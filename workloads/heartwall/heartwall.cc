// heartwall host driver: tracks `points` 8x8 templates (cut from frame 0) through `frames`
// synthetic frames of a 256-pixel-wide image that drifts by a random walk plus noise. Every
// frame's positions must equal a CPU tracker's exactly (integer SSDs; ties go to the lowest
// candidate index).
#include "refutil/ref_util.h"

namespace simtsync::workloads {
namespace {

constexpr int kWidth = 256, kT = 8, kS = 16;  // as in heartwall.cu

class HeartWall final : public Workload {
 public:
  std::string name() const override { return "heartwall"; }
  std::string description() const override {
    return "template tracking by SSD search, row loop stepping by a power of two (seed 000 "
           "sec. VI-B, Rodinia heartwall)";
  }
  std::string suite() const override { return "synchronization-free"; }
  std::vector<ParamSpec> params() const override {
    return {{"height", "frame rows", 64, 256, 256, 2 * kS + kT, 1 << 14},
            {"points", "tracked points", 4, 64, 128, 1, 1 << 16},
            {"frames", "frames after the first", 2, 10, 50, 1, 1 << 12},
            ref::seed_param()};
  }
  Validation run(WorkloadContext& ctx) const override {
    const int h = ref::i32(ctx, "height"), np = ref::i32(ctx, "points");
    const int nf = ref::i32(ctx, "frames");
    auto rng = ref::rng_of(ctx);
    // A smooth base image (sum of random waves), shifted per frame.
    const int bw = kWidth + 64, bh = h + 64;
    std::vector<int> base(std::size_t(bw) * bh);
    auto wav = ref::uniform_floats(12, 0.02f, 0.3f, rng);
    for (int y = 0; y < bh; ++y)
      for (int x = 0; x < bw; ++x)
        base[y * bw + x] = int(127 + 40 * std::sin(wav[0] * x + wav[1] * y) +
                               40 * std::sin(wav[2] * x - wav[3] * y) +
                               40 * std::cos(wav[4] * x * wav[5] + wav[6] * y));
    std::uniform_int_distribution<int> step(-2, 2), noise(-6, 6);
    std::vector<std::vector<int>> frames(nf + 1, std::vector<int>(std::size_t(kWidth) * h));
    int sx = 32, sy = 32;
    for (auto& f : frames) {
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < kWidth; ++x)
          f[y * kWidth + x] = base[(y + sy) * bw + x + sx] + noise(rng);
      sx = std::clamp(sx + step(rng), 0, 64), sy = std::clamp(sy + step(rng), 0, 64);
    }
    std::uniform_int_distribution<int> px(kS, kWidth - kS - kT), py(kS, h - kS - kT);
    std::vector<int> pos(2 * np), templ(std::size_t(np) * kT * kT);
    for (int p = 0; p < np; ++p) {
      pos[2 * p] = px(rng), pos[2 * p + 1] = py(rng);
      for (int r = 0; r < kT; ++r)
        for (int c = 0; c < kT; ++c)
          templ[(p * kT + r) * kT + c] = frames[0][(pos[2 * p + 1] + r) * kWidth + pos[2 * p] + c];
    }
    auto& dev = ctx.device();
    Addr dframe = dev.malloc(frames[0].size() * 4, "frame"),
         dtempl = dev.upload(templ, "templates");
    Addr dpos = dev.upload(pos, "positions"), dssd = dev.malloc(std::size_t(np) * kS * kS * 4);
    Addr dtrack = dev.malloc(std::size_t(nf) * np * 2 * 4, "track");
    int m = ctx.load("heartwall/heartwall.ptx");
    for (int f = 1; f <= nf; ++f) {
      dev.copy_to_device(dframe, frames[f].data(), frames[f].size() * 4);
      if (!ctx.launch(m, "hw_ssd", {std::uint32_t(np), 1, 1}, {kS * kS, 1, 1},
                      func::KernelArgs().add(dframe).add(h).add(dtempl).add(dpos).add(dssd)))
        return {};
      if (!ctx.launch(m, "hw_pick", {ref::ceil_div(np, 64), 1, 1}, {64, 1, 1},
                      func::KernelArgs().add(dssd).add(np).add(dpos).add(
                          dtrack + std::uint64_t(f - 1) * np * 2 * 4)))
        return {};
    }
    std::vector<int> want;
    for (int f = 1; f <= nf; ++f)
      for (int p = 0; p < np; ++p) {
        long best = -1;
        int bc = 0;
        for (int cand = 0; cand < kS * kS; ++cand) {
          const int x = pos[2 * p] + cand % kS - kS / 2, y = pos[2 * p + 1] + cand / kS - kS / 2;
          long s = 0x7fffffff;
          if (x >= 0 && y >= 0 && x + kT <= kWidth && y + kT <= h) {
            s = 0;
            for (int r = 0; r < kT; ++r)
              for (int c = 0; c < kT; ++c) {
                const long d = frames[f][(y + r) * kWidth + x + c] - templ[(p * kT + r) * kT + c];
                s += d * d;
              }
          }
          if (best < 0 || s < best) best = s, bc = cand;
        }
        pos[2 * p] += bc % kS - kS / 2, pos[2 * p + 1] += bc / kS - kS / 2;
        want.push_back(pos[2 * p]), want.push_back(pos[2 * p + 1]);
      }
    return ref::compare_exact("tracked coordinates",
                              dev.download<int>(dtrack, std::size_t(nf) * np * 2), want);
  }
};

}  // namespace

std::unique_ptr<Workload> make_heartwall() {
  return std::make_unique<HeartWall>();
}

}  // namespace simtsync::workloads
