// Integer and logic instruction semantics (PTX ISA: wrap-around arithmetic, .sat, .hi/.lo/.wide).
#include <fmt/format.h>

#include <bit>
#include <limits>

#include "func/bits.h"
#include "func/executor.h"

namespace simtsync::func {

using ptx::Opcode;

namespace {

std::uint64_t mul_hi_u64(std::uint64_t a, std::uint64_t b) {
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
}
std::uint64_t mul_hi_s64(std::int64_t a, std::int64_t b) {
  return static_cast<std::uint64_t>(static_cast<__int128>(a) * b >> 64);
}

std::int64_t clamp_s32(std::int64_t v) {
  return std::min<std::int64_t>(std::max<std::int64_t>(v, std::numeric_limits<std::int32_t>::min()),
                                std::numeric_limits<std::int32_t>::max());
}

// Full product, then the half the instruction asks for. Results are raw bits.
std::uint64_t multiply(const ptx::InstAttrs& a, std::uint64_t x, std::uint64_t y, unsigned bytes,
                       bool sgn) {
  if (bytes >= 8) {
    if (a.hi) return sgn ? mul_hi_s64(static_cast<std::int64_t>(x), static_cast<std::int64_t>(y))
                         : mul_hi_u64(x, y);
    return x * y;
  }
  std::uint64_t full = sgn ? static_cast<std::uint64_t>(sext_bytes(x, bytes) * sext_bytes(y, bytes))
                           : trunc_bytes(x, bytes) * trunc_bytes(y, bytes);
  if (a.wide) return trunc_bytes(full, 2 * bytes);
  if (a.hi) return trunc_bytes(full >> (8 * bytes), bytes);
  return trunc_bytes(full, bytes);
}

// PTX ISA pseudo-code: bit i of d is a[pos+i] while inside both the field and the operand,
// otherwise the sign bit (signed types) or 0.
std::uint64_t bfe(std::uint64_t a, unsigned pos, unsigned len, unsigned bits, bool sgn) {
  pos &= 0xff;
  len &= 0xff;
  const bool sbit = sgn && len > 0 && ((a >> std::min(pos + len - 1, bits - 1)) & 1);
  std::uint64_t r = 0;
  for (unsigned i = 0; i < bits; ++i) {
    const bool bit = (i < len && pos + i < bits) ? ((a >> (pos + i)) & 1) : sbit;
    r |= std::uint64_t{bit} << i;
  }
  return r;
}

std::uint64_t bfi(std::uint64_t a, std::uint64_t b, unsigned pos, unsigned len, unsigned bits) {
  pos &= 0xff;
  len &= 0xff;
  if (len == 0 || pos >= bits) return b;
  std::uint64_t mask = len >= 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << len) - 1);
  mask <<= pos;
  return trunc_bytes((b & ~mask) | ((a << pos) & mask), bits / 8);
}

std::uint32_t prmt(std::uint32_t a, std::uint32_t b, std::uint32_t c, const ptx::Instruction* ir) {
  std::uint64_t x = (std::uint64_t{b} << 32) | a;
  auto byte = [&](unsigned i) { return static_cast<std::uint32_t>((x >> (8 * (i & 7))) & 0xff); };
  std::uint32_t r = 0;
  std::optional<ptx::Mod> mode;
  if (ir)
    for (auto m : ir->mods)
      if (ptx::mod_category(m) == ptx::ModCategory::kPrmt) mode = m;
  if (!mode) {
    for (unsigned i = 0; i < 4; ++i) {
      unsigned sel = (c >> (4 * i)) & 0xf;
      std::uint32_t v = byte(sel & 7);
      if (sel & 8) v = (v & 0x80) ? 0xff : 0;
      r |= v << (8 * i);
    }
    return r;
  }
  unsigned s = c & 3;
  unsigned idx[4];
  switch (*mode) {
    case ptx::Mod::kF4e: for (unsigned i = 0; i < 4; ++i) idx[i] = (s + i) & 7; break;
    case ptx::Mod::kB4e: for (unsigned i = 0; i < 4; ++i) idx[i] = (s + 8 - i) & 7; break;
    case ptx::Mod::kRc8: for (unsigned i = 0; i < 4; ++i) idx[i] = s; break;
    case ptx::Mod::kEcl: for (unsigned i = 0; i < 4; ++i) idx[i] = std::max(i, s); break;
    case ptx::Mod::kEcr: for (unsigned i = 0; i < 4; ++i) idx[i] = std::min(i, s); break;
    default:  // rc16
      for (unsigned i = 0; i < 4; ++i) idx[i] = ((s & 1) * 2) + (i & 1);
  }
  for (unsigned i = 0; i < 4; ++i) r |= byte(idx[i]) << (8 * i);
  return r;
}

