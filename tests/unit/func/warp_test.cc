// Cross-lane semantics: vote, shfl.sync (every mode, with clamps and sub-warp segments),
// activemask under divergence, and bar.red reductions across warps.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>

#include "func_test_util.h"
#include "simt/registry.h"

namespace simtsync::func::testing {
namespace {

using u32 = std::uint32_t;

std::vector<Row> lane_rows(unsigned n, u32 (*f)(unsigned)) {
  std::vector<Row> rows;
  for (unsigned t = 0; t < n; ++t) rows.push_back({f(t), 0, 0});
  return rows;
}

TEST(Warp, Vote) {
  auto rows = lane_rows(32, [](unsigned t) -> u32 { return t * 7 + (t == 9 ? 1 : 0); });
  auto o = run_body(R"(
  and.b32 %r10, %r1, 1;
  setp.ne.u32 %p1, %r10, 0;
  vote.sync.ballot.b32 %r11, %p1, 0xffffffff;  st.global.u32 [%rd3], %r11;
  vote.sync.any.pred %p2, %p1, 0xffffffff;
  selp.u32 %r12, 1, 0, %p2;                    st.global.u32 [%rd3+8], %r12;
  vote.sync.all.pred %p3, %p1, 0xffffffff;
  selp.u32 %r13, 1, 0, %p3;                    st.global.u32 [%rd3+16], %r13;
  setp.lt.u32 %p4, %r1, 1000;
  vote.sync.all.pred %p5, %p4, 0xffffffff;
  selp.u32 %r14, 1, 0, %p5;                    st.global.u32 [%rd3+24], %r14;
  vote.sync.uni.pred %p6, %p4, 0xffffffff;
  selp.u32 %r15, 1, 0, %p6;                    st.global.u32 [%rd3+32], %r15;
  vote.sync.any.pred %p7, !%p4, 0xffffffff;
  selp.u32 %r16, 1, 0, %p7;                    st.global.u32 [%rd3+40], %r16;
  and.b32 %r17, %r0, 1;
  setp.eq.u32 %p8, %r17, 0;
  @!%p8 bra $SKIP;
  vote.sync.ballot.b32 %r18, %p1, 0x55555555;  st.global.u32 [%rd3+48], %r18;
$SKIP:
)", rows);
  u32 ballot = 0;
  for (unsigned t = 0; t < 32; ++t) ballot |= (static_cast<u32>(rows[t][0]) & 1u) << t;
  for (unsigned t = 0; t < 32; ++t) {
    SCOPED_TRACE(t);
    EXPECT_EQ(o.u32(t, 0), ballot);
    EXPECT_EQ(o.u32(t, 1), 1u);
    EXPECT_EQ(o.u32(t, 2), 0u);
    EXPECT_EQ(o.u32(t, 3), 1u);
    EXPECT_EQ(o.u32(t, 4), 1u);
    EXPECT_EQ(o.u32(t, 5), 0u);
    EXPECT_EQ(o.u32(t, 6), t % 2 == 0 ? ballot & 0x55555555u : 0u);
  }
}

enum class Mode { kUp, kDown, kBfly, kIdx };

// The PTX ISA pseudo-code for shfl.sync: lane[4:0], bval[4:0] = b[4:0], cval[4:0] = c[4:0],
// segmask[4:0] = c[12:8]; j by mode; !pval: the thread's own value. Returns {j, pval} for the
// value's source lane.
std::pair<unsigned, bool> shfl_src(unsigned lane, Mode m, u32 b, u32 c) {
  const int l = static_cast<int>(lane & 0x1f), bval = static_cast<int>(b & 0x1f);
  const int cval = static_cast<int>(c & 0x1f), segmask = static_cast<int>((c >> 8) & 0x1f);
  const int max_lane = (l & segmask) | (cval & ~segmask);
  const int min_lane = l & segmask;
  int j = 0;
  bool pval = false;
  switch (m) {
    case Mode::kUp:
      j = l - bval;
      pval = j >= max_lane;
      break;
    case Mode::kDown:
      j = l + bval;
      pval = j <= max_lane;
      break;
    case Mode::kBfly:
      j = l ^ bval;
      pval = j <= max_lane;
      break;
    case Mode::kIdx:
      j = min_lane | (bval & ~segmask);
      pval = j <= max_lane;
      break;
  }
  if (!pval) j = l;
  return {static_cast<unsigned>(j), pval};
}
std::pair<u32, bool> shfl_ref(const std::vector<u32>& a, unsigned lane, Mode m, u32 b, u32 c) {
  auto [j, p] = shfl_src(lane, m, b, c);
  return {a[j], p};
}

TEST(Warp, ShuffleModesAndClamps) {
  auto rows = lane_rows(32, [](unsigned t) -> u32 { return 1000 + t * t; });
  // Words: up 3 (clamp 0), down 5 (clamp 31), bfly 6, idx 7, then segments of 8 lanes
  // (c = 0x181f): down 2, idx 3, up 1 (c = 0x1800), bfly 4; predicate bits in word 7.
  struct Case { Mode m; u32 b, c; };
  const Case cases[] = {{Mode::kUp, 3, 0},       {Mode::kDown, 5, 0x1f},   {Mode::kBfly, 6, 0x1f},
                        {Mode::kIdx, 7, 0x1f},   {Mode::kDown, 2, 0x181f}, {Mode::kIdx, 3, 0x181f},
                        {Mode::kUp, 1, 0x1800}};
  const char* names[] = {"up", "down", "bfly", "idx"};
  std::string body = "  mov.u32 %r40, 0;\n";
  for (unsigned i = 0; i < 7; ++i) {
    const Case& k = cases[i];
    body += "  shfl.sync." + std::string(names[static_cast<int>(k.m)]) + ".b32 %r10|%p1, %r1, " +
            std::to_string(k.b) + ", " + std::to_string(k.c) + ", 0xffffffff;\n";
    body += "  st.global.u32 [%rd3+" + std::to_string(8 * i) + "], %r10;\n";
    body += "  selp.u32 %r41, " + std::to_string(1u << i) + ", 0, %p1;\n  or.b32 %r40, %r40, %r41;\n";
  }
  body += "  st.global.u32 [%rd3+56], %r40;\n";
  auto o = run_body(body, rows);
  std::vector<u32> a;
  for (auto& r : rows) a.push_back(static_cast<u32>(r[0]));
  for (unsigned t = 0; t < 32; ++t) {
    u32 pbits = 0;
    for (unsigned i = 0; i < 7; ++i) {
      auto [v, p] = shfl_ref(a, t, cases[i].m, cases[i].b, cases[i].c);
      EXPECT_EQ(o.u32(t, i), v) << "lane " << t << " case " << i;
      pbits |= u32{p} << i;
    }
    EXPECT_EQ(o.u32(t, 7), pbits) << "lane " << t;
  }
}

TEST(Warp, ShuffleRegisterOperandsAndF32) {
  auto rows = lane_rows(32, [](unsigned t) -> u32 { return std::bit_cast<u32>(1.5f * t); });
  auto o = run_body(R"(
  and.b32 %r10, %r0, 3;
  shfl.sync.idx.b32 %r11, %r1, %r10, 31, 0xffffffff;
  mov.b32 %f10, %r11;
  st.global.f32 [%rd3], %f10;
  mov.u32 %r12, 16;
  shfl.sync.bfly.b32 %r13, %r1, %r12, 31, -1;
  st.global.u32 [%rd3+8], %r13;
)", rows);
  for (unsigned t = 0; t < 32; ++t) {
    EXPECT_EQ(o.f32(t, 0), 1.5f * (t & 3)) << t;
    EXPECT_EQ(o.u32(t, 1), std::bit_cast<u32>(1.5f * (t ^ 16))) << t;
  }
}

// Every mode against the ISA pseudo-code (shfl_src) for source lanes / offsets b = 0..63 (the
// ISA uses b[4:0]: b = 37 reads lane 5, bfly 33 lane ^ 1), clamp/segment operands c of every
// width CUDA passes and some with stray high bits, full and partial member masks, under the
// IPDOM stack and independent thread scheduling. b and c are registers; each active lane
// stores (value, pval) for each b. A value whose source lane is outside the member mask is
// undefined in the ISA and not compared.
TEST(Warp, ShuffleFollowsTheIsaForEveryModeOperandWidthAndMask) {
  const char* names[] = {"up", "down", "bfly", "idx"};
  const u32 cs[] = {0x1f,   0x0,    0x0f,   0x101f, 0x181f,      0x1c1f,      0x1e1f, 0x1f1f,
                    0x1000, 0x1800, 0x1e00, 0x0703, 0xffffe0ffu, 0xfffff7e5u, 0x3f};
  const u32 masks[] = {0xffffffffu, 0x55555555u, 0x0000ffffu, 0x80000001u};
  std::vector<u32> a(32);
  for (unsigned t = 0; t < 32; ++t) a[t] = 1000 + t * t;
  for (const char* unit : {"ipdom_stack", "its"}) {
    for (int mi = 0; mi < 4; ++mi) {
      const Mode mode = static_cast<Mode>(mi);
      const std::string text =
          std::string(kHeader) +
          ".visible .entry k(.param .u64 out, .param .u32 c, .param .u32 m)\n{\n" + kRegs + R"(
  ld.param.u64 %rd0, [out];
  ld.param.u32 %r2, [c];
  ld.param.u32 %r3, [m];
  mov.u32 %r0, %tid.x;
  mul.lo.u32 %r1, %r0, %r0;
  add.u32 %r1, %r1, 1000;
  shr.u32 %r4, %r3, %r0;
  and.b32 %r4, %r4, 1;
  setp.eq.u32 %p1, %r4, 0;
  @%p1 bra $DONE;
  mul.wide.u32 %rd1, %r0, 512;
  add.s64 %rd2, %rd0, %rd1;
  mov.u32 %r5, 0;
$LOOP:
  shfl.sync.)" +
          names[mi] + R"(.b32 %r6|%p2, %r1, %r5, %r2, %r3;
  selp.u32 %r7, 1, 0, %p2;
  st.global.u32 [%rd2], %r6;
  st.global.u32 [%rd2+4], %r7;
  add.s64 %rd2, %rd2, 8;
  add.u32 %r5, %r5, 1;
  setp.lt.u32 %p3, %r5, 64;
  @%p3 bra $LOOP;
$DONE:
  ret;
}
)";
      for (u32 c : cs)
        for (u32 mask : masks) {
          SCOPED_TRACE(fmt::format("{} shfl.{} c={:#x} mask={:#x}", unit, names[mi], c, mask));
          DeviceOptions opts;
          opts.reconvergence = simt::reconvergence_choice(unit);
          Device dev(opts);
          const int mod = dev.load_module(ptx::parse_module(text, "shfl.ptx"));
          const Addr out = dev.upload(std::vector<u32>(32 * 64 * 2, 0xdeadbeefu));
          const LaunchResult r = dev.launch(mod, "k", Dim3{1, 1, 1}, Dim3{32, 1, 1},
                                            KernelArgs().add(out).add(c).add(mask));
          ASSERT_TRUE(r.completed) << r.watchdog_report;
          const std::vector<u32> o = dev.download<u32>(out, 32 * 64 * 2);
          int wrong = 0;
          for (unsigned t = 0; t < 32; ++t) {
            const bool active = (mask >> t) & 1;
            for (u32 b = 0; b < 64; ++b) {
              const u32 v = o[(t * 64 + b) * 2], p = o[(t * 64 + b) * 2 + 1];
              if (!active) {
                wrong += v != 0xdeadbeefu || p != 0xdeadbeefu;
                continue;
              }
              const auto [j, pval] = shfl_src(t, mode, b, c);
              if (p != u32{pval}) {
                ++wrong;
                ADD_FAILURE() << "lane " << t << " b " << b << ": p " << p << ", ISA " << pval;
              }
              if (((mask >> j) & 1) && v != a[j]) {
                ++wrong;
                ADD_FAILURE() << "lane " << t << " b " << b << ": " << v << ", ISA lane " << j
                              << "'s " << a[j];
              }
              if (wrong > 8) return;
            }
          }
        }
    }
  }
}

