// mb_power host driver: a compute-bound loop of one operation kind (op 0 FP32 FMA, 1 SFU,
// 2 integer) on `ctas` x `threads` threads for the energy model's power checks
// (docs/energy.md). Validation recomputes every thread's result on the CPU: exactly for the
// FMA and integer loops, within a tolerance for the SFU's approximations.
#include <fmt/format.h>

#include <cmath>

#include "framework/workload.h"

namespace simtsync::workloads {
namespace {

float reference(int op, int iters, int i) {
  float a = std::fmaf(static_cast<float>(i), 1e-6f, 1.0f), b = 0.5f, c = 0.25f, d = 0.125f;
  if (op == 0) {
    for (int k = 0; k < iters; ++k) {
      a = std::fmaf(a, 0.999f, 0.001f);
      b = std::fmaf(b, 0.999f, 0.002f);
      c = std::fmaf(c, 0.999f, 0.003f);
      d = std::fmaf(d, 0.999f, 0.004f);
    }
  } else if (op == 1) {
    for (int k = 0; k < iters; ++k) {
      a = std::sin(a);
      b = std::exp(-b);
      c = std::sin(c);
      d = std::exp(-d);
    }
  } else {
    auto u = static_cast<std::uint32_t>(i);
    std::uint32_t x = u, y = u + 1, z = u + 2, w = u + 3;
    for (int k = 0; k < iters; ++k) {
      x = x * 1664525u + 1013904223u;
      y = y * 22695477u + 1u;
      z = (z ^ (z << 7)) + 0x9e3779b9u;
      w = w * 69069u + 12345u;
    }
    a = static_cast<float>(x >> 16);
    b = static_cast<float>(y >> 16);
    c = static_cast<float>(z >> 16);
    d = static_cast<float>(w >> 16);
  }
  return a + b + c + d;
}

class MbPower final : public Workload {
 public:
  std::string name() const override { return "mb_power"; }
  std::string description() const override {
    return "compute-bound loop of one op kind (0 FP32 FMA, 1 SFU, 2 integer): power checks";
  }
  std::string suite() const override { return "microbenchmark"; }
  std::vector<ParamSpec> params() const override {
    // Default: 8 CTAs of 192 threads per SM of a 15-SM GTX480 (48 warps, full occupancy).
    return {{"op", "operation kind: 0 FP32 FMA, 1 SFU (sin/exp), 2 integer", 0, 0, 0, 0, 2},
            {"iters", "loop iterations per thread (4 operations each)", 32, 256, 1024, 1, 1 << 24},
            {"ctas", "CTAs in the grid", 4, 120, 120, 1, 1 << 20},
            {"threads", "threads per CTA", 64, 192, 192, 1, 1024}};
  }
  Validation run(WorkloadContext& ctx) const override {
    const int op = static_cast<int>(ctx.param("op"));
    const int iters = static_cast<int>(ctx.param("iters"));
    const auto ctas = static_cast<std::uint32_t>(ctx.param("ctas"));
    const auto threads = static_cast<std::uint32_t>(ctx.param("threads"));
    const std::size_t n = std::size_t{ctas} * threads;
    auto& dev = ctx.device();
    Addr dout = dev.upload(std::vector<float>(n, 0.0f), "results");
    int m = ctx.load("mb_power/mb_power.ptx");
    if (!ctx.launch(m, "mb_power", {ctas, 1, 1}, {threads, 1, 1},
                    func::KernelArgs().add(dout).add(op).add(iters)))
      return {};
    const auto out = dev.download<float>(dout, n);
    for (std::size_t i = 0; i < n; ++i) {
      const float want = reference(op, iters, static_cast<int>(i));
      const bool ok =
          op == 1 ? std::fabs(out[i] - want) <= 1e-3f * (1.0f + std::fabs(want)) : out[i] == want;
      if (!ok) return {false, fmt::format("out[{}] = {} but the CPU gives {}", i, out[i], want)};
    }
    static constexpr const char* kKind[] = {"FP32 FMA", "SFU", "integer"};
    return {true, fmt::format("{} threads x {} iterations x 4 {} operations", n, iters, kKind[op])};
  }
};

}  // namespace

std::unique_ptr<Workload> make_mb_power() {
  return std::make_unique<MbPower>();
}

}  // namespace simtsync::workloads