// Fast paths for the most frequent operations (add, sub, mul, mad, and, or without .sat, .cc
// or a predicate type): each lane's result straight into `d`, one dispatch per warp
// instruction. False when `in` is not one of them.
template <class SrcFn>
inline bool int_fast_path(const ExecInst& in, LaneMask m, std::uint64_t* d, unsigned bytes,
                          bool sgn, SrcFn& src) {
  const ptx::InstAttrs& a = in.a;
  auto each = [&](auto op) {
    for (int li : lanes(m)) {
      const unsigned l = static_cast<unsigned>(li);
      d[l] = op(src(0, l), in.nsrc > 1 ? src(1, l) : 0, in.nsrc > 2 ? src(2, l) : 0);
    }
  };
  switch (in.op) {
    case Opcode::kAdd:
      each([&](std::uint64_t x, std::uint64_t y, std::uint64_t) {
        return trunc_bytes(x + y, bytes);
      });
      return true;
    case Opcode::kSub:
      each([&](std::uint64_t x, std::uint64_t y, std::uint64_t) {
        return trunc_bytes(x - y, bytes);
      });
      return true;
    case Opcode::kMul:
      each([&](std::uint64_t x, std::uint64_t y, std::uint64_t) {
        return multiply(a, x, y, bytes, sgn);
      });
      return true;
    case Opcode::kMad:
      each([&](std::uint64_t x, std::uint64_t y, std::uint64_t z) {
        return trunc_bytes(multiply(a, x, y, bytes, sgn) + z, a.wide ? 2 * bytes : bytes);
      });
      return true;
    case Opcode::kAnd:
      each([&](std::uint64_t x, std::uint64_t y, std::uint64_t) {
        return trunc_bytes(x & y, bytes);
      });
      return true;
    case Opcode::kOr:
      each([&](std::uint64_t x, std::uint64_t y, std::uint64_t) {
        return trunc_bytes(x | y, bytes);
      });
      return true;
    default:
      return false;
  }
}

// add/addc of one lane (.sat: clamped to 32 bits); with .cc, the carry out into `carry`.
inline std::uint64_t add_lane(const ptx::InstAttrs& a, std::int64_t sx, std::int64_t sy,
                              std::uint64_t ux, std::uint64_t uy, unsigned bytes, bool sgn,
                              std::uint64_t carry_in, std::uint8_t& carry) {
  const unsigned bits = 8 * bytes;
  std::uint64_t r = 0;
  if (a.sat && sgn) {
    r = static_cast<std::uint64_t>(clamp_s32(sx + sy));
  } else {
    r = ux + uy + carry_in;
  }
  if (a.cc)
    carry =
        static_cast<std::uint8_t>(bytes >= 8 ? (r < ux || (carry_in && r == ux)) : (r >> bits) & 1);
  return trunc_bytes(r, bytes);
}

// sub/subc of one lane (.sat: clamped to 32 bits); with .cc, the borrow out into `carry`.
inline std::uint64_t sub_lane(const ptx::InstAttrs& a, std::int64_t sx, std::int64_t sy,
                              std::uint64_t ux, std::uint64_t uy, unsigned bytes, bool sgn,
                              std::uint64_t borrow, std::uint8_t& carry) {
  std::uint64_t r = 0;
  if (a.sat && sgn) {
    r = static_cast<std::uint64_t>(clamp_s32(sx - sy));
  } else {
    r = ux - uy - borrow;
  }
  if (a.cc) carry = static_cast<std::uint8_t>(ux < uy + borrow);
  return trunc_bytes(r, bytes);
}