TEST(Warp, ActivemaskUnderDivergence) {
  std::vector<Row> rows(40, Row{0, 0, 0});
  auto o = run_body(R"(
  activemask.b32 %r10;            st.global.u32 [%rd3], %r10;
  setp.lt.u32 %p1, %r0, 10;
  @!%p1 bra $ELSE;
  activemask.b32 %r11;            st.global.u32 [%rd3+8], %r11;
  bra.uni $END;
$ELSE:
  activemask.b32 %r11;            st.global.u32 [%rd3+8], %r11;
$END:
  activemask.b32 %r12;            st.global.u32 [%rd3+16], %r12;
)", rows);
  for (unsigned t = 0; t < 40; ++t) {
    SCOPED_TRACE(t);
    u32 full = t < 32 ? 0xffffffffu : 0xffu;  // the second warp has 8 threads
    EXPECT_EQ(o.u32(t, 0), full);
    EXPECT_EQ(o.u32(t, 1), t < 10 ? 0x3ffu : (t < 32 ? 0xfffffc00u : 0xffu));
    EXPECT_EQ(o.u32(t, 2), full);
  }
}

TEST(Warp, BarRedAcrossWarps) {
  std::vector<Row> rows(128, Row{0, 0, 0});
  auto o = run_body(R"(
  rem.u32 %r10, %r0, 3;
  setp.eq.u32 %p1, %r10, 0;
  bar.red.popc.u32 %r11, 0, %p1;  st.global.u32 [%rd3], %r11;
  setp.lt.u32 %p2, %r0, 200;
  bar.red.and.pred %p3, 1, %p2;
  selp.u32 %r12, 1, 0, %p3;       st.global.u32 [%rd3+8], %r12;
  bar.red.and.pred %p4, 2, %p1;
  selp.u32 %r13, 1, 0, %p4;       st.global.u32 [%rd3+16], %r13;
  setp.eq.u32 %p5, %r0, 77;
  bar.red.or.pred %p6, 3, %p5;
  selp.u32 %r14, 1, 0, %p6;       st.global.u32 [%rd3+24], %r14;
  barrier.sync 4;
  bar.red.popc.u32 %r15, 5, 128, %p2; st.global.u32 [%rd3+32], %r15;
)", rows);
  for (unsigned t = 0; t < 128; ++t) {
    SCOPED_TRACE(t);
    EXPECT_EQ(o.u32(t, 0), 43u);  // multiples of 3 in [0, 128)
    EXPECT_EQ(o.u32(t, 1), 1u);
    EXPECT_EQ(o.u32(t, 2), 0u);
    EXPECT_EQ(o.u32(t, 3), 1u);
    EXPECT_EQ(o.u32(t, 4), 128u);
  }
}

}  // namespace
}  // namespace simtsync::func::testing

namespace simtsync::func {
namespace {

// Call frames belong to the threads that entered the call: threads at different call depths
// (as independent thread scheduling runs them) each find their own frame.
TEST(CallFrames, EachSplitFindsItsOwnFrame) {
  Warp w(32, 0);
  w.kernel_function = 0;
  CallFrame outer;
  outer.callee = 1;
  outer.mask = 0xffff;  // lanes 0-15 called f
  outer.base = 64;
  CallFrame inner;
  inner.callee = 2;
  inner.mask = 0x00ff;  // lanes 0-7 then called g from f
  inner.base = 128;
  w.calls = {outer, inner};
  w.select_frame(0x0f);  // lanes 0-3: in g
  EXPECT_EQ(w.function, 2);
  EXPECT_EQ(w.frame_base, 128u);
  w.select_frame(0xf00);  // lanes 8-11: in f
  EXPECT_EQ(w.function, 1);
  EXPECT_EQ(w.frame_base, 64u);
  w.select_frame(0xf0000);  // lanes 16-19: at kernel level
  EXPECT_EQ(w.function, 0);
  EXPECT_EQ(w.frame_base, 0u);
  EXPECT_EQ(w.frame_of(0xf0000), nullptr);
}

}  // namespace
}  // namespace simtsync::func
