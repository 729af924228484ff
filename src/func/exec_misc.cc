// Comparison, selection, data movement and conversion semantics.
#include <cfenv>
#include <cmath>
#include <fmt/format.h>

#include "func/bits.h"
#include "func/executor.h"

namespace simtsync::func {

using ptx::DType;
using ptx::Mod;
using ptx::Opcode;

namespace {

double to_double(std::uint64_t v, DType t) {
  switch (t) {
    case DType::kF32: return as_f32(v);
    case DType::kF64: return as_f64(v);
    case DType::kF16: return half_to_float(static_cast<std::uint16_t>(v));
    case DType::kBf16: return bf16_to_float(static_cast<std::uint16_t>(v));
    default: return 0;
  }
}

bool compare(Mod cmp, std::uint64_t x, std::uint64_t y, DType t) {
  const unsigned bytes = std::max(1u, ptx::dtype_bytes(t));
  if (ptx::dtype_is_float(t)) {
    double a = to_double(x, t), b = to_double(y, t);
    bool unord = std::isnan(a) || std::isnan(b);
    switch (cmp) {
      case Mod::kEq: return !unord && a == b;
      case Mod::kNe: return !unord && a != b;
      case Mod::kLt: return !unord && a < b;
      case Mod::kLe: return !unord && a <= b;
      case Mod::kGt: return !unord && a > b;
      case Mod::kGe: return !unord && a >= b;
      case Mod::kEqu: return unord || a == b;
      case Mod::kNeu: return unord || a != b;
      case Mod::kLtu: return unord || a < b;
      case Mod::kLeu: return unord || a <= b;
      case Mod::kGtu: return unord || a > b;
      case Mod::kGeu: return unord || a >= b;
      case Mod::kNum: return !unord;
      case Mod::kNan: return unord;
      default: return false;
    }
  }
  const std::int64_t sa = sext_bytes(x, bytes), sb = sext_bytes(y, bytes);
  const std::uint64_t ua = trunc_bytes(x, bytes), ub = trunc_bytes(y, bytes);
  const bool sgn = ptx::dtype_is_signed(t);
  switch (cmp) {
    case Mod::kEq: return ua == ub;
    case Mod::kNe: return ua != ub;
    case Mod::kLt: return sgn ? sa < sb : ua < ub;
    case Mod::kLe: return sgn ? sa <= sb : ua <= ub;
    case Mod::kGt: return sgn ? sa > sb : ua > ub;
    case Mod::kGe: return sgn ? sa >= sb : ua >= ub;
    case Mod::kLo: return ua < ub;
    case Mod::kLs: return ua <= ub;
    case Mod::kHi: return ua > ub;
    case Mod::kHs: return ua >= ub;
    default: return false;
  }
}

bool combine(const std::optional<Mod>& op, bool r, bool c) {
  if (!op) return r;
  switch (*op) {
    case Mod::kAndOp: return r && c;
    case Mod::kOrOp: return r || c;
    case Mod::kXorOp: return r != c;
    default: return r;
  }
}

bool testp(const ptx::Instruction* ir, double v) {
  for (Mod m : ir->mods) {
    switch (m) {
      case Mod::kFinite: return std::isfinite(v);
      case Mod::kInfinite: return std::isinf(v);
      case Mod::kNumber: return !std::isnan(v);
      case Mod::kNotanumber: return std::isnan(v);
      case Mod::kNormal: return std::isnormal(v);
      case Mod::kSubnormal: return std::fpclassify(v) == FP_SUBNORMAL;
      default: break;
    }
  }
  return false;
}

// Float -> integer with the given rounding, saturating to the destination range; NaN -> 0.
std::uint64_t float_to_int(double v, const std::optional<Mod>& rnd, DType dt) {
  if (std::isnan(v)) return 0;
  Mod r = rnd.value_or(Mod::kRzi);
  switch (r) {
    case Mod::kRni:
    case Mod::kRn: v = std::nearbyint(v); break;
    case Mod::kRmi:
    case Mod::kRm: v = std::floor(v); break;
    case Mod::kRpi:
    case Mod::kRp: v = std::ceil(v); break;
    default: v = std::trunc(v);
  }
  const unsigned bits = 8 * ptx::dtype_bytes(dt);
  if (ptx::dtype_is_signed(dt)) {
    double lo = -std::ldexp(1.0, static_cast<int>(bits) - 1);
    double hi = std::ldexp(1.0, static_cast<int>(bits) - 1) - 1;
    if (v <= lo) return trunc_bytes(static_cast<std::uint64_t>(static_cast<std::int64_t>(lo)), bits / 8);
    if (v >= hi) return trunc_bytes(bits == 64 ? 0x7fffffffffffffffULL : static_cast<std::uint64_t>(hi), bits / 8);
    return trunc_bytes(static_cast<std::uint64_t>(static_cast<std::int64_t>(v)), bits / 8);
  }
  if (v <= 0) return 0;
  double hi = std::ldexp(1.0, static_cast<int>(bits)) - 1;
  if (v >= hi) return bits == 64 ? ~std::uint64_t{0} : static_cast<std::uint64_t>(hi);
  return static_cast<std::uint64_t>(v);
}

std::uint64_t from_double(double v, DType t) {
  switch (t) {
    case DType::kF32: return bits_f32(static_cast<float>(v));
    case DType::kF64: return bits_f64(v);
    case DType::kF16: return float_to_half(static_cast<float>(v));
    case DType::kBf16: return float_to_bf16(static_cast<float>(v));
    default: return 0;
  }
}

// Applies .rz/.rm/.rp to the conversions inside its scope (the host FPU rounds the same way).
class DirectedRounding {
 public:
  explicit DirectedRounding(const std::optional<Mod>& r) {
    if (!r || (*r != Mod::kRz && *r != Mod::kRm && *r != Mod::kRp)) return;
    old_ = std::fegetround();
    std::fesetround(*r == Mod::kRz ? FE_TOWARDZERO : *r == Mod::kRm ? FE_DOWNWARD : FE_UPWARD);
    active_ = true;
  }
  ~DirectedRounding() {
    if (active_) std::fesetround(old_);
  }