// mad/madc of one lane: the product's half (multiply) plus z and the carry in.
inline std::uint64_t mad_lane(const ptx::InstAttrs& a, std::uint64_t x, std::uint64_t y,
                              std::uint64_t z, unsigned bytes, bool sgn, std::uint64_t carry_in) {
  std::uint64_t r = 0;
  std::uint64_t p = multiply(a, x, y, bytes, sgn);
  unsigned rb = a.wide ? 2 * bytes : bytes;
  if (a.sat && sgn && a.hi) {
    r = static_cast<std::uint64_t>(clamp_s32(sext_bytes(p, 4) + sext_bytes(z, 4)));
  } else {
    r = p + z + carry_in;
  }
  return trunc_bytes(r, rb);
}

// mul24/mad24 of one lane: the product of the low 24 bits (.hi: from bit 16), plus z for mad24.
inline std::uint64_t mul24_lane(const ptx::InstAttrs& a, std::uint64_t x, std::uint64_t y,
                                std::uint64_t z, bool sgn, bool mad) {
  std::int64_t p = sgn ? sext_bytes(x & 0xffffff, 3) * sext_bytes(y & 0xffffff, 3)
                       : static_cast<std::int64_t>((x & 0xffffff) * (y & 0xffffff));
  std::uint64_t up = static_cast<std::uint64_t>(p);
  std::uint64_t r = a.hi ? (up >> 16) : up;
  if (mad) r += z;
  return trunc_bytes(r, 4);
}

// sad of one lane: |x - y| + z.
inline std::uint64_t sad_lane(std::int64_t sx, std::int64_t sy, std::uint64_t ux, std::uint64_t uy,
                              std::uint64_t z, unsigned bytes, bool sgn) {
  const std::uint64_t diff =
      sgn ? static_cast<std::uint64_t>(sx > sy ? sx - sy : sy - sx) : (ux > uy ? ux - uy : uy - ux);
  return trunc_bytes(diff + z, bytes);
}

// div of one lane.
inline std::uint64_t div_lane(std::int64_t sx, std::int64_t sy, std::uint64_t ux, std::uint64_t uy,
                              unsigned bytes, bool sgn) {
  if (uy == 0) {
    return trunc_bytes(~std::uint64_t{0}, bytes);  // what the hardware sequence returns
  } else if (sgn) {
    // x / -1 is the two's-complement negation: INT_MIN / -1 wraps to INT_MIN (the PTX
    // ISA does not define the overflowing quotient; simtsync chooses the wrap),
    // computed unsigned so that it is not C++ signed overflow.
    return (sy == -1) ? trunc_bytes(std::uint64_t{0} - static_cast<std::uint64_t>(sx), bytes)
                      : trunc_bytes(static_cast<std::uint64_t>(sx / sy), bytes);
  } else {
    return ux / uy;
  }
}

// rem of one lane (by zero: the dividend).
inline std::uint64_t rem_lane(std::int64_t sx, std::int64_t sy, std::uint64_t ux, std::uint64_t uy,
                              unsigned bytes, bool sgn) {
  if (uy == 0) {
    return ux;
  } else if (sgn) {
    return sy == -1 ? 0 : trunc_bytes(static_cast<std::uint64_t>(sx % sy), bytes);
  } else {
    return ux % uy;
  }
}

// bfind of one lane: the most significant non-sign bit (.shiftamt: as a left shift amount).
inline std::uint64_t bfind_lane(const ptx::InstAttrs& a, const ptx::Instruction* ir,
                                std::uint64_t x, std::int64_t sx, std::uint64_t ux, unsigned bytes,
                                bool sgn) {
  const unsigned bits = 8 * bytes;
  std::uint64_t r = 0;
  std::uint64_t v = sgn && sx < 0 ? trunc_bytes(~x, bytes) : ux;
  if (v == 0) {
    r = 0xffffffffu;
  } else {
    unsigned msb = 63 - static_cast<unsigned>(std::countl_zero(v));
    r = a.to ? msb : msb;
    if (ir && ir->has(ptx::Mod::kShiftamt)) r = bits - 1 - msb;
  }
  return r;
}

// brev: the low `bits` bits of ux reversed.
inline std::uint64_t brev(std::uint64_t ux, unsigned bits) {
  std::uint64_t v = 0;
  for (unsigned i = 0; i < bits; ++i)
    if ((ux >> i) & 1) v |= std::uint64_t{1} << (bits - 1 - i);
  return v;
}

