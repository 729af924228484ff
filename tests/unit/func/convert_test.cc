// cvt and mov semantics: integer widening/narrowing with sign/zero extension and .sat, float ->
// int rounding and saturation (NaN -> 0), int -> float, f32 <-> f64, f16 round trips, and
// mov pack/unpack.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "func_test_util.h"

namespace simtsync::func::testing {
namespace {

using u32 = std::uint32_t;
using s32 = std::int32_t;
using u64 = std::uint64_t;
using s64 = std::int64_t;

TEST(Convert, IntegerExtensionAndTruncation) {
  std::vector<Row> rows = {{w32(-1), 0, 0}, {w32(0x80), 0, 0}, {w32(0x12345678), 0, 0},
                           {w32(0x8000ff7f), 0, 0}, {w32(300), 0, 0}, {w32(-300), 0, 0}};
  auto o = run_body(R"(
  cvt.s64.s32 %rd20, %r1;     st.global.u64 [%rd3], %rd20;
  cvt.u64.u32 %rd21, %r1;     st.global.u64 [%rd3+8], %rd21;
  cvt.u8.u32 %r10, %r1;       st.global.u32 [%rd3+16], %r10;
  cvt.s8.s32 %r11, %r1;       st.global.u32 [%rd3+24], %r11;
  cvt.u16.u32 %h1, %r1;
  cvt.s32.s16 %r12, %h1;      st.global.u32 [%rd3+32], %r12;
  cvt.u32.u16 %r13, %h1;      st.global.u32 [%rd3+40], %r13;
  cvt.sat.s8.s32 %r14, %r1;   st.global.u32 [%rd3+48], %r14;
  cvt.sat.u8.s32 %r15, %r1;   st.global.u32 [%rd3+56], %r15;
)", rows);
  for (unsigned t = 0; t < rows.size(); ++t) {
    u32 a = static_cast<u32>(rows[t][0]);
    s32 sa = static_cast<s32>(a);
    SCOPED_TRACE(t);
    EXPECT_EQ(static_cast<s64>(o.at(t, 0)), s64{sa});
    EXPECT_EQ(o.at(t, 1), u64{a});
    EXPECT_EQ(o.u32(t, 2), a & 0xff);
    // cvt.s8.s32 into a 32-bit register sign-extends the 8-bit result.
    EXPECT_EQ(o.s32(t, 3), s32{static_cast<std::int8_t>(a)});
    EXPECT_EQ(o.s32(t, 4), s32{static_cast<std::int16_t>(a)});
    EXPECT_EQ(o.u32(t, 5), a & 0xffff);
    EXPECT_EQ(o.s32(t, 6), std::clamp(sa, -128, 127));
    EXPECT_EQ(o.u32(t, 7), static_cast<u32>(std::clamp(sa, 0, 255)));
  }
}

TEST(Convert, SaturatingWideToNarrow) {
  std::vector<Row> rows = {{w64(-1), 0, 0}, {w64(0x100000000LL), 0, 0}, {w64(-5000000000LL), 0, 0},
                           {w64(42), 0, 0}};
  auto o = run_body(R"(
  cvt.sat.s32.s64 %r10, %rd10; st.global.u32 [%rd3], %r10;
  cvt.sat.u32.s64 %r11, %rd10; st.global.u32 [%rd3+8], %r11;
  cvt.u32.u64 %r12, %rd10;     st.global.u32 [%rd3+16], %r12;
  cvt.sat.u32.u64 %r13, %rd10; st.global.u32 [%rd3+24], %r13;
  cvt.sat.s32.u32 %r14, %r1;   st.global.u32 [%rd3+32], %r14;
)", rows);
  for (unsigned t = 0; t < rows.size(); ++t) {
    s64 a = static_cast<s64>(rows[t][0]);
    SCOPED_TRACE(t);
    EXPECT_EQ(o.s32(t, 0), static_cast<s32>(std::clamp<s64>(a, INT32_MIN, INT32_MAX)));
    EXPECT_EQ(o.u32(t, 1), static_cast<u32>(std::clamp<s64>(a, 0, UINT32_MAX)));
    EXPECT_EQ(o.u32(t, 2), static_cast<u32>(a));
    EXPECT_EQ(o.u32(t, 3), static_cast<u32>(std::min<u64>(rows[t][0], UINT32_MAX)));
    EXPECT_EQ(o.s32(t, 4), static_cast<s32>(std::min<u32>(static_cast<u32>(a), INT32_MAX)));
  }
}

TEST(Convert, FloatToIntRoundingAndSaturation) {
  std::vector<Row> rows = {{wf(2.5f), 0, 0},   {wf(-2.5f), 0, 0},  {wf(3.5f), 0, 0},
                           {wf(-1.7f), 0, 0},  {wf(1.2f), 0, 0},   {wf(kNanF), 0, 0},
                           {wf(3e9f), 0, 0},   {wf(-3e9f), 0, 0},  {wf(kInfF), 0, 0},
                           {wf(-0.5f), 0, 0}};
  auto o = run_body(R"(
  cvt.rni.s32.f32 %r10, %f1; st.global.u32 [%rd3], %r10;
  cvt.rzi.s32.f32 %r11, %f1; st.global.u32 [%rd3+8], %r11;
  cvt.rmi.s32.f32 %r12, %f1; st.global.u32 [%rd3+16], %r12;
  cvt.rpi.s32.f32 %r13, %f1; st.global.u32 [%rd3+24], %r13;
  cvt.rzi.u32.f32 %r14, %f1; st.global.u32 [%rd3+32], %r14;
  cvt.rni.s64.f32 %rd20, %f1; st.global.u64 [%rd3+40], %rd20;
  cvt.f64.f32 %fd10, %f1;
  cvt.rzi.s32.f64 %r15, %fd10; st.global.u32 [%rd3+48], %r15;
  cvt.rni.u64.f64 %rd21, %fd10; st.global.u64 [%rd3+56], %rd21;
)", rows);
  auto sat_s32 = [](double v) -> s32 {
    if (std::isnan(v)) return 0;
    return static_cast<s32>(std::clamp(v, double{INT32_MIN}, double{INT32_MAX}));
  };
  auto sat_u32 = [](double v) -> u32 {
    if (std::isnan(v)) return 0;
    return static_cast<u32>(std::clamp(v, 0.0, double{UINT32_MAX}));
  };
  auto sat_s64 = [](double v) -> s64 {
    if (std::isnan(v)) return 0;
    if (v >= 0x1p63) return INT64_MAX;
    if (v < -0x1p63) return INT64_MIN;
    return static_cast<s64>(v);
  };
  auto sat_u64 = [](double v) -> u64 {
    if (std::isnan(v) || v <= 0) return 0;
    if (v >= 0x1p64) return UINT64_MAX;
    return static_cast<u64>(v);
  };
  for (unsigned t = 0; t < rows.size(); ++t) {
    double f = std::bit_cast<float>(static_cast<u32>(rows[t][0]));
    SCOPED_TRACE(t);
    EXPECT_EQ(o.s32(t, 0), sat_s32(std::nearbyint(f)));  // ties to even
    EXPECT_EQ(o.s32(t, 1), sat_s32(std::trunc(f)));
    EXPECT_EQ(o.s32(t, 2), sat_s32(std::floor(f)));
    EXPECT_EQ(o.s32(t, 3), sat_s32(std::ceil(f)));
    EXPECT_EQ(o.u32(t, 4), sat_u32(std::trunc(f)));
    EXPECT_EQ(static_cast<s64>(o.at(t, 5)), sat_s64(std::nearbyint(f)));
    EXPECT_EQ(o.s32(t, 6), sat_s32(std::trunc(f)));
    EXPECT_EQ(o.at(t, 7), sat_u64(std::nearbyint(f)));
  }
  EXPECT_EQ(o.s32(0, 0), 2);   // 2.5 -> 2 (ties to even)
  EXPECT_EQ(o.s32(2, 0), 4);   // 3.5 -> 4
  EXPECT_EQ(o.s32(5, 0), 0);   // NaN -> 0
  EXPECT_EQ(o.s32(6, 1), INT32_MAX);
  EXPECT_EQ(o.u32(7, 4), 0u);  // negative -> 0 for unsigned
}

TEST(Convert, IntToFloatAndFloatWidths) {
  std::vector<Row> rows = {{w32(-7), 0, wf(1.f / 3)}, {w32(16777217), 0, wf(1e-40f)},
                           {w32(INT32_MIN), 0, wf(kNanF)}, {w32(-1), 0, wf(-kInfF)}};
  auto o = run_body(R"(
  cvt.rn.f32.s32 %f10, %r1;  st.global.f32 [%rd3], %f10;
  cvt.rn.f32.u32 %f11, %r1;  st.global.f32 [%rd3+8], %f11;
  cvt.rn.f64.s32 %fd10, %r1; st.global.f64 [%rd3+16], %fd10;
  cvt.rz.f32.u32 %f12, %r1;  st.global.f32 [%rd3+24], %f12;
  cvt.f64.f32 %fd11, %f3;    st.global.f64 [%rd3+32], %fd11;
  cvt.rn.f32.f64 %f13, %fd11; st.global.f32 [%rd3+40], %f13;
  mov.f64 %fd12, 0d3FF0000000000001;
  cvt.rn.f32.f64 %f14, %fd12; st.global.f32 [%rd3+48], %f14;
  cvt.rn.f64.u64 %fd13, %rd10; st.global.f64 [%rd3+56], %fd13;
)", rows);
  for (unsigned t = 0; t < rows.size(); ++t) {
    u32 a = static_cast<u32>(rows[t][0]);
    float c = std::bit_cast<float>(static_cast<u32>(rows[t][2]));
    SCOPED_TRACE(t);
    EXPECT_EQ(o.f32(t, 0), static_cast<float>(static_cast<s32>(a)));
    EXPECT_EQ(o.f32(t, 1), static_cast<float>(a));
    EXPECT_EQ(o.f64(t, 2), static_cast<double>(static_cast<s32>(a)));
    if (std::isnan(c)) {
      EXPECT_TRUE(std::isnan(o.f64(t, 4)));
      EXPECT_TRUE(std::isnan(o.f32(t, 5)));
    } else {
      EXPECT_EQ(o.f64(t, 4), static_cast<double>(c));
      EXPECT_EQ(std::bit_cast<u32>(o.f32(t, 5)), std::bit_cast<u32>(c));
    }
    EXPECT_EQ(o.f32(t, 6), 1.f);
    EXPECT_EQ(o.f64(t, 7), static_cast<double>(rows[t][0]));
  }
  // 16777217 = 2^24 + 1 is not representable: rn rounds to even (2^24), rz truncates (2^24).
  EXPECT_EQ(o.f32(1, 1), 16777216.f);
  EXPECT_EQ(o.f32(1, 3), 16777216.f);
  // 0xffffffff: rn rounds up to 2^32.
  EXPECT_EQ(o.f32(3, 1), 4294967296.f);
}

// Known bug (reported): exec_cvt ignores .rz/.rm/.rp for int -> float conversions.
TEST(Convert, IntToFloatDirectedRounding) {
  auto o = run_body(R"(
  cvt.rz.f32.u32 %f10, %r1;  st.global.f32 [%rd3], %f10;
  cvt.rm.f32.s32 %f11, %r2;  st.global.f32 [%rd3+8], %f11;
  cvt.rp.f32.u32 %f12, %r3;  st.global.f32 [%rd3+16], %f12;
)", {{0xffffffff, w32(-16777217), 16777217}});
  EXPECT_EQ(o.f32(0, 0), std::nextafter(4294967296.f, 0.f));
  EXPECT_EQ(o.f32(0, 1), -16777218.f);
  EXPECT_EQ(o.f32(0, 2), 16777218.f);
}

TEST(Convert, HalfRoundTrip) {
  // f32 -> f16 (rn) -> f32 for values with known halves.
  std::vector<Row> rows = {{wf(1.f), 0, 0},      {wf(-2.5f), 0, 0},     {wf(65504.f), 0, 0},
                           {wf(1e6f), 0, 0},     {wf(6.0e-8f), 0, 0},   {wf(1.0009765625f), 0, 0},
                           {wf(1.00048828125f), 0, 0}, {wf(kNanF), 0, 0}, {wf(-0.f), 0, 0}};
  auto o = run_body(R"(
  cvt.rn.f16.f32 %h1, %f1;
  cvt.u32.u16 %r10, %h1;     st.global.u32 [%rd3], %r10;
  cvt.f32.f16 %f10, %h1;     st.global.f32 [%rd3+8], %f10;
)", rows);
  const std::uint16_t want_bits[] = {0x3c00, 0xc100, 0x7bff, 0x7c00, 0x0001, 0x3c01, 0x3c00};
  const float want_back[] = {1.f, -2.5f, 65504.f, kInfF, 0x1p-24f, 1.0009765625f, 1.f};
  for (unsigned t = 0; t < 7; ++t) {
    SCOPED_TRACE(t);
    EXPECT_EQ(o.u32(t, 0), want_bits[t]);
    EXPECT_EQ(o.f32(t, 1), want_back[t]);
  }
  EXPECT_EQ(o.u32(7, 0) & 0x7c00, 0x7c00u);  // NaN stays NaN
  EXPECT_NE(o.u32(7, 0) & 0x03ff, 0u);
  EXPECT_TRUE(std::isnan(o.f32(7, 1)));
  EXPECT_EQ(o.u32(8, 0), 0x8000u);
}

TEST(Convert, MovPackUnpack) {
  std::vector<Row> rows = {{0x11223344, 0xaabbccdd, 0}, {0xffffffff, 0, 0}};
  auto o = run_body(R"(
  mov.b64 %rd20, {%r1, %r2};   st.global.u64 [%rd3], %rd20;
  mov.b64 {%r10, %r11}, %rd20;
  st.global.u32 [%rd3+8], %r11;
  st.global.u32 [%rd3+16], %r10;
  mov.b32 {%h1, %h2}, %r1;
  mov.b32 %r12, {%h2, %h1};    st.global.u32 [%rd3+24], %r12;
  mov.b64 %rd21, %fd1;         st.global.u64 [%rd3+32], %rd21;
  mov.u32 %r13, 0xfffffffe;    st.global.u32 [%rd3+40], %r13;
  mov.f32 %f10, 0f3F800000;    st.global.f32 [%rd3+48], %f10;
)", rows);
  for (unsigned t = 0; t < rows.size(); ++t) {
    u64 lo = rows[t][0], hi = rows[t][1];
    SCOPED_TRACE(t);
    EXPECT_EQ(o.at(t, 0), lo | hi << 32);
    EXPECT_EQ(o.at(t, 1), hi);
    EXPECT_EQ(o.at(t, 2), lo);
    EXPECT_EQ(o.u32(t, 3), static_cast<u32>((lo >> 16) | (lo << 16)));
    EXPECT_EQ(o.at(t, 4), lo);
    EXPECT_EQ(o.u32(t, 5), 0xfffffffeu);
    EXPECT_EQ(o.f32(t, 6), 1.f);
  }
}

}  // namespace
}  // namespace simtsync::func::testing
