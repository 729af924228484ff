// backprop host driver: one training step of an n_in x hidden x 1 network (Rodinia backprop).
// Validated against a double-precision CPU step: the hidden activations and every updated weight.
#include "refutil/ref_util.h"

namespace simtsync::workloads {
namespace {

class BackProp final : public Workload {
 public:
  std::string name() const override { return "backprop"; }
  std::string description() const override {
    return "perceptron training step: chunked dot products and a weight update (Rodinia "
           "backprop)";
  }
  std::string suite() const override { return "synchronization-free"; }
  std::vector<ParamSpec> params() const override {
    return {{"inputs", "input units", 1024, 65536, 65536, 1, 1 << 24},
            {"hidden", "hidden units", 16, 16, 16, 1, 1024},
            {"chunk", "inputs per partial sum", 64, 256, 256, 1, 1 << 20},
            ref::seed_param()};
  }
  Validation run(WorkloadContext& ctx) const override {
    const int n = ref::i32(ctx, "inputs"), h = ref::i32(ctx, "hidden");
    const int chunk = ref::i32(ctx, "chunk"), chunks = int(ref::ceil_div(n, chunk));
    const float eta = 0.3f, momentum = 0.3f;
    auto rng = ref::rng_of(ctx);
    auto in = ref::uniform_floats(n, 0.0f, 1.0f, rng);
    auto w = ref::uniform_floats(std::size_t(n) * h, -0.01f, 0.01f, rng);
    auto oldw = ref::uniform_floats(w.size(), -0.001f, 0.001f, rng);
    auto w2 = ref::uniform_floats(h, -1.0f, 1.0f, rng);
    const float target = 0.1f;
    auto& dev = ctx.device();
    Addr din = dev.upload(in, "inputs"), dw = dev.upload(w, "weights");
    Addr dold = dev.upload(oldw, "previous weight changes");
    Addr dpart = dev.malloc(std::size_t(chunks) * h * 4, "partial sums");
    Addr dhid = dev.malloc(std::size_t(h) * 4, "hidden"), ddelta = dev.malloc(std::size_t(h) * 4);
    int m = ctx.load("backprop/backprop.ptx");
    if (!ctx.launch(m, "bp_partial", {ref::ceil_div(std::uint64_t(chunks) * h, 256), 1, 1},
                    {256, 1, 1},
                    func::KernelArgs().add(din).add(dw).add(n).add(h).add(chunk).add(dpart)))
      return {};
    if (!ctx.launch(m, "bp_hidden", {1, 1, 1}, {std::uint32_t((h + 31) / 32 * 32), 1, 1},
                    func::KernelArgs().add(dpart).add(chunks).add(h).add(dhid)))
      return {};
    // Output unit and hidden deltas on the host, as in Rodinia.
    auto hid = dev.download<float>(dhid, h);
    auto sigmoid = [](double x) { return 1.0 / (1.0 + std::exp(-x)); };
    auto deltas = [&](const auto& hv) {
      double o = 0;
      for (int j = 0; j < h; ++j) o += hv[j] * w2[j];
      o = sigmoid(o);
      const double d_out = o * (1 - o) * (target - o);
      std::vector<double> d(h);
      for (int j = 0; j < h; ++j) d[j] = hv[j] * (1 - hv[j]) * d_out * w2[j];
      return d;
    };
    auto dgpu = deltas(hid);
    std::vector<float> delta(dgpu.begin(), dgpu.end());
    dev.copy_to_device(ddelta, delta.data(), std::size_t(h) * 4);
    if (!ctx.launch(
            m, "bp_adjust", {ref::ceil_div(std::uint64_t(n) * h, 256), 1, 1}, {256, 1, 1},
            func::KernelArgs().add(din).add(ddelta).add(dw).add(dold).add(n).add(h).add(eta).add(
                momentum)))
      return {};
    std::vector<double> want_hid(h), scale(h);
    for (int j = 0; j < h; ++j) {
      double s = 0;
      for (int i = 0; i < n; ++i) s += double(in[i]) * w[std::size_t(i) * h + j];
      want_hid[j] = sigmoid(s);
    }
    auto v = ref::compare_close("hidden activations", hid, want_hid, 1e-5, 1e-5);
    if (!v.ok) return v;
    std::vector<double> want_w(w.size());
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < h; ++j) {
        const std::size_t k = std::size_t(i) * h + j;
        want_w[k] = w[k] + (double(eta) * delta[j] * in[i] + double(momentum) * oldw[k]);
      }
    auto vw = ref::compare_close("weights", dev.download<float>(dw, w.size()), want_w, 1e-8, 1e-5);
    if (vw.ok) vw.message = v.message + "; " + vw.message;
    return vw;
  }
};

}  // namespace

std::unique_ptr<Workload> make_backprop() {
  return std::make_unique<BackProp>();
}

}  // namespace simtsync::workloads