// lop3: bit i of the result is bit (x_i y_i z_i) of the truth table `lut`.
inline std::uint64_t lop3(std::uint64_t x, std::uint64_t y, std::uint64_t z, std::uint64_t lut,
                          unsigned bits) {
  std::uint64_t v = 0;
  for (unsigned i = 0; i < bits; ++i) {
    unsigned k = static_cast<unsigned>(((x >> i) & 1) << 2 | ((y >> i) & 1) << 1 | ((z >> i) & 1));
    v |= ((lut >> k) & 1) << i;
  }
  return v;
}

// shr of one lane: arithmetic for signed types (shifts past the width give the sign), else
// logical.
inline std::uint64_t shr_lane(std::int64_t sx, std::uint64_t ux, std::uint64_t y, unsigned bytes,
                              bool sgn) {
  const unsigned bits = 8 * bytes;
  std::uint64_t s = trunc_bytes(y, 4);
  if (sgn) {
    return trunc_bytes(static_cast<std::uint64_t>(sx >> std::min<std::uint64_t>(s, bits - 1)),
                       bytes);
  } else {
    return s >= bits ? 0 : ux >> s;
  }
}

// shf of one lane: the funnel shift of the 64-bit pair (y:x) by z.
inline std::uint64_t shf(const ptx::Instruction* ir, std::uint64_t x, std::uint64_t y,
                         std::uint64_t z) {
  // shf.{l,r}.{clamp,wrap}.b32 d, a(lo), b(hi), c
  std::uint64_t n = trunc_bytes(z, 4);
  n = ir && ir->has(ptx::Mod::kClamp) ? std::min<std::uint64_t>(n, 32) : (n & 31);
  std::uint64_t v = (trunc_bytes(y, 4) << 32) | trunc_bytes(x, 4);
  bool left = ir && ir->has(ptx::Mod::kLeft);
  return left ? trunc_bytes((v << n) >> 32, 4) : trunc_bytes(v >> n, 4);
}

// dp4a: z plus the dot product of the four bytes of x (signed if sa) and y (signed if sb).
inline std::uint64_t dp4a(std::uint64_t x, std::uint64_t y, std::uint64_t z, bool sa, bool sb) {
  std::int64_t acc = sext_bytes(z, 4);
  for (unsigned i = 0; i < 4; ++i) {
    std::uint64_t ea = (x >> (8 * i)) & 0xff, eb = (y >> (8 * i)) & 0xff;
    acc += (sa ? sext_bytes(ea, 1) : static_cast<std::int64_t>(ea)) *
           (sb ? sext_bytes(eb, 1) : static_cast<std::int64_t>(eb));
  }
  return trunc_bytes(static_cast<std::uint64_t>(acc), 4);
}

// bmsk: a mask of y bits starting at bit x (32-bit).
inline std::uint64_t bmsk(std::uint64_t x, std::uint64_t y) {
  std::uint64_t pos = x & 0xff, len = y & 0xff;
  std::uint64_t mask = len >= 32 ? 0xffffffffu : ((std::uint64_t{1} << len) - 1);
  return pos >= 32 ? 0 : trunc_bytes(mask << pos, 4);
}

// szext: the low y bits of x, sign- or zero-extended to 32 bits.
inline std::uint64_t szext(std::uint64_t x, std::uint64_t y, bool sgn) {
  std::uint64_t n = std::min<std::uint64_t>(y & 0xff, 32);
  if (n == 0) return 0;
  return sgn ? trunc_bytes(static_cast<std::uint64_t>(sext_bytes(x << (64 - n), 8) >> (64 - n)), 4)
             : trunc_bytes(x & ((std::uint64_t{1} << n) - 1), 4);
}

