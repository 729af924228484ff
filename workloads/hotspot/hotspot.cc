// hotspot host driver: `iterations` time steps of the Rodinia hotspot model (its chip constants)
// on a rows x cols grid with random initial temperatures and power, compared with the same steps
// in double precision on the CPU.
#include "refutil/ref_util.h"

namespace simtsync::workloads {
namespace {

class Hotspot final : public Workload {
 public:
  std::string name() const override { return "hotspot"; }
  std::string description() const override {
    return "thermal simulation time steps, a counted row loop per thread (Rodinia hotspot)";
  }
  std::string suite() const override { return "synchronization-free"; }
  std::vector<ParamSpec> params() const override {
    return {{"rows", "grid rows", 64, 512, 1024, 1, 1 << 14},
            {"cols", "grid columns", 64, 512, 1024, 1, 1 << 14},
            {"strip", "rows per thread", 16, 16, 16, 1, 1 << 14},
            {"iterations", "time steps", 3, 10, 60, 1, 1 << 16},
            ref::seed_param()};
  }
  Validation run(WorkloadContext& ctx) const override {
    const int rows = ref::i32(ctx, "rows"), cols = ref::i32(ctx, "cols");
    const int strip = ref::i32(ctx, "strip"), iters = ref::i32(ctx, "iterations");
    // Rodinia hotspot's chip constants.
    const double chip_h = 0.016, chip_w = 0.016, t_chip = 0.0005, k_si = 100.0;
    const double spec_heat = 1.75e6, factor = 0.5, max_pd = 3.0e6, precision = 0.001;
    const double gh = chip_h / rows, gw = chip_w / cols;
    const double cap = factor * spec_heat * t_chip * gw * gh;
    const double rx = gw / (2.0 * k_si * t_chip * gh), ry = gh / (2.0 * k_si * t_chip * gw);
    const double rz = t_chip / (k_si * gh * gw);
    const double step = precision / (max_pd / (factor * t_chip * spec_heat));
    const float step_cap = float(step / cap), rx1 = float(1 / rx), ry1 = float(1 / ry);
    const float rz1 = float(1 / rz), amb = 80.0f;
    auto rng = ref::rng_of(ctx);
    auto temp = ref::uniform_floats(std::size_t(rows) * cols, 320.0f, 340.0f, rng);
    auto power = ref::uniform_floats(temp.size(), 0.0f, 0.01f, rng);
    auto& dev = ctx.device();
    Addr a = dev.upload(temp, "temperature"), b = dev.malloc(temp.size() * 4, "temperature'");
    Addr dp = dev.upload(power, "power");
    int m = ctx.load("hotspot/hotspot.ptx");
    for (int it = 0; it < iters; ++it) {
      if (!ctx.launch(m, "hotspot_step", {ref::ceil_div(cols, 64), ref::ceil_div(rows, strip), 1},
                      {64, 1, 1},
                      func::KernelArgs()
                          .add(a)
                          .add(dp)
                          .add(b)
                          .add(rows)
                          .add(cols)
                          .add(strip)
                          .add(step_cap)
                          .add(rx1)
                          .add(ry1)
                          .add(rz1)
                          .add(amb)))
        return {};
      std::swap(a, b);
    }
    std::vector<double> t(temp.begin(), temp.end()), o(t.size());
    for (int it = 0; it < iters; ++it) {
      for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
          const int n = std::max(r - 1, 0), s = std::min(r + 1, rows - 1);
          const int w = std::max(c - 1, 0), e = std::min(c + 1, cols - 1);
          const double x = t[r * cols + c];
          o[r * cols + c] =
              x + double(step_cap) *
                      (power[r * cols + c] + (t[s * cols + c] + t[n * cols + c] - 2 * x) * ry1 +
                       (t[r * cols + e] + t[r * cols + w] - 2 * x) * rx1 + (amb - x) * rz1);
        }
      std::swap(t, o);
    }
    return ref::compare_close("temperatures", dev.download<float>(a, temp.size()), t, 1e-3, 1e-6);
  }
};

}  // namespace

std::unique_ptr<Workload> make_hotspot() {
  return std::make_unique<Hotspot>();
}

}  // namespace simtsync::workloads
