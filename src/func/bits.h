// Bit-level helpers shared by the instruction semantics.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace simtsync::func {

inline std::uint64_t trunc_bytes(std::uint64_t v, unsigned bytes) {
  return bytes >= 8 ? v : v & ((std::uint64_t{1} << (8 * bytes)) - 1);
}
inline std::int64_t sext_bytes(std::uint64_t v, unsigned bytes) {
  if (bytes >= 8) return static_cast<std::int64_t>(v);
  unsigned sh = 64 - 8 * bytes;
  return static_cast<std::int64_t>(v << sh) >> sh;
}
inline float as_f32(std::uint64_t v) {
  float f;
  std::uint32_t b = static_cast<std::uint32_t>(v);
  std::memcpy(&f, &b, 4);
  return f;
}
inline double as_f64(std::uint64_t v) {
  double d;
  std::memcpy(&d, &v, 8);
  return d;
}
inline std::uint64_t bits_f32(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
inline std::uint64_t bits_f64(double d) {
  std::uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}
// Flush a single-precision subnormal to a zero of the same sign (.ftz).
inline float ftz(float f) {
  return std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0f, f) : f;
}

// IEEE half <-> single, round to nearest even.
float half_to_float(std::uint16_t h);
std::uint16_t float_to_half(float f);
float bf16_to_float(std::uint16_t h);
std::uint16_t float_to_bf16(float f);

}  // namespace simtsync::func
