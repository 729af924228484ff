// Integer and logic instruction semantics against host-computed values (PTX ISA 9.0 rules:
// wrap-around, .sat, .hi/.lo/.wide, signed vs unsigned, shift amounts >= width).
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <limits>

#include "func_test_util.h"

namespace simtsync::func::testing {
namespace {

using u32 = std::uint32_t;
using s32 = std::int32_t;
using u64 = std::uint64_t;
using s64 = std::int64_t;

constexpr s32 kMin32 = std::numeric_limits<s32>::min();
constexpr s32 kMax32 = std::numeric_limits<s32>::max();
constexpr s64 kMin64 = std::numeric_limits<s64>::min();
constexpr s64 kMax64 = std::numeric_limits<s64>::max();

std::vector<Row> pairs32() {
  return {{w32(0), w32(0), w32(0)},          {w32(1), w32(-1), w32(5)},
          {w32(kMax32), w32(1), w32(0)},     {w32(kMin32), w32(-1), w32(7)},
          {w32(kMin32), w32(kMin32), w32(1)}, {w32(123456), w32(-789), w32(3)},
          {w32(-1), w32(-1), w32(-1)},       {w32(-7), w32(2), w32(100)},
          {w32(0x12345678), w32(0x9abcdef0), w32(0x0f0f0f0f)}};
}

TEST(IntSemantics, AddSubMul32) {
  auto o = run_body(R"(
  add.s32 %r10, %r1, %r2;      st.global.u32 [%rd3], %r10;
  sub.s32 %r11, %r1, %r2;      st.global.u32 [%rd3+8], %r11;
  mul.lo.s32 %r12, %r1, %r2;   st.global.u32 [%rd3+16], %r12;
  mul.hi.s32 %r13, %r1, %r2;   st.global.u32 [%rd3+24], %r13;
  mul.hi.u32 %r14, %r1, %r2;   st.global.u32 [%rd3+32], %r14;
  mul.wide.s32 %rd20, %r1, %r2; st.global.u64 [%rd3+40], %rd20;
  mul.wide.u32 %rd21, %r1, %r2; st.global.u64 [%rd3+48], %rd21;
  mad.lo.s32 %r15, %r1, %r2, %r3; st.global.u32 [%rd3+56], %r15;
)", pairs32());
  auto rows = pairs32();
  for (unsigned t = 0; t < rows.size(); ++t) {
    u32 a = static_cast<u32>(rows[t][0]), b = static_cast<u32>(rows[t][1]),
        c = static_cast<u32>(rows[t][2]);
    s64 sa = static_cast<s32>(a), sb = static_cast<s32>(b);
    SCOPED_TRACE(t);
    EXPECT_EQ(o.u32(t, 0), a + b);
    EXPECT_EQ(o.u32(t, 1), a - b);
    EXPECT_EQ(o.u32(t, 2), a * b);
    EXPECT_EQ(o.u32(t, 3), static_cast<u32>(static_cast<u64>(sa * sb) >> 32));
    EXPECT_EQ(o.u32(t, 4), static_cast<u32>((u64{a} * b) >> 32));
    EXPECT_EQ(o.at(t, 5), static_cast<u64>(sa * sb));
    EXPECT_EQ(o.at(t, 6), u64{a} * b);
    EXPECT_EQ(o.u32(t, 7), a * b + c);
  }
}

TEST(IntSemantics, AddSubMul64) {
  std::vector<Row> rows = {{w64(0), w64(0), w64(0)},
                           {w64(kMax64), w64(1), w64(2)},
                           {w64(kMin64), w64(-1), w64(-1)},
                           {w64(-3), w64(0x7fffffffffLL), w64(9)},
                           {0xffffffffffffffffULL, 0xffffffffffffffffULL, 1},
                           {0x123456789abcdef0ULL, 0xfedcba9876543210ULL, 5}};
  auto o = run_body(R"(
  add.s64 %rd20, %rd10, %rd11;      st.global.u64 [%rd3], %rd20;
  sub.s64 %rd21, %rd10, %rd11;      st.global.u64 [%rd3+8], %rd21;
  mul.lo.u64 %rd22, %rd10, %rd11;   st.global.u64 [%rd3+16], %rd22;
  mul.hi.s64 %rd23, %rd10, %rd11;   st.global.u64 [%rd3+24], %rd23;
  mul.hi.u64 %rd24, %rd10, %rd11;   st.global.u64 [%rd3+32], %rd24;
  mad.lo.s64 %rd25, %rd10, %rd11, %rd12; st.global.u64 [%rd3+40], %rd25;
  mad.wide.s32 %rd26, %r1, %r2, %rd12;   st.global.u64 [%rd3+48], %rd26;
  mad.wide.u32 %rd27, %r1, %r2, %rd12;   st.global.u64 [%rd3+56], %rd27;
)", rows);
  for (unsigned t = 0; t < rows.size(); ++t) {
    u64 a = rows[t][0], b = rows[t][1], c = rows[t][2];
    SCOPED_TRACE(t);
    EXPECT_EQ(o.at(t, 0), a + b);
    EXPECT_EQ(o.at(t, 1), a - b);
    EXPECT_EQ(o.at(t, 2), a * b);
    EXPECT_EQ(o.at(t, 3), static_cast<u64>((static_cast<__int128>(static_cast<s64>(a)) *
                                             static_cast<s64>(b)) >> 64));
    EXPECT_EQ(o.at(t, 4), static_cast<u64>((static_cast<unsigned __int128>(a) * b) >> 64));
    EXPECT_EQ(o.at(t, 5), a * b + c);
    s64 sa = static_cast<s32>(static_cast<u32>(a)), sb = static_cast<s32>(static_cast<u32>(b));
    EXPECT_EQ(o.at(t, 6), static_cast<u64>(sa * sb) + c);
    EXPECT_EQ(o.at(t, 7), u64{static_cast<u32>(a)} * static_cast<u32>(b) + c);
  }
}

s32 sat32(s64 v) { return static_cast<s32>(std::clamp<s64>(v, kMin32, kMax32)); }

TEST(IntSemantics, SaturatingAddSub) {
  std::vector<Row> rows = {{w32(kMax32), w32(1), 0},  {w32(kMin32), w32(-1), 0},
                           {w32(kMax32), w32(kMax32), 0}, {w32(-5), w32(3), 0},
                           {w32(kMin32), w32(kMin32), 0}};
  auto o = run_body(R"(
  add.sat.s32 %r10, %r1, %r2; st.global.u32 [%rd3], %r10;
  sub.sat.s32 %r11, %r1, %r2; st.global.u32 [%rd3+8], %r11;
)", rows);
  for (unsigned t = 0; t < rows.size(); ++t) {
    s64 a = static_cast<s32>(rows[t][0]), b = static_cast<s32>(rows[t][1]);
    SCOPED_TRACE(t);
    EXPECT_EQ(o.s32(t, 0), sat32(a + b));
    EXPECT_EQ(o.s32(t, 1), sat32(a - b));
  }
}

TEST(IntSemantics, DivRemSignedUnsigned) {
  std::vector<Row> rows = {{w32(7), w32(2), 0},   {w32(-7), w32(2), 0}, {w32(7), w32(-2), 0},
                           {w32(-7), w32(-2), 0}, {w32(0), w32(5), 0},  {w32(-1), w32(3), 0},
                           {w32(kMax32), w32(-1), 0}};
  auto o = run_body(R"(
  div.s32 %r10, %r1, %r2; st.global.u32 [%rd3], %r10;
  rem.s32 %r11, %r1, %r2; st.global.u32 [%rd3+8], %r11;
  div.u32 %r12, %r1, %r2; st.global.u32 [%rd3+16], %r12;
  rem.u32 %r13, %r1, %r2; st.global.u32 [%rd3+24], %r13;
  cvt.s64.s32 %rd20, %r1;
  cvt.s64.s32 %rd21, %r2;
  div.s64 %rd22, %rd20, %rd21; st.global.u64 [%rd3+32], %rd22;
  rem.s64 %rd23, %rd20, %rd21; st.global.u64 [%rd3+40], %rd23;
  div.u64 %rd24, %rd10, %rd11; st.global.u64 [%rd3+48], %rd24;
  rem.u64 %rd25, %rd10, %rd11; st.global.u64 [%rd3+56], %rd25;
)", rows);
  for (unsigned t = 0; t < rows.size(); ++t) {
    u32 a = static_cast<u32>(rows[t][0]), b = static_cast<u32>(rows[t][1]);
    s32 sa = static_cast<s32>(a), sb = static_cast<s32>(b);
    SCOPED_TRACE(t);
    EXPECT_EQ(o.s32(t, 0), sa / sb);
    EXPECT_EQ(o.s32(t, 1), sa % sb);
    EXPECT_EQ(o.u32(t, 2), a / b);
    EXPECT_EQ(o.u32(t, 3), a % b);
    EXPECT_EQ(static_cast<s64>(o.at(t, 4)), s64{sa} / sb);
    EXPECT_EQ(static_cast<s64>(o.at(t, 5)), s64{sa} % sb);
    EXPECT_EQ(o.at(t, 6), rows[t][0] / rows[t][1]);
    EXPECT_EQ(o.at(t, 7), rows[t][0] % rows[t][1]);
  }
}

TEST(IntSemantics, ShiftsArithmeticLogicalAndOversized) {
  std::vector<Row> rows = {{w32(-16), 2, 0}, {w32(0x80000001), 31, 0}, {w32(-1), 32, 0},
                           {w32(0x12345678), 40, 0}, {w32(5), 0, 0}, {w32(-8), 255, 0}};
  auto o = run_body(R"(
  shl.b32 %r10, %r1, %r2; st.global.u32 [%rd3], %r10;
  shr.s32 %r11, %r1, %r2; st.global.u32 [%rd3+8], %r11;
  shr.u32 %r12, %r1, %r2; st.global.u32 [%rd3+16], %r12;
  cvt.s64.s32 %rd20, %r1;
  shl.b64 %rd21, %rd20, %r2; st.global.u64 [%rd3+24], %rd21;
  shr.s64 %rd22, %rd20, %r2; st.global.u64 [%rd3+32], %rd22;
  shr.u64 %rd23, %rd20, %r2; st.global.u64 [%rd3+40], %rd23;
  shl.b32 %r13, %r1, 3;      st.global.u32 [%rd3+48], %r13;
)", rows);
  for (unsigned t = 0; t < rows.size(); ++t) {
    u32 a = static_cast<u32>(rows[t][0]);
    unsigned n = static_cast<unsigned>(rows[t][1]);
    s32 sa = static_cast<s32>(a);
    s64 a64 = sa;
    SCOPED_TRACE(t);
    EXPECT_EQ(o.u32(t, 0), n >= 32 ? 0u : a << n);
    EXPECT_EQ(o.s32(t, 1), n >= 32 ? (sa < 0 ? -1 : 0) : sa >> n);
    EXPECT_EQ(o.u32(t, 2), n >= 32 ? 0u : a >> n);
    EXPECT_EQ(o.at(t, 3), n >= 64 ? 0 : static_cast<u64>(a64) << n);
    EXPECT_EQ(static_cast<s64>(o.at(t, 4)), n >= 64 ? (a64 < 0 ? -1 : 0) : a64 >> n);
    EXPECT_EQ(o.at(t, 5), n >= 64 ? 0 : static_cast<u64>(a64) >> n);
    EXPECT_EQ(o.u32(t, 6), a << 3);
  }
}

TEST(IntSemantics, LogicOps) {
  std::vector<Row> rows = {{0xf0f0f0f0, 0x0ff00ff0, 0xaaaaaaaa}, {0, 0xffffffff, 0x12345678}};
  auto o = run_body(R"(
  and.b32 %r10, %r1, %r2; st.global.u32 [%rd3], %r10;
  or.b32 %r11, %r1, %r2;  st.global.u32 [%rd3+8], %r11;
  xor.b32 %r12, %r1, %r2; st.global.u32 [%rd3+16], %r12;
  not.b32 %r13, %r1;      st.global.u32 [%rd3+24], %r13;
  lop3.b32 %r14, %r1, %r2, %r3, 0xe8; st.global.u32 [%rd3+32], %r14;
  lop3.b32 %r15, %r1, %r2, %r3, 0x96; st.global.u32 [%rd3+40], %r15;
  and.b64 %rd20, %rd10, %rd11; st.global.u64 [%rd3+48], %rd20;
  cnot.b32 %r16, %r1;     st.global.u32 [%rd3+56], %r16;
)", rows);
  for (unsigned t = 0; t < rows.size(); ++t) {
    u32 a = static_cast<u32>(rows[t][0]), b = static_cast<u32>(rows[t][1]),
        c = static_cast<u32>(rows[t][2]);
    SCOPED_TRACE(t);
    EXPECT_EQ(o.u32(t, 0), a & b);
    EXPECT_EQ(o.u32(t, 1), a | b);
    EXPECT_EQ(o.u32(t, 2), a ^ b);
    EXPECT_EQ(o.u32(t, 3), ~a);
    EXPECT_EQ(o.u32(t, 4), (a & b) | (a & c) | (b & c));  // majority = 0xE8
    EXPECT_EQ(o.u32(t, 5), a ^ b ^ c);                    // 0x96
    EXPECT_EQ(o.at(t, 6), rows[t][0] & rows[t][1]);
    EXPECT_EQ(o.u32(t, 7), a == 0 ? 1u : 0u);
  }
}

u32 brev32(u32 x) {
  u32 r = 0;
  for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}

TEST(IntSemantics, BitCounting) {
  std::vector<Row> rows = {{0, 0, 0}, {1, 0, 0}, {0x80000000, 0, 0}, {0xffffffff, 0, 0},
                           {0x00f00100, 0, 0}, {w32(-12345), 0, 0}};
  auto o = run_body(R"(
  popc.b32 %r10, %r1;  st.global.u32 [%rd3], %r10;
  clz.b32 %r11, %r1;   st.global.u32 [%rd3+8], %r11;
  brev.b32 %r12, %r1;  st.global.u32 [%rd3+16], %r12;
  bfind.u32 %r13, %r1; st.global.u32 [%rd3+24], %r13;
  bfind.s32 %r14, %r1; st.global.u32 [%rd3+32], %r14;
  bfind.shiftamt.u32 %r15, %r1; st.global.u32 [%rd3+40], %r15;
  popc.b64 %r16, %rd10; st.global.u32 [%rd3+48], %r16;
  clz.b64 %r17, %rd10;  st.global.u32 [%rd3+56], %r17;
)", rows);
  for (unsigned t = 0; t < rows.size(); ++t) {
    u32 a = static_cast<u32>(rows[t][0]);
    s32 sa = static_cast<s32>(a);
    SCOPED_TRACE(t);
    EXPECT_EQ(o.u32(t, 0), static_cast<u32>(std::popcount(a)));
    EXPECT_EQ(o.u32(t, 1), static_cast<u32>(std::countl_zero(a)));
    EXPECT_EQ(o.u32(t, 2), brev32(a));
    u32 msb = a == 0 ? 0xffffffffu : 31u - static_cast<u32>(std::countl_zero(a));
    EXPECT_EQ(o.u32(t, 3), msb);
    u32 sv = sa < 0 ? ~a : a;  // bfind.s32: highest bit that differs from the sign
    EXPECT_EQ(o.u32(t, 4), sv == 0 ? 0xffffffffu : 31u - static_cast<u32>(std::countl_zero(sv)));
    EXPECT_EQ(o.u32(t, 5), a == 0 ? 0xffffffffu : static_cast<u32>(std::countl_zero(a)));
    EXPECT_EQ(o.u32(t, 6), static_cast<u32>(std::popcount(rows[t][0])));
    EXPECT_EQ(o.u32(t, 7), static_cast<u32>(std::countl_zero(rows[t][0])));
  }
}

TEST(IntSemantics, BitFieldExtractInsert) {
  // rows: a, pos, len
  std::vector<Row> rows = {{0xf0f0abcd, 4, 8}, {0x80000000, 28, 8}, {0x0000ff00, 8, 8},
                           {0x12345678, 0, 0}, {0xdeadbeef, 40, 4}, {0x000000f0, 4, 4}};
  auto o = run_body(R"(
  bfe.u32 %r10, %r1, %r2, %r3; st.global.u32 [%rd3], %r10;
  bfe.s32 %r11, %r1, %r2, %r3; st.global.u32 [%rd3+8], %r11;
  mov.u32 %r20, 0x55555555;
  bfi.b32 %r12, %r1, %r20, %r2, %r3; st.global.u32 [%rd3+16], %r12;
)", rows);
  for (unsigned t = 0; t < rows.size(); ++t) {
    u32 a = static_cast<u32>(rows[t][0]);
    unsigned pos = static_cast<unsigned>(rows[t][1]), len = static_cast<unsigned>(rows[t][2]);
    // Reference from the PTX ISA pseudo-code.
    auto bfe_ref = [&](bool sgn) {
      u32 d = 0;
      unsigned msb = 31;
      bool sbit = sgn && ((a >> std::min(pos + len - 1, msb)) & 1u);
      if (len == 0) return u32{0};
      for (unsigned i = 0; i <= msb; ++i) {
        bool bit = (i < len && pos + i <= msb) ? ((a >> (pos + i)) & 1u) : sbit;
        if (!sgn && !(i < len && pos + i <= msb)) bit = false;
        d |= u32{bit} << i;
      }
      return d;
    };
    u32 b = 0x55555555, bfi_ref = b;
    for (unsigned i = 0; i < len && pos + i < 32; ++i)
      bfi_ref = (bfi_ref & ~(1u << (pos + i))) | (((a >> i) & 1u) << (pos + i));
    SCOPED_TRACE(t);
    EXPECT_EQ(o.u32(t, 0), bfe_ref(false));
    EXPECT_EQ(o.u32(t, 1), bfe_ref(true));
    EXPECT_EQ(o.u32(t, 2), bfi_ref);
  }
}

TEST(IntSemantics, BitFieldExtract64) {
  // a, pos, len: a field that runs past bit 63 takes the sign bit (bit 63) above it.
  std::vector<Row> rows = {{0x8000000000000000ULL, 60, 8}, {0xf0ULL, 4, 4},
                           {0x8000000000000000ULL, 4, 64}};
  auto o = run_body(R"(
  bfe.s64 %rd20, %rd10, %r2, %r3; st.global.u64 [%rd3], %rd20;
  bfe.u64 %rd21, %rd10, %r2, %r3; st.global.u64 [%rd3+8], %rd21;
)", rows);
  EXPECT_EQ(o.at(0, 0), 0xfffffffffffffff8ULL);
  EXPECT_EQ(o.at(0, 1), 0x8ULL);
  EXPECT_EQ(o.at(1, 0), 0xffffffffffffffffULL);  // field 0xf: its top bit is the sign
  EXPECT_EQ(o.at(1, 1), 0xfULL);
  EXPECT_EQ(o.at(2, 1), 0x0800000000000000ULL);
}

// Known bug (reported): bfe.s64 with len >= 64 (and pos > 0) does not sign-fill the top bits.
TEST(IntSemantics, BitFieldExtract64FullLength) {
  auto o = run_body("  bfe.s64 %rd20, %rd10, %r2, %r3; st.global.u64 [%rd3], %rd20;\n",
                    {{0x8000000000000000ULL, 4, 64}});
  EXPECT_EQ(o.at(0, 0), 0xf800000000000000ULL);
}

TEST(IntSemantics, Prmt) {
  std::vector<Row> rows = {{0x33221100, 0x77665544, 0x3210}, {0x33221100, 0x77665544, 0x7654},
                           {0x33221100, 0x77665544, 0x0123}, {0x80221100, 0x77665544, 0x000b}};
  auto o = run_body(R"(
  prmt.b32 %r10, %r1, %r2, %r3; st.global.u32 [%rd3], %r10;
)", rows);
  for (unsigned t = 0; t < rows.size(); ++t) {
    u64 x = (rows[t][1] << 32) | rows[t][0];
    u32 c = static_cast<u32>(rows[t][2]), ref = 0;
    for (unsigned i = 0; i < 4; ++i) {
      unsigned sel = (c >> (4 * i)) & 0xf;
      u32 byte = static_cast<u32>((x >> (8 * (sel & 7))) & 0xff);
      if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;  // replicate the sign bit
      ref |= byte << (8 * i);
    }
    SCOPED_TRACE(t);
    EXPECT_EQ(o.u32(t, 0), ref);
  }
}

TEST(IntSemantics, MinMaxAbsNegSignedVsUnsigned) {
  auto rows = pairs32();
  auto o = run_body(R"(
  min.s32 %r10, %r1, %r2; st.global.u32 [%rd3], %r10;
  max.s32 %r11, %r1, %r2; st.global.u32 [%rd3+8], %r11;
  min.u32 %r12, %r1, %r2; st.global.u32 [%rd3+16], %r12;
  max.u32 %r13, %r1, %r2; st.global.u32 [%rd3+24], %r13;
  abs.s32 %r14, %r1;      st.global.u32 [%rd3+32], %r14;
  neg.s32 %r15, %r1;      st.global.u32 [%rd3+40], %r15;
  min.s64 %rd20, %rd10, %rd11; st.global.u64 [%rd3+48], %rd20;
  max.u64 %rd21, %rd10, %rd11; st.global.u64 [%rd3+56], %rd21;
)", rows);
  for (unsigned t = 0; t < rows.size(); ++t) {
    u32 a = static_cast<u32>(rows[t][0]), b = static_cast<u32>(rows[t][1]);
    s32 sa = static_cast<s32>(a), sb = static_cast<s32>(b);
    SCOPED_TRACE(t);
    EXPECT_EQ(o.s32(t, 0), std::min(sa, sb));
    EXPECT_EQ(o.s32(t, 1), std::max(sa, sb));
    EXPECT_EQ(o.u32(t, 2), std::min(a, b));
    EXPECT_EQ(o.u32(t, 3), std::max(a, b));
    EXPECT_EQ(o.u32(t, 4), sa < 0 ? 0u - a : a);  // abs(INT_MIN) wraps to INT_MIN
    EXPECT_EQ(o.u32(t, 5), 0u - a);
    // Rows hold zero-extended 32-bit values: as s64 they are all non-negative.
    EXPECT_EQ(o.at(t, 6), std::min(rows[t][0], rows[t][1]));
    EXPECT_EQ(o.at(t, 7), std::max(rows[t][0], rows[t][1]));
  }
}

TEST(IntSemantics, MinMax64Signed) {
  std::vector<Row> rows = {{w64(-1), w64(1), 0}, {w64(kMin64), w64(kMax64), 0}};
  auto o = run_body(R"(
  min.s64 %rd20, %rd10, %rd11; st.global.u64 [%rd3], %rd20;
  max.s64 %rd21, %rd10, %rd11; st.global.u64 [%rd3+8], %rd21;
  min.u64 %rd22, %rd10, %rd11; st.global.u64 [%rd3+16], %rd22;
  abs.s64 %rd23, %rd10;        st.global.u64 [%rd3+24], %rd23;
  neg.s64 %rd24, %rd10;        st.global.u64 [%rd3+32], %rd24;
)", rows);
  for (unsigned t = 0; t < rows.size(); ++t) {
    s64 a = static_cast<s64>(rows[t][0]), b = static_cast<s64>(rows[t][1]);
    SCOPED_TRACE(t);
    EXPECT_EQ(static_cast<s64>(o.at(t, 0)), std::min(a, b));
    EXPECT_EQ(static_cast<s64>(o.at(t, 1)), std::max(a, b));
    EXPECT_EQ(o.at(t, 2), std::min(rows[t][0], rows[t][1]));
    EXPECT_EQ(o.at(t, 3), a < 0 ? 0 - rows[t][0] : rows[t][0]);
    EXPECT_EQ(o.at(t, 4), 0 - rows[t][0]);
  }
}

// Issue 23: the overflowing cases of div.s64, rem.s64, abs.s64 and neg.s64 on INT64_MIN wrap
// (two's complement) instead of being C++ signed overflow (the sanitizer job would trap).
TEST(IntSemantics, Int64MinDivRemAbsNegWrap) {
  std::vector<Row> rows = {
      {w64(kMin64), w64(-1), 0}, {w64(kMin64), w64(1), 0}, {w64(kMax64), w64(-1), 0}};
  auto o = run_body(R"(
  div.s64 %rd20, %rd10, %rd11; st.global.u64 [%rd3], %rd20;
  rem.s64 %rd21, %rd10, %rd11; st.global.u64 [%rd3+8], %rd21;
  abs.s64 %rd22, %rd10;        st.global.u64 [%rd3+16], %rd22;
  neg.s64 %rd23, %rd10;        st.global.u64 [%rd3+24], %rd23;
  div.s32 %r10, %r1, %r2;      st.global.u32 [%rd3+32], %r10;
)",
                    rows);
  EXPECT_EQ(static_cast<s64>(o.at(0, 0)), kMin64);  // INT64_MIN / -1 wraps to INT64_MIN
  EXPECT_EQ(o.at(0, 1), 0u);
  EXPECT_EQ(static_cast<s64>(o.at(0, 2)), kMin64);  // abs and neg of INT64_MIN: itself
  EXPECT_EQ(static_cast<s64>(o.at(0, 3)), kMin64);
  EXPECT_EQ(static_cast<s64>(o.at(1, 0)), kMin64);
  EXPECT_EQ(static_cast<s64>(o.at(2, 0)), -kMax64);
  EXPECT_EQ(static_cast<s64>(o.at(2, 3)), -kMax64);
  // The 32-bit halves of the rows: 0 / -1 and 0 / 1 (low words of INT64_MIN are zero).
  EXPECT_EQ(o.u32(0, 4), 0u);
}

TEST(IntSemantics, SixteenBitWrap) {
  std::vector<Row> rows = {{0x7fff, 1, 0}, {0xffff, 0xffff, 0}, {0x8000, 0x8000, 0}};
  auto o = run_body(R"(
  cvt.u16.u32 %h1, %r1;
  cvt.u16.u32 %h2, %r2;
  add.s16 %h3, %h1, %h2;   cvt.u32.u16 %r10, %h3; st.global.u32 [%rd3], %r10;
  mul.lo.u16 %h4, %h1, %h2; cvt.u32.u16 %r11, %h4; st.global.u32 [%rd3+8], %r11;
  mul.wide.s16 %r12, %h1, %h2; st.global.u32 [%rd3+16], %r12;
  mul.wide.u16 %r13, %h1, %h2; st.global.u32 [%rd3+24], %r13;
)", rows);
  for (unsigned t = 0; t < rows.size(); ++t) {
    std::uint16_t a = static_cast<std::uint16_t>(rows[t][0]),
                  b = static_cast<std::uint16_t>(rows[t][1]);
    SCOPED_TRACE(t);
    EXPECT_EQ(o.u32(t, 0), static_cast<std::uint16_t>(a + b));
    EXPECT_EQ(o.u32(t, 1), static_cast<std::uint16_t>(u32{a} * b));
    EXPECT_EQ(o.s32(t, 2), s32{static_cast<std::int16_t>(a)} * static_cast<std::int16_t>(b));
    EXPECT_EQ(o.u32(t, 3), u32{a} * b);
  }
}

}  // namespace
}  // namespace simtsync::func::testing
