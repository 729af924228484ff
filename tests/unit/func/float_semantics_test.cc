// Floating-point semantics against host values: IEEE arithmetic in f32/f64, fma, min/max NaN
// rules, .sat, .ftz on subnormals, sqrt/rcp, and setp/selp/slct comparisons.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "func_test_util.h"

namespace simtsync::func::testing {
namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
constexpr double kNanD = std::numeric_limits<double>::quiet_NaN();
constexpr float kDenormF = std::numeric_limits<float>::denorm_min();

// Bitwise float comparison that treats every NaN as equal.
::testing::AssertionResult same_f32(float got, float want) {
  if ((std::isnan(got) && std::isnan(want)) ||
      std::bit_cast<u32>(got) == std::bit_cast<u32>(want))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "got " << got << " (0x" << std::hex
                                       << std::bit_cast<u32>(got) << ") want " << want << " (0x"
                                       << std::bit_cast<u32>(want) << ")";
}
::testing::AssertionResult same_f64(double got, double want) {
  if ((std::isnan(got) && std::isnan(want)) ||
      std::bit_cast<u64>(got) == std::bit_cast<u64>(want))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "got " << got << " want " << want;
}

TEST(FloatSemantics, F32Arithmetic) {
  std::vector<Row> rows = {{wf(1.5f), wf(2.25f), wf(-0.75f)},
                           {wf(1e30f), wf(1e30f), wf(0.f)},
                           {wf(-0.f), wf(0.f), wf(1.f)},
                           {wf(kInfF), wf(-kInfF), wf(2.f)},
                           {wf(1.f), wf(3.f), wf(1e-8f)},
                           {wf(kNanF), wf(1.f), wf(1.f)}};
  auto o = run_body(R"(
  add.f32 %f10, %f1, %f2;       st.global.f32 [%rd3], %f10;
  sub.f32 %f11, %f1, %f2;       st.global.f32 [%rd3+8], %f11;
  mul.f32 %f12, %f1, %f2;       st.global.f32 [%rd3+16], %f12;
  fma.rn.f32 %f13, %f1, %f2, %f3; st.global.f32 [%rd3+24], %f13;
  div.rn.f32 %f14, %f1, %f2;    st.global.f32 [%rd3+32], %f14;
  abs.f32 %f15, %f1;            st.global.f32 [%rd3+40], %f15;
  neg.f32 %f16, %f1;            st.global.f32 [%rd3+48], %f16;
  add.rz.f32 %f17, %f1, %f3;    st.global.f32 [%rd3+56], %f17;
)", rows);
  for (unsigned t = 0; t < rows.size(); ++t) {
    float a = std::bit_cast<float>(static_cast<u32>(rows[t][0]));
    float b = std::bit_cast<float>(static_cast<u32>(rows[t][1]));
    float c = std::bit_cast<float>(static_cast<u32>(rows[t][2]));
    SCOPED_TRACE(t);
    EXPECT_TRUE(same_f32(o.f32(t, 0), a + b));
    EXPECT_TRUE(same_f32(o.f32(t, 1), a - b));
    EXPECT_TRUE(same_f32(o.f32(t, 2), a * b));
    EXPECT_TRUE(same_f32(o.f32(t, 3), std::fma(a, b, c)));
    EXPECT_TRUE(same_f32(o.f32(t, 4), a / b));
    EXPECT_TRUE(same_f32(o.f32(t, 5), std::fabs(a)));
    EXPECT_TRUE(same_f32(o.f32(t, 6), -a));
  }
  // add.rz: 1 + 1e-8 rounds toward zero to 1, and 1.5 - 0.75 is exact.
  EXPECT_TRUE(same_f32(o.f32(4, 7), 1.f));
  EXPECT_TRUE(same_f32(o.f32(0, 7), 0.75f));
  // Rounding toward zero of a value just below 1+ulp: (1 + 2^-23) + (-2^-25) stays above 1.
}

TEST(FloatSemantics, F64Arithmetic) {
  std::vector<Row> rows = {{wd(1.5), wd(2.25), wd(-0.75)},
                           {wd(1e300), wd(1e300), wd(0.)},
                           {wd(0.1), wd(0.2), wd(0.3)},
                           {wd(kNanD), wd(2.), wd(1.)},
                           {wd(2.), wd(0.), wd(0.)}};
  auto o = run_body(R"(
  add.f64 %fd10, %fd1, %fd2;       st.global.f64 [%rd3], %fd10;
  sub.f64 %fd11, %fd1, %fd2;       st.global.f64 [%rd3+8], %fd11;
  mul.f64 %fd12, %fd1, %fd2;       st.global.f64 [%rd3+16], %fd12;
  fma.rn.f64 %fd13, %fd1, %fd2, %fd3; st.global.f64 [%rd3+24], %fd13;
  div.rn.f64 %fd14, %fd1, %fd2;    st.global.f64 [%rd3+32], %fd14;
  sqrt.rn.f64 %fd15, %fd1;         st.global.f64 [%rd3+40], %fd15;
  rcp.rn.f64 %fd16, %fd1;          st.global.f64 [%rd3+48], %fd16;
  neg.f64 %fd17, %fd1;             st.global.f64 [%rd3+56], %fd17;
)", rows);
  for (unsigned t = 0; t < rows.size(); ++t) {
    double a = std::bit_cast<double>(rows[t][0]), b = std::bit_cast<double>(rows[t][1]),
           c = std::bit_cast<double>(rows[t][2]);
    SCOPED_TRACE(t);
    EXPECT_TRUE(same_f64(o.f64(t, 0), a + b));
    EXPECT_TRUE(same_f64(o.f64(t, 1), a - b));
    EXPECT_TRUE(same_f64(o.f64(t, 2), a * b));
    EXPECT_TRUE(same_f64(o.f64(t, 3), std::fma(a, b, c)));
    EXPECT_TRUE(same_f64(o.f64(t, 4), a / b));
    EXPECT_TRUE(same_f64(o.f64(t, 5), std::sqrt(a)));
    EXPECT_TRUE(same_f64(o.f64(t, 6), 1.0 / a));
    EXPECT_TRUE(same_f64(o.f64(t, 7), -a));
  }
}

TEST(FloatSemantics, MinMaxReturnTheNonNanOperand) {
  std::vector<Row> rows = {{wf(kNanF), wf(3.f), 0}, {wf(-2.f), wf(kNanF), 0},
                           {wf(kNanF), wf(kNanF), 0}, {wf(-0.f), wf(0.f), 0},
                           {wf(1.f), wf(-5.f), 0}};
  auto o = run_body(R"(
  min.f32 %f10, %f1, %f2;     st.global.f32 [%rd3], %f10;
  max.f32 %f11, %f1, %f2;     st.global.f32 [%rd3+8], %f11;
  min.NaN.f32 %f12, %f1, %f2; st.global.f32 [%rd3+16], %f12;
  cvt.f64.f32 %fd10, %f1;
  cvt.f64.f32 %fd11, %f2;
  min.f64 %fd12, %fd10, %fd11; st.global.f64 [%rd3+24], %fd12;
  max.f64 %fd13, %fd10, %fd11; st.global.f64 [%rd3+32], %fd13;
)", rows);
  auto F = [&](unsigned t, int k) { return std::bit_cast<float>(static_cast<u32>(rows[t][k])); };
  for (unsigned t = 0; t < rows.size(); ++t) {
    SCOPED_TRACE(t);
    if (t == 3) continue;  // signed zeros: checked below (host fmin/fmax may return either)
    EXPECT_TRUE(same_f32(o.f32(t, 0), std::fmin(F(t, 0), F(t, 1))));
    EXPECT_TRUE(same_f32(o.f32(t, 1), std::fmax(F(t, 0), F(t, 1))));
    EXPECT_TRUE(same_f64(o.f64(t, 3), std::fmin(double{F(t, 0)}, double{F(t, 1)})));
    EXPECT_TRUE(same_f64(o.f64(t, 4), std::fmax(double{F(t, 0)}, double{F(t, 1)})));
  }
  EXPECT_TRUE(std::isnan(o.f32(0, 2)));
  EXPECT_TRUE(std::isnan(o.f32(1, 2)));
  EXPECT_TRUE(same_f32(o.f32(4, 2), -5.f));
  // -0 < +0 for min/max.
  EXPECT_TRUE(same_f32(o.f32(3, 0), -0.f));
  EXPECT_TRUE(same_f32(o.f32(3, 1), 0.f));
  EXPECT_TRUE(same_f64(o.f64(3, 3), -0.0));
  EXPECT_TRUE(same_f64(o.f64(3, 4), 0.0));
}

TEST(FloatSemantics, SatFtzSqrtRcp) {
  std::vector<Row> rows = {{wf(0.5f), wf(0.75f), 0},  {wf(-3.f), wf(1.f), 0},
                           {wf(kNanF), wf(1.f), 0},   {wf(kDenormF), wf(1.f), 0},
                           {wf(4.f), wf(1.f), 0},     {wf(-kDenormF * 8), wf(2.f), 0}};
  auto o = run_body(R"(
  add.sat.f32 %f10, %f1, %f2;  st.global.f32 [%rd3], %f10;
  mul.ftz.f32 %f11, %f1, %f2;  st.global.f32 [%rd3+8], %f11;
  mul.f32 %f12, %f1, %f2;      st.global.f32 [%rd3+16], %f12;
  sqrt.rn.f32 %f13, %f1;       st.global.f32 [%rd3+24], %f13;
  rcp.rn.f32 %f14, %f1;        st.global.f32 [%rd3+32], %f14;
  sqrt.approx.f32 %f15, %f1;   st.global.f32 [%rd3+40], %f15;
  abs.ftz.f32 %f16, %f1;       st.global.f32 [%rd3+48], %f16;
)", rows);
  auto F = [&](unsigned t, int k) { return std::bit_cast<float>(static_cast<u32>(rows[t][k])); };
  for (unsigned t = 0; t < rows.size(); ++t) {
    float a = F(t, 0), b = F(t, 1);
    SCOPED_TRACE(t);
    float sum = a + b;
    EXPECT_TRUE(same_f32(o.f32(t, 0), std::isnan(sum) ? 0.f : std::clamp(sum, 0.f, 1.f)));
    bool sub = std::fpclassify(a) == FP_SUBNORMAL;
    EXPECT_TRUE(same_f32(o.f32(t, 1), sub ? std::copysign(0.f, a) * b : a * b));
    EXPECT_TRUE(same_f32(o.f32(t, 2), a * b));
    if (!sub) {
      EXPECT_TRUE(same_f32(o.f32(t, 3), std::sqrt(a)));
      EXPECT_TRUE(same_f32(o.f32(t, 4), 1.f / a));
    }
  }
  EXPECT_TRUE(same_f32(o.f32(4, 5), 2.f));
  EXPECT_TRUE(same_f32(o.f32(3, 6), 0.f));
  EXPECT_TRUE(same_f32(o.f32(5, 6), 0.f));  // |-denorm| flushed to +0
}

// setp with every comparison: one output bit per comparison, stored as a u32 bitmask.
constexpr const char* kCmps[] = {"eq", "ne", "lt", "le", "gt", "ge"};
constexpr const char* kUCmps[] = {"lo", "ls", "hi", "hs"};
constexpr const char* kFCmps[] = {"equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};

std::string setp_mask_body(const std::string& type, const std::vector<std::string>& cmps,
                           const std::string& a, const std::string& b, int word) {
  std::string s = "  mov.u32 %r40, 0;\n";
  for (std::size_t i = 0; i < cmps.size(); ++i) {
    s += "  setp." + cmps[i] + "." + type + " %p1, " + a + ", " + b + ";\n";
    s += "  selp.u32 %r41, " + std::to_string(1u << i) + ", 0, %p1;\n";
    s += "  or.b32 %r40, %r40, %r41;\n";
  }
  s += "  st.global.u32 [%rd3+" + std::to_string(8 * word) + "], %r40;\n";
  return s;
}

TEST(FloatSemantics, SetpEveryComparison) {
  std::vector<std::string> ord(std::begin(kCmps), std::end(kCmps));
  std::vector<std::string> uns(std::begin(kUCmps), std::end(kUCmps));
  std::vector<std::string> fl = ord;
  fl.insert(fl.end(), std::begin(kFCmps), std::end(kFCmps));
  std::string body = setp_mask_body("s32", ord, "%r1", "%r2", 0) +
                     setp_mask_body("u32", uns, "%r1", "%r2", 1) +
                     setp_mask_body("u32", ord, "%r1", "%r2", 2) +
                     setp_mask_body("f32", fl, "%f1", "%f2", 3) +
                     setp_mask_body("s64", ord, "%rd10", "%rd11", 4);
  std::vector<Row> rows = {{w32(-1), w32(1), 0},     {w32(1), w32(-1), 0},
                           {w32(5), w32(5), 0},      {wf(1.f), wf(kNanF), 0},
                           {wf(kNanF), wf(kNanF), 0}, {wf(-0.f), wf(0.f), 0},
                           {wf(2.f), wf(-1.f), 0}};
  auto o = run_body(body, rows);
  auto ord_mask = [](auto a, auto b) {
    return u32{a == b} | u32{a != b} << 1 | u32{a < b} << 2 | u32{a <= b} << 3 |
           u32{a > b} << 4 | u32{a >= b} << 5;
  };
  for (unsigned t = 0; t < rows.size(); ++t) {
    u32 a = static_cast<u32>(rows[t][0]), b = static_cast<u32>(rows[t][1]);
    std::int32_t sa = static_cast<std::int32_t>(a), sb = static_cast<std::int32_t>(b);
    float fa = std::bit_cast<float>(a), fb = std::bit_cast<float>(b);
    bool un = std::isnan(fa) || std::isnan(fb);
    u32 fmask = ord_mask(fa, fb);
    // Ordered ne is false on NaN (C++ != is true).
    if (un) fmask &= ~2u;
    fmask |= u32{un || fa == fb} << 6 | u32{un || fa != fb} << 7 | u32{un || fa < fb} << 8 |
             u32{un || fa <= fb} << 9 | u32{un || fa > fb} << 10 | u32{un || fa >= fb} << 11 |
             u32{!un} << 12 | u32{un} << 13;
    SCOPED_TRACE(t);
    EXPECT_EQ(o.u32(t, 0), ord_mask(sa, sb));
    EXPECT_EQ(o.u32(t, 1), u32{a < b} | u32{a <= b} << 1 | u32{a > b} << 2 | u32{a >= b} << 3);
    EXPECT_EQ(o.u32(t, 2), ord_mask(a, b));
    EXPECT_EQ(o.u32(t, 3), fmask) << std::hex << o.u32(t, 3) << " vs " << fmask;
    EXPECT_EQ(o.u32(t, 4), ord_mask(rows[t][0], rows[t][1]));  // zero-extended: same as u
  }
}

TEST(FloatSemantics, SetpCombinersPairsSelpSlct) {
  std::vector<Row> rows = {{w32(1), w32(2), w32(-3)}, {w32(3), w32(2), w32(4)},
                           {w32(2), w32(2), w32(0)}};
  auto o = run_body(R"(
  setp.lt.s32 %p1, %r1, %r2;
  setp.gt.and.s32 %p2, %r3, 0, %p1;
  selp.u32 %r10, 1, 0, %p2;  st.global.u32 [%rd3], %r10;
  setp.gt.or.s32 %p3, %r3, 0, %p1;
  selp.u32 %r11, 1, 0, %p3;  st.global.u32 [%rd3+8], %r11;
  setp.lt.s32 %p4|%p5, %r1, %r2;
  selp.u32 %r12, 1, 0, %p4;  st.global.u32 [%rd3+16], %r12;
  selp.u32 %r13, 1, 0, %p5;  st.global.u32 [%rd3+24], %r13;
  setp.eq.and.s32 %p6|%p7, %r1, %r2, !%p1;
  selp.u32 %r14, 1, 0, %p6;  st.global.u32 [%rd3+32], %r14;
  selp.u32 %r15, 1, 0, %p7;  st.global.u32 [%rd3+40], %r15;
  slct.s32.s32 %r16, %r1, %r2, %r3;  st.global.u32 [%rd3+48], %r16;
  cvt.rn.f32.s32 %f10, %r3;
  slct.u32.f32 %r17, %r1, %r2, %f10; st.global.u32 [%rd3+56], %r17;
)", rows);
  for (unsigned t = 0; t < rows.size(); ++t) {
    std::int32_t a = static_cast<std::int32_t>(rows[t][0]), b = static_cast<std::int32_t>(rows[t][1]),
                 c = static_cast<std::int32_t>(rows[t][2]);
    bool p1 = a < b;
    SCOPED_TRACE(t);
    EXPECT_EQ(o.u32(t, 0), u32{c > 0 && p1});
    EXPECT_EQ(o.u32(t, 1), u32{c > 0 || p1});
    EXPECT_EQ(o.u32(t, 2), u32{p1});
    EXPECT_EQ(o.u32(t, 3), u32{!p1});
    EXPECT_EQ(o.u32(t, 4), u32{a == b && !p1});
    EXPECT_EQ(o.u32(t, 5), u32{a != b && !p1});
    EXPECT_EQ(o.s32(t, 6), c >= 0 ? a : b);
    EXPECT_EQ(o.s32(t, 7), c >= 0 ? a : b);
  }
}

}  // namespace
}  // namespace simtsync::func::testing
