// CPU reference of one SRAD iteration (Rodinia srad), shared by srad2 (barrier-intensive) and
// srad (synchronization-free). Border pixels use clamped neighbours.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "refutil/ref_util.h"

namespace simtsync::workloads::srad {

// Speckle statistic q0^2 of the region of interest rows [0, rows/4) x cols [0, cols/4).
inline float q0sqr(const std::vector<float>& J, int rows, int cols) {
  double sum = 0, sum2 = 0;
  const int r = std::max(rows / 4, 1), c = std::max(cols / 4, 1);
  for (int i = 0; i < r; ++i)
    for (int j = 0; j < c; ++j)
      sum += J[i * cols + j], sum2 += double(J[i * cols + j]) * J[i * cols + j];
  const double size = double(r) * c, mean = sum / size, var = sum2 / size - mean * mean;
  return float(var / (mean * mean));
}

// One iteration from J in double precision into `out`. `fragile[k]` is set where the result
// depends on a diffusion coefficient whose denominator 1 + den is within 1e-3 of zero: there
// the clamp to [0, 1] jumps, so a one-ulp difference in single precision may flip it.
inline void step(const std::vector<float>& J, int rows, int cols, float q0, float lambda,
                 std::vector<double>& out, std::vector<char>& fragile) {
  const std::size_t n = std::size_t(rows) * cols;
  std::vector<double> dn(n), ds(n), dw(n), de(n), c(n);
  std::vector<char> bad(n, 0);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      const std::size_t k = std::size_t(i) * cols + j;
      const double jc = J[k];
      dn[k] = J[std::max(i - 1, 0) * cols + j] - jc;
      ds[k] = J[std::min(i + 1, rows - 1) * cols + j] - jc;
      dw[k] = J[i * cols + std::max(j - 1, 0)] - jc;
      de[k] = J[i * cols + std::min(j + 1, cols - 1)] - jc;
      const double g2 = (dn[k] * dn[k] + ds[k] * ds[k] + dw[k] * dw[k] + de[k] * de[k]) / (jc * jc);
      const double l = (dn[k] + ds[k] + dw[k] + de[k]) / jc;
      const double num = 0.5 * g2 - (1.0 / 16.0) * l * l;
      double den = 1.0 + 0.25 * l;
      const double qsqr = num / (den * den);
      den = (qsqr - q0) / (q0 * (1.0 + q0));
      bad[k] = std::fabs(1.0 + den) < 1e-3;
      c[k] = std::clamp(1.0 / (1.0 + den), 0.0, 1.0);
    }
  out.assign(n, 0.0);
  fragile.assign(n, 0);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      const std::size_t k = std::size_t(i) * cols + j;
      const std::size_t ks = std::size_t(std::min(i + 1, rows - 1)) * cols + j;
      const std::size_t ke = std::size_t(i) * cols + std::min(j + 1, cols - 1);
      const double d = c[k] * dn[k] + c[ks] * ds[k] + c[k] * dw[k] + c[ke] * de[k];
      out[k] = J[k] + 0.25 * lambda * d;
      fragile[k] = bad[k] || bad[ks] || bad[ke];
    }
}

// The host loop of both variants: `iterations` SRAD iterations on a rows x cols speckled image
// (J = exp of uniform noise). The host computes q0^2 before each iteration (as Rodinia does) and
// checks each iteration's output against a double-precision CPU iteration from the same input,
// so single-precision differences do not compound.
inline Validation drive(WorkloadContext& ctx, const std::string& ptx, const std::string& coef,
                        const std::string& update, Dim3 grid, Dim3 block) {
  const int rows = ref::i32(ctx, "rows"), cols = ref::i32(ctx, "cols");
  const int iters = ref::i32(ctx, "iterations");
  const float lambda = 0.5f;
  auto rng = ref::rng_of(ctx);
  auto J = ref::uniform_floats(std::size_t(rows) * cols, 0.0f, 1.0f, rng);
  for (auto& v : J) v = std::exp(v);
  const std::size_t n = J.size();
  auto& dev = ctx.device();
  Addr dj = dev.upload(J, "J");
  Addr d[5];
  for (auto& a : d) a = dev.malloc(n * 4, "SRAD temporaries");
  int m = ctx.load(ptx);
  std::vector<double> want;
  std::vector<char> fragile;
  std::size_t skipped = 0;
  double worst = 0;
  for (int it = 0; it < iters; ++it) {
    const float q0 = q0sqr(J, rows, cols);
    if (!ctx.launch(m, coef, grid, block,
                    func::KernelArgs()
                        .add(dj)
                        .add(d[0])
                        .add(d[1])
                        .add(d[2])
                        .add(d[3])
                        .add(d[4])
                        .add(rows)
                        .add(cols)
                        .add(q0)))
      return {};
    if (!ctx.launch(m, update, grid, block,
                    func::KernelArgs()
                        .add(dj)
                        .add(d[0])
                        .add(d[1])
                        .add(d[2])
                        .add(d[3])
                        .add(d[4])
                        .add(rows)
                        .add(cols)
                        .add(lambda)))
      return {};
    step(J, rows, cols, q0, lambda, want, fragile);
    J = dev.download<float>(dj, n);
    for (std::size_t k = 0; k < n; ++k) {
      if (fragile[k]) {
        ++skipped;
        continue;
      }
      const double err = std::fabs(J[k] - want[k]);
      if (!(err <= 1e-4 + 1e-4 * std::fabs(want[k])))
        return {false, fmt::format("iteration {}: J[{}] = {} but the CPU reference gives {}", it, k,
                                   J[k], want[k])};
      worst = std::max(worst, err);
    }
  }
  return {true, fmt::format("{} iterations of {} pixels match the CPU reference (max abs error "
                            "{:.3g}; {} ill-conditioned pixel checks skipped)",
                            iters, n, worst, skipped)};
}

}  // namespace simtsync::workloads::srad