// One lane's operands of an integer instruction: raw (x, y, z), and x and y sign-extended
// (sx, sy) and truncated (ux, uy) to the type's width.
struct IntArgs {
  std::uint64_t x, y, z;
  std::int64_t sx, sy;
  std::uint64_t ux, uy;
};
template <class SrcFn>
inline IntArgs int_args(const ExecInst& in, unsigned l, unsigned bytes, SrcFn& src) {
  const std::uint64_t x = in.nsrc > 0 ? src(0, l) : 0;
  const std::uint64_t y = in.nsrc > 1 ? src(1, l) : 0;
  const std::uint64_t z = in.nsrc > 2 ? src(2, l) : 0;
  const std::int64_t sx = sext_bytes(x, bytes), sy = sext_bytes(y, bytes);
  const std::uint64_t ux = trunc_bytes(x, bytes), uy = trunc_bytes(y, bytes);
  return {x, y, z, sx, sy, ux, uy};
}

// The general loop for arithmetic (add .. max in Executor::exec_int's switch), one lane at a
// time; `put(lane, value)` writes the result.
template <class SrcFn, class PutFn>
inline void int_arith_lanes(Warp& w, const ExecInst& in, LaneMask m, unsigned bytes, bool sgn,
                            SrcFn& src, PutFn& put) {
  const ptx::InstAttrs& a = in.a;
  for (int li : lanes(m)) {
    const unsigned l = static_cast<unsigned>(li);
    const auto [x, y, z, sx, sy, ux, uy] = int_args(in, l, bytes, src);
    std::uint64_t r = 0;
    switch (in.op) {
      case Opcode::kAdd:
      case Opcode::kAddc:
        r = add_lane(a, sx, sy, ux, uy, bytes, sgn, in.op == Opcode::kAddc ? w.carry[l] : 0,
                     w.carry[l]);
        break;
      case Opcode::kSub:
      case Opcode::kSubc:
        r = sub_lane(a, sx, sy, ux, uy, bytes, sgn, in.op == Opcode::kSubc ? w.carry[l] : 0,
                     w.carry[l]);
        break;
      case Opcode::kMul:
        r = multiply(a, x, y, bytes, sgn);
        break;
      case Opcode::kMad:
      case Opcode::kMadc:
        r = mad_lane(a, x, y, z, bytes, sgn, in.op == Opcode::kMadc ? w.carry[l] : 0);
        break;
      case Opcode::kMul24:
      case Opcode::kMad24:
        r = mul24_lane(a, x, y, z, sgn, in.op == Opcode::kMad24);
        break;
      case Opcode::kSad:
        r = sad_lane(sx, sy, ux, uy, z, bytes, sgn);
        break;
      case Opcode::kDiv:
        r = div_lane(sx, sy, ux, uy, bytes, sgn);
        break;
      case Opcode::kRem:
        r = rem_lane(sx, sy, ux, uy, bytes, sgn);
        break;
      // abs and neg of the most negative value wrap to that value (two's complement, as the
      // hardware does); negated unsigned, so without C++ signed overflow.
      case Opcode::kAbs: {
        const auto u = static_cast<std::uint64_t>(sx);
        r = trunc_bytes(sx < 0 ? std::uint64_t{0} - u : u, bytes);
        break;
      }
      case Opcode::kNeg:
        r = trunc_bytes(std::uint64_t{0} - static_cast<std::uint64_t>(sx), bytes);
        break;
      case Opcode::kMin:
        r = trunc_bytes(sgn ? static_cast<std::uint64_t>(std::min(sx, sy)) : std::min(ux, uy),
                        bytes);
        break;
      case Opcode::kMax:
        r = trunc_bytes(sgn ? static_cast<std::uint64_t>(std::max(sx, sy)) : std::max(ux, uy),
                        bytes);
        break;
      default:
        break;
    }
    put(l, r);
  }
}

