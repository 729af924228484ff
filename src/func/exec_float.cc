// Floating-point instruction semantics: f32, f64, and f16/bf16 (computed in f32, rounded back).
// IEEE round-to-nearest unless a rounding modifier asks otherwise; .ftz flushes f32 subnormals;
// .sat clamps to [0, 1] (NaN -> 0); min/max return the non-NaN operand unless .NaN is given.
#include <cfenv>
#include <cmath>
#include <fmt/format.h>

#include "func/bits.h"
#include "func/executor.h"

namespace simtsync::func {

using ptx::Opcode;

namespace {

class RoundingScope {
 public:
  explicit RoundingScope(const std::optional<ptx::Mod>& r) {
    if (!r || *r == ptx::Mod::kRn) return;
    int mode = *r == ptx::Mod::kRz ? FE_TOWARDZERO : *r == ptx::Mod::kRm ? FE_DOWNWARD : FE_UPWARD;
    old_ = std::fegetround();
    std::fesetround(mode);
    active_ = true;
  }
  ~RoundingScope() {
    if (active_) std::fesetround(old_);
  }

 private:
  int old_ = 0;
  bool active_ = false;
};

template <typename T>
T fmin_ptx(T a, T b, bool nan) {
  if (std::isnan(a) || std::isnan(b)) {
    if (nan) return std::numeric_limits<T>::quiet_NaN();
    return std::isnan(a) ? b : a;
  }
  if (a == 0 && b == 0) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
template <typename T>
T fmax_ptx(T a, T b, bool nan) {
  if (std::isnan(a) || std::isnan(b)) {
    if (nan) return std::numeric_limits<T>::quiet_NaN();
    return std::isnan(a) ? b : a;
  }
  if (a == 0 && b == 0) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

template <typename T>
T saturate(T v) {
  if (std::isnan(v)) return 0;
  return std::min<T>(std::max<T>(v, 0), 1);
}

// One scalar operation in type T. `ok` is cleared for opcodes this does not implement.
template <typename T>
T compute(Opcode op, const ptx::InstAttrs& a, T x, T y, T z, bool& ok) {
  switch (op) {
    case Opcode::kAdd: return x + y;
    case Opcode::kSub: return x - y;
    case Opcode::kMul: return x * y;
    case Opcode::kFma:
    case Opcode::kMad: return std::fma(x, y, z);
    case Opcode::kDiv: return x / y;
    case Opcode::kNeg: return -x;
    case Opcode::kAbs: return std::fabs(x);
    case Opcode::kMin: return fmin_ptx(x, y, a.nan);
    case Opcode::kMax: return fmax_ptx(x, y, a.nan);
    case Opcode::kRcp: return T(1) / x;
    case Opcode::kSqrt: return std::sqrt(x);
    case Opcode::kRsqrt: return T(1) / std::sqrt(x);
    case Opcode::kSin: return std::sin(x);
    case Opcode::kCos: return std::cos(x);
    case Opcode::kLg2: return std::log2(x);
    case Opcode::kEx2: return std::exp2(x);
    case Opcode::kTanh: return std::tanh(x);
    case Opcode::kCopysign: return std::copysign(y, x);  // copysign d, a, b: |b| with a's sign
    default: ok = false; return 0;
  }
}

}  // namespace

void Executor::exec_float(Warp& w, const ExecInst& in, LaneMask m) {
  const ptx::InstAttrs& a = in.a;
  std::uint64_t* d = in.dst[0] == kNoReg ? nullptr : w.reg(in.dst[0]);
  RoundingScope rs(a.rounding);
  bool ok = true;
  for (int li : lanes(m)) {
    const unsigned l = static_cast<unsigned>(li);
    const std::uint64_t x = in.nsrc > 0 ? value(w, in.src[0], l) : 0;
    const std::uint64_t y = in.nsrc > 1 ? value(w, in.src[1], l) : 0;
    const std::uint64_t z = in.nsrc > 2 ? value(w, in.src[2], l) : 0;
    std::uint64_t r = 0;
    switch (a.type) {
      case ptx::DType::kF32: {
        float fx = as_f32(x), fy = as_f32(y), fz = as_f32(z);
        if (a.ftz) fx = ftz(fx), fy = ftz(fy), fz = ftz(fz);
        float v = compute<float>(in.op, a, fx, fy, fz, ok);
        if (a.sat) v = saturate(v);
        if (a.ftz) v = ftz(v);
        r = bits_f32(v);
        break;
      }
      case ptx::DType::kF64: {
        double v = compute<double>(in.op, a, as_f64(x), as_f64(y), as_f64(z), ok);
        if (a.sat) v = saturate(v);
        r = bits_f64(v);
        break;
      }
      case ptx::DType::kF16:
      case ptx::DType::kBf16:
      case ptx::DType::kF16x2:
      case ptx::DType::kBf16x2: {
        const bool bf = a.type == ptx::DType::kBf16 || a.type == ptx::DType::kBf16x2;
        const int n = (a.type == ptx::DType::kF16x2 || a.type == ptx::DType::kBf16x2) ? 2 : 1;
        auto to_f = [&](std::uint64_t v, int k) {
          auto h = static_cast<std::uint16_t>(v >> (16 * k));
          return bf ? bf16_to_float(h) : half_to_float(h);
        };
        for (int k = 0; k < n; ++k) {
          float v = compute<float>(in.op, a, to_f(x, k), to_f(y, k), to_f(z, k), ok);
          if (a.sat) v = saturate(v);
          std::uint64_t h = bf ? float_to_bf16(v) : float_to_half(v);
          r |= h << (16 * k);
        }
        break;
      }
      default: ok = false;
    }
    if (!ok)
      fault(w, l, in, fmt::format("float opcode '{}' with type .{} is not supported",
                                  ptx::opcode_name(in.op), ptx::dtype_name(a.type)));
    if (d) d[l] = r;
  }
}

}  // namespace simtsync::func
