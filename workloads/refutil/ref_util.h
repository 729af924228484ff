// Helpers shared by the reference suites (synchronization-free and barrier-intensive): typed
// parameter access, seeded input generators and order-independent output comparisons.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "framework/workload.h"

namespace simtsync::workloads::ref {

inline std::uint32_t u32(const WorkloadContext& ctx, const char* name) {
  return static_cast<std::uint32_t>(ctx.param(name));
}
inline int i32(const WorkloadContext& ctx, const char* name) {
  return static_cast<int>(ctx.param(name));
}
inline std::mt19937 rng_of(const WorkloadContext& ctx) {
  return std::mt19937(static_cast<std::uint32_t>(ctx.param("seed")));
}
inline ParamSpec seed_param() {
  return {"seed", "input generator seed", 1, 1, 1, 0, INT32_MAX};
}

inline std::vector<float> uniform_floats(std::size_t n, float lo, float hi, std::mt19937& rng) {
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}
inline std::vector<int> uniform_ints(std::size_t n, int lo, int hi, std::mt19937& rng) {
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<int> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

// Element-wise |got - want| <= atol + rtol * scale, where scale is |want| or, when given, the
// magnitude of the terms that were summed (so cancellation does not make the bound too tight).
template <typename G, typename W>
Validation compare_close(const std::string& what, const std::vector<G>& got,
                         const std::vector<W>& want, double atol, double rtol,
                         const std::vector<double>* scale = nullptr) {
  if (got.size() != want.size())
    return {false, fmt::format("{}: {} values, expected {}", what, got.size(), want.size())};
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double g = static_cast<double>(got[i]), w = static_cast<double>(want[i]);
    const double s = scale ? (*scale)[i] : std::fabs(w);
    const double err = std::fabs(g - w);
    if (!(err <= atol + rtol * s))
      return {false, fmt::format("{}[{}] = {} but the CPU reference gives {}", what, i, g, w)};
    worst = std::max(worst, err);
  }
  return {true, fmt::format("{} {} match the CPU reference (max abs error {:.3g})", got.size(),
                            what, worst)};
}

template <typename T>
Validation compare_exact(const std::string& what, const std::vector<T>& got,
                         const std::vector<T>& want) {
  if (got.size() != want.size())
    return {false, fmt::format("{}: {} values, expected {}", what, got.size(), want.size())};
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!(got[i] == want[i]))
      return {false,
              fmt::format("{}[{}] = {} but the CPU reference gives {}", what, i, got[i], want[i])};
  return {true, fmt::format("{} {} equal the CPU reference", got.size(), what)};
}

inline std::uint32_t ceil_div(std::uint64_t a, std::uint64_t b) {
  return static_cast<std::uint32_t>((a + b - 1) / b);
}

}  // namespace simtsync::workloads::ref