// The general loop for bit, logic and shift operations, one lane at a time; `put(lane, value)`
// writes the result, `unsupported(lane)` faults on any other opcode.
template <class SrcFn, class PutFn, class FaultFn>
inline void int_bit_lanes(const ExecInst& in, LaneMask m, unsigned bytes, bool sgn, bool pred,
                          SrcFn& src, PutFn& put, FaultFn& unsupported) {
  const unsigned bits = 8 * bytes;
  for (int li : lanes(m)) {
    const unsigned l = static_cast<unsigned>(li);
    const auto [x, y, z, sx, sy, ux, uy] = int_args(in, l, bytes, src);
    std::uint64_t r = 0;
    switch (in.op) {
      case Opcode::kPopc:
        r = static_cast<std::uint64_t>(std::popcount(ux));
        break;
      case Opcode::kClz:
        r = static_cast<std::uint64_t>(std::countl_zero(ux) - (64 - static_cast<int>(bits)));
        break;
      case Opcode::kBfind:
        r = bfind_lane(in.a, in.ir, x, sx, ux, bytes, sgn);
        break;
      case Opcode::kBrev:
        r = brev(ux, bits);
        break;
      case Opcode::kBfe:
        r = bfe(x, static_cast<unsigned>(y), static_cast<unsigned>(z), bits, sgn);
        break;
      case Opcode::kBfi:
        r = bfi(x, y, static_cast<unsigned>(z), static_cast<unsigned>(src(3, l)), bits);
        break;
      case Opcode::kAnd:
        r = pred ? (x & y & 1) : trunc_bytes(x & y, bytes);
        break;
      case Opcode::kOr:
        r = pred ? ((x | y) & 1) : trunc_bytes(x | y, bytes);
        break;
      case Opcode::kXor:
        r = pred ? ((x ^ y) & 1) : trunc_bytes(x ^ y, bytes);
        break;
      case Opcode::kNot:
        r = pred ? (x & 1) ^ 1 : trunc_bytes(~x, bytes);
        break;
      case Opcode::kCnot:
        r = ux == 0 ? 1 : 0;
        break;
      case Opcode::kLop3:
        r = lop3(x, y, z, src(3, l) & 0xff, bits);
        break;
      case Opcode::kShl: {
        std::uint64_t s = trunc_bytes(y, 4);
        r = s >= bits ? 0 : trunc_bytes(ux << s, bytes);
        break;
      }
      case Opcode::kShr:
        r = shr_lane(sx, ux, y, bytes, sgn);
        break;
      case Opcode::kShf:
        r = shf(in.ir, x, y, z);
        break;
      case Opcode::kPrmt:
        r = prmt(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y),
                 static_cast<std::uint32_t>(z), in.ir);
        break;
      case Opcode::kDp4a:
        r = dp4a(x, y, z, sgn, ptx::dtype_is_signed(in.a.stype));
        break;
      case Opcode::kBmsk:
        r = bmsk(x, y);
        break;
      case Opcode::kSzext:
        r = szext(x, y, sgn);
        break;
      default:
        unsupported(l);
    }
    put(l, r);
  }
}

}  // namespace

void Executor::exec_int(Warp& w, const ExecInst& in, LaneMask m) {
  const ptx::InstAttrs& a = in.a;
  const unsigned bytes = std::max(1u, ptx::dtype_bytes(a.type));
  const bool sgn = ptx::dtype_is_signed(a.type);
  const bool pred = a.type == ptx::DType::kPred;
  std::uint64_t* d = in.dst[0] == kNoReg ? nullptr : w.reg(in.dst[0]);
  auto src = [&](int k, unsigned lane) { return value(w, in.src[k], lane); };
  auto put = [&](unsigned lane, std::uint64_t v) {
    if (d) d[lane] = v;
  };
  auto unsupported = [&](unsigned lane) {
    fault(w, lane, in,
          fmt::format("integer opcode '{}' with type .{} is not supported", ptx::opcode_name(in.op),
                      ptx::dtype_name(a.type)));
  };

  // Fast paths for the most frequent operations: one dispatch per warp instruction instead of
  // one per lane (same results as the general loop below).
  if (d && !a.sat && !a.cc && !pred && int_fast_path(in, m, d, bytes, sgn, src)) return;
  // The general loop, by instruction group.
  switch (in.op) {
    case Opcode::kAdd:
    case Opcode::kAddc:
    case Opcode::kSub:
    case Opcode::kSubc:
    case Opcode::kMul:
    case Opcode::kMad:
    case Opcode::kMadc:
    case Opcode::kMul24:
    case Opcode::kMad24:
    case Opcode::kSad:
    case Opcode::kDiv:
    case Opcode::kRem:
    case Opcode::kAbs:
    case Opcode::kNeg:
    case Opcode::kMin:
    case Opcode::kMax:
      int_arith_lanes(w, in, m, bytes, sgn, src, put);
      break;
    default:
      int_bit_lanes(in, m, bytes, sgn, pred, src, put, unsupported);
  }
}

}  // namespace simtsync::func