 private:
  int old_ = 0;
  bool active_ = false;
};

}  // namespace

void Executor::exec_compare(Warp& w, const ExecInst& in, LaneMask m) {
  const ptx::InstAttrs& a = in.a;
  std::uint64_t* d = in.dst[0] == kNoReg ? nullptr : w.reg(in.dst[0]);
  std::uint64_t* q = in.ndst > 1 && in.dst[1] != kNoReg ? w.reg(in.dst[1]) : nullptr;
  for (int li : lanes(m)) {
    const unsigned l = static_cast<unsigned>(li);
    const std::uint64_t x = value(w, in.src[0], l);
    const std::uint64_t y = in.nsrc > 1 ? value(w, in.src[1], l) : 0;
    switch (in.op) {
      case Opcode::kSetp: {
        bool r = compare(a.cmp.value_or(Mod::kEq), x, y, a.type);
        bool c = in.nsrc > 2 ? (value(w, in.src[2], l) & 1) != 0 : false;
        if (d) d[l] = combine(a.op, r, c);
        if (q) q[l] = combine(a.op, !r, c);
        break;
      }
      case Opcode::kSet: {
        // set.cmp.dtype.stype: a.type is the destination, a.stype the compared type.
        bool r = compare(a.cmp.value_or(Mod::kEq), x, y, a.stype);
        bool c = in.nsrc > 2 ? (value(w, in.src[2], l) & 1) != 0 : false;
        r = combine(a.op, r, c);
        if (d) d[l] = a.type == DType::kF32 ? (r ? bits_f32(1.0f) : 0) : (r ? 0xffffffffu : 0);
        break;
      }
      case Opcode::kSelp:
        if (d) d[l] = (value(w, in.src[2], l) & 1) ? x : y;
        break;
      case Opcode::kSlct: {
        std::uint64_t c = value(w, in.src[2], l);
        bool ge = a.stype == DType::kF32 ? as_f32(c) >= 0.0f : sext_bytes(c, 4) >= 0;
        if (d) d[l] = ge ? x : y;
        break;
      }
      case Opcode::kTestp:
        if (d) d[l] = testp(in.ir, to_double(x, a.type)) ? 1 : 0;
        break;
      default: break;
    }
  }
}

namespace {

// A special register with one value for the whole warp (its threads' CTA, the launch, the SM):
// read once per instruction rather than once per lane.
bool warp_uniform(ptx::SpecialReg r) {
  switch (r) {
    case ptx::SpecialReg::kNtid:
    case ptx::SpecialReg::kCtaid:
    case ptx::SpecialReg::kNctaid:
    case ptx::SpecialReg::kWarpid:
    case ptx::SpecialReg::kNwarpid:
    case ptx::SpecialReg::kSmid:
    case ptx::SpecialReg::kNsmid:
    case ptx::SpecialReg::kGridid:
    case ptx::SpecialReg::kDynamicSmemSize:
    case ptx::SpecialReg::kTotalSmemSize:
    case ptx::SpecialReg::kWarpsz:
      return true;
    default:
      return false;
  }
}

}  // namespace

void Executor::exec_move(Warp& w, const ExecInst& in, LaneMask m) {
  const ptx::InstAttrs& a = in.a;
  const unsigned bytes = std::max(1u, ptx::dtype_bytes(a.type));
  if (in.op == Opcode::kMov && in.ndst == 1 && in.nsrc == 1) {
    // The common move (one source, one destination), without the per-lane dispatch below
    // (issue 48: a move of %ctaid or %ntid read the special register once per lane).
    if (in.dst[0] == kNoReg || m == 0) return;
    std::uint64_t* d = w.reg(in.dst[0]);
    const Src& s = in.src[0];
    if (s.kind == Src::Kind::kImm ||
        (s.kind == Src::Kind::kSpecial && warp_uniform(s.sreg))) {
      const std::uint64_t v =
          trunc_bytes(value(w, s, static_cast<unsigned>(first_lane(m))), bytes);
      for (int l : lanes(m)) d[l] = v;
      return;
    }
    for (int l : lanes(m)) d[l] = trunc_bytes(value(w, s, static_cast<unsigned>(l)), bytes);
    return;
  }
  for (int li : lanes(m)) {
    const unsigned l = static_cast<unsigned>(li);
    switch (in.op) {
      case Opcode::kMov:
        if (in.ndst > 1) {
          // Unpack: mov.b64 {lo, hi}, %rd
          std::uint64_t v = value(w, in.src[0], l);
          unsigned part = bytes / in.ndst;
          for (unsigned k = 0; k < in.ndst; ++k)
            if (in.dst[k] != kNoReg) w.reg(in.dst[k])[l] = trunc_bytes(v >> (8 * part * k), part);
        } else if (in.nsrc > 1) {
          // Pack: mov.b64 %rd, {lo, hi}
          unsigned part = bytes / in.nsrc;
          std::uint64_t v = 0;
          for (unsigned k = 0; k < in.nsrc; ++k)
            v |= trunc_bytes(value(w, in.src[k], l), part) << (8 * part * k);
          if (in.dst[0] != kNoReg) w.reg(in.dst[0])[l] = v;
        } else if (in.dst[0] != kNoReg) {
          w.reg(in.dst[0])[l] = trunc_bytes(value(w, in.src[0], l), bytes);
        }
        break;
      case Opcode::kCvta: {
        std::uint64_t v = value(w, in.src[0], l);
        Addr window = a.space == ptx::Space::kShared ? kSharedWindow
                      : a.space == ptx::Space::kLocal ? kLocalWindow
                                                      : 0;
        // cvta.to.space: generic -> space; cvta.space: space -> generic.
        v = a.to ? v - window : v + window;
        if (in.dst[0] != kNoReg) w.reg(in.dst[0])[l] = trunc_bytes(v, bytes);
        break;
      }
      case Opcode::kIsspacep: {
        std::uint64_t v = value(w, in.src[0], l);
        bool sh = v >= kSharedWindow && v < kSharedWindow + kWindowSize;
        bool lo = v >= kLocalWindow && v < kLocalWindow + kWindowSize;
        bool r = a.space == ptx::Space::kShared ? sh
                 : a.space == ptx::Space::kLocal ? lo
                                                 : !sh && !lo;
        if (in.dst[0] != kNoReg) w.reg(in.dst[0])[l] = r;
        break;
      }
      default: break;
    }
  }
}

void Executor::exec_cvt(Warp& w, const ExecInst& in, LaneMask m) {
  const ptx::InstAttrs& a = in.a;
  const DType dt = a.type, st = a.stype;
  const unsigned db = ptx::dtype_bytes(dt), sb = ptx::dtype_bytes(st);
  const bool dfloat = ptx::dtype_is_float(dt), sfloat = ptx::dtype_is_float(st);
  std::uint64_t* d = in.dst[0] == kNoReg ? nullptr : w.reg(in.dst[0]);
  for (int li : lanes(m)) {
    const unsigned l = static_cast<unsigned>(li);
    std::uint64_t x = value(w, in.src[0], l);
    std::uint64_t r = 0;
    if (dt == DType::kF16x2 || dt == DType::kBf16x2) {
      // cvt.rn.f16x2.f32 d, hi, lo
      float hi = as_f32(x), lo = as_f32(in.nsrc > 1 ? value(w, in.src[1], l) : 0);
      bool bf = dt == DType::kBf16x2;
      r = (std::uint64_t{bf ? float_to_bf16(hi) : float_to_half(hi)} << 16) |
          (bf ? float_to_bf16(lo) : float_to_half(lo));
    } else if (!dfloat && !sfloat) {
      std::int64_t v = ptx::dtype_is_signed(st) ? sext_bytes(x, sb)
                                                : static_cast<std::int64_t>(trunc_bytes(x, sb));
      if (a.sat) {
        const unsigned bits = 8 * db;
        if (ptx::dtype_is_signed(dt)) {
          std::int64_t lo = bits >= 64 ? INT64_MIN : -(std::int64_t{1} << (bits - 1));
          std::int64_t hi = bits >= 64 ? INT64_MAX : (std::int64_t{1} << (bits - 1)) - 1;
          if (!ptx::dtype_is_signed(st) && sb == 8 && static_cast<std::uint64_t>(v) > static_cast<std::uint64_t>(hi))
            v = hi;
          v = std::min(std::max(v, lo), hi);
        } else {
          if (ptx::dtype_is_signed(st) && v < 0) v = 0;
          if (bits < 64 && static_cast<std::uint64_t>(v) > (std::uint64_t{1} << bits) - 1)
            v = static_cast<std::int64_t>((std::uint64_t{1} << bits) - 1);
        }
      }
      r = trunc_bytes(static_cast<std::uint64_t>(v), db);
      // A narrower signed destination held in a wider register is sign-extended (cvt.s8.s32 etc.).
      if (ptx::dtype_is_signed(dt) && db < 8) r = static_cast<std::uint64_t>(sext_bytes(r, db));
    } else if (dfloat && !sfloat) {
      DirectedRounding dr(a.rounding);
      double v = ptx::dtype_is_signed(st) ? static_cast<double>(sext_bytes(x, sb))
                                          : static_cast<double>(trunc_bytes(x, sb));
      if (dt == DType::kF32) {
        // Round the integer to single precision directly (double rounding is exact for <=53 bits).
        float f = ptx::dtype_is_signed(st) ? static_cast<float>(sext_bytes(x, sb))
                                           : static_cast<float>(trunc_bytes(x, sb));
        r = bits_f32(f);
      } else {
        r = from_double(v, dt);
      }
    } else if (!dfloat && sfloat) {
      double v = to_double(x, st);
      if (a.ftz && st == DType::kF32) v = ftz(static_cast<float>(v));
      r = float_to_int(v, a.rounding, dt);
    } else {
      DirectedRounding dr(dt == DType::kF32 && st == DType::kF64 ? a.rounding : std::nullopt);
      double v = to_double(x, st);
      if (a.ftz && st == DType::kF32) v = ftz(static_cast<float>(v));
      if (a.rounding) {
        switch (*a.rounding) {
          case Mod::kRni: v = std::nearbyint(v); break;
          case Mod::kRzi: v = std::trunc(v); break;
          case Mod::kRmi: v = std::floor(v); break;
          case Mod::kRpi: v = std::ceil(v); break;
          default: break;
        }
      }
      if (a.sat) v = std::isnan(v) ? 0 : std::min(std::max(v, 0.0), 1.0);
      r = from_double(v, dt);
      if (a.ftz && dt == DType::kF32) r = bits_f32(ftz(as_f32(r)));
    }
    if (d) d[l] = r;
  }
}

}  // namespace simtsync::func
