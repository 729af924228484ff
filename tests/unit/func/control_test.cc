// Control flow end to end through the Device: divergent if/else and loops, device function
// calls with parameters and return values, exit, the recursion workload (seed 004 Example 2),
// and kernels that can never finish (naive spin lock, barrier deadlock) reported by the
// watchdog instead of hanging.
#include <gtest/gtest.h>

#include <cstdint>

#include "func_test_util.h"

namespace simtsync::func::testing {
namespace {

using u32 = std::uint32_t;

TEST(Control, DivergentIfElseAndLoops) {
  std::vector<Row> rows;
  for (unsigned t = 0; t < 48; ++t) rows.push_back({t, t % 7, 0});
  auto o = run_body(R"(
  and.b32 %r10, %r0, 1;
  setp.eq.u32 %p1, %r10, 0;
  @%p1 bra $EVEN;
  mul.lo.s32 %r11, %r1, 3;
  bra.uni $JOIN;
$EVEN:
  add.s32 %r11, %r1, 100;
$JOIN:
  st.global.u32 [%rd3], %r11;
  // Loop with a per-thread trip count: sum 1..r2.
  mov.u32 %r12, 0;
  mov.u32 %r13, 0;
$LOOP:
  setp.ge.u32 %p2, %r13, %r2;
  @%p2 bra $DONE;
  add.s32 %r13, %r13, 1;
  add.s32 %r12, %r12, %r13;
  bra.uni $LOOP;
$DONE:
  st.global.u32 [%rd3+8], %r12;
  activemask.b32 %r14;
  st.global.u32 [%rd3+16], %r14;
)", rows);
  for (unsigned t = 0; t < 48; ++t) {
    SCOPED_TRACE(t);
    EXPECT_EQ(o.u32(t, 0), t % 2 == 0 ? t + 100 : 3 * t);
    u32 n = t % 7;
    EXPECT_EQ(o.u32(t, 1), n * (n + 1) / 2);
    EXPECT_EQ(o.u32(t, 2), t < 32 ? 0xffffffffu : 0xffffu) << "reconverged after the loop";
  }
  EXPECT_GT(o.result.stats.warp_instructions, 0u);
}

constexpr const char* kFunc = R"(
.func (.param .b32 ret) madd7(.param .b32 a, .param .b32 b)
{
  .reg .b32 %t<4>;
  .reg .pred %q;
  ld.param.b32 %t1, [a];
  ld.param.b32 %t2, [b];
  setp.gt.s32 %q, %t1, 10;
  @%q bra $BIG;
  mul.lo.s32 %t3, %t1, %t2;
  add.s32 %t3, %t3, 7;
  st.param.b32 [ret], %t3;
  ret;
$BIG:
  sub.s32 %t3, %t1, %t2;
  st.param.b32 [ret], %t3;
  ret;
}
)";

TEST(Control, DeviceFunctionWithParamsAndReturn) {
  std::vector<Row> rows;
  for (unsigned t = 0; t < 40; ++t) rows.push_back({t, 2 * t + 1, 0});
  auto o = run_body(R"(
  {
  .param .b32 p0;
  .param .b32 p1;
  .param .b32 rv;
  st.param.b32 [p0], %r1;
  st.param.b32 [p1], %r2;
  call.uni (rv), madd7, (p0, p1);
  ld.param.b32 %r10, [rv];
  }
  st.global.u32 [%rd3], %r10;
  // A call made by only the odd threads.
  and.b32 %r11, %r0, 1;
  setp.eq.u32 %p1, %r11, 0;
  mov.u32 %r12, 0xdead;
  @%p1 bra $SKIP;
  {
  .param .b32 q0;
  .param .b32 q1;
  .param .b32 qv;
  st.param.b32 [q0], %r10;
  st.param.b32 [q1], 1;
  call (qv), madd7, (q0, q1);
  ld.param.b32 %r12, [qv];
  }
$SKIP:
  st.global.u32 [%rd3+8], %r12;
)", rows, kFunc);
  auto f = [](std::int32_t a, std::int32_t b) { return a > 10 ? a - b : a * b + 7; };
  for (unsigned t = 0; t < 40; ++t) {
    SCOPED_TRACE(t);
    std::int32_t r = f(static_cast<std::int32_t>(t), static_cast<std::int32_t>(2 * t + 1));
    EXPECT_EQ(o.s32(t, 0), r);
    EXPECT_EQ(o.s32(t, 1), t % 2 ? f(r, 1) : 0xdead);
  }
}

TEST(Control, ExitSubsetThenOthersContinue) {
  std::vector<Row> rows(64, Row{0, 0, 0});
  auto o = run_body(R"(
  mov.u32 %r10, 1;
  st.global.u32 [%rd3], %r10;
  setp.lt.u32 %p1, %r0, 20;
  @%p1 exit;
  mov.u32 %r11, 2;
  st.global.u32 [%rd3+8], %r11;
  bar.sync 0;
  st.global.u32 [%rd3+16], %r11;
)", rows);
  for (unsigned t = 0; t < 64; ++t) {
    EXPECT_EQ(o.u32(t, 0), 1u);
    EXPECT_EQ(o.u32(t, 1), t < 20 ? 0u : 2u) << t;
    EXPECT_EQ(o.u32(t, 2), t < 20 ? 0u : 2u) << t;
  }
}

TEST(Control, GridOfCtas) {
  // 3 CTAs of 40 threads: each thread writes ctaid.x * ntid.x + tid.x at its global index.
  std::string text = std::string(kHeader) + R"(
.visible .entry k(.param .u64 out, .param .u64 in)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.s32 %r4, %r1, %r2, %r3;
  mov.u32 %r5, %nctaid.x;
  mul.wide.u32 %rd2, %r4, 64;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r4;
  st.global.u32 [%rd3+8], %r5;
  ret;
}
)";
  auto o = run_text(text, {}, 40, 3);
  ASSERT_TRUE(o.result.completed);
  for (unsigned i = 0; i < 120; ++i) {
    EXPECT_EQ(o.u32(i, 0), i);
    EXPECT_EQ(o.u32(i, 1), 3u);
  }
}

// Seed 004 Example 2 through the whole machine: threads with tid > 4 must return 4.
TEST(Control, RecursionWorkloadKeepsLevelsApart) {
  Device dev;
  int m = dev.load_module(
      ptx::load_module_file(source_dir() + "/workloads/recursion/recursion.ptx"));
  constexpr unsigned kThreads = 64;
  Addr out = dev.upload(std::vector<std::int32_t>(kThreads, -1));
  LaunchResult r = dev.launch(m, "recursion", Dim3{1, 1, 1}, Dim3{kThreads, 1, 1},
                              KernelArgs().add(out));
  ASSERT_TRUE(r.completed) << r.watchdog_report;
  auto v = dev.download<std::int32_t>(out, kThreads);
  for (unsigned t = 0; t < kThreads; ++t) EXPECT_EQ(v[t], t > 4 ? 4 : 2) << "thread " << t;
}

// Seed 003 Fig. 1: the MIMD spin lock deadlocks under the IPDOM stack; the watchdog reports the
// spinning loop's source line instead of hanging.
TEST(Control, NaiveLockIsReportedAsDeadlock) {
  DeviceOptions opts;
  opts.watchdog.quiet_steps = 20000;
  Device dev(opts);
  int m = dev.load_module(
      ptx::load_module_file(source_dir() + "/workloads/naive_lock/naive_lock.ptx"));
  Addr mutex = dev.upload(std::vector<std::int32_t>{0});
  Addr counter = dev.upload(std::vector<std::int32_t>{0});
  LaunchResult r = dev.launch(m, "naive_lock", Dim3{1, 1, 1}, Dim3{32, 1, 1},
                              KernelArgs().add(mutex).add(counter));
  EXPECT_FALSE(r.completed);
  EXPECT_FALSE(r.watchdog_reason.empty());
  EXPECT_NE(r.watchdog_report.find("naive_lock.cu:5"), std::string::npos) << r.watchdog_report;
  // The lock holder never reaches the critical section.
  EXPECT_EQ(dev.download<std::int32_t>(counter, 1)[0], 0);
}

TEST(Control, SpinLockWithOneThreadPerWarpCompletes) {
  // The same lock is fine when each warp has a single contender (no intra-warp divergence).
  DeviceOptions opts;
  opts.watchdog.quiet_steps = 20000;
  Device dev(opts);
  int m = dev.load_module(
      ptx::load_module_file(source_dir() + "/workloads/naive_lock/naive_lock.ptx"));
  Addr mutex = dev.upload(std::vector<std::int32_t>{0});
  Addr counter = dev.upload(std::vector<std::int32_t>{0});
  LaunchResult r = dev.launch(m, "naive_lock", Dim3{8, 1, 1}, Dim3{1, 1, 1},
                              KernelArgs().add(mutex).add(counter));
  EXPECT_TRUE(r.completed) << r.watchdog_report;
  EXPECT_EQ(dev.download<std::int32_t>(counter, 1)[0], 8);
}

TEST(Control, BarrierThatCannotCompleteIsADeadlock) {
  // Warp 1 exits at once; warp 0 waits at a barrier that expects 64 threads.
  std::vector<Row> rows(64, Row{0, 0, 0});
  DeviceOptions opts;
  opts.watchdog.quiet_steps = 20000;
  auto o = run_text(per_thread_kernel(R"(
  setp.ge.u32 %p1, %r0, 32;
  @%p1 exit;
  bar.sync 0, 64;
  mov.u32 %r10, 1;
  st.global.u32 [%rd3], %r10;
)"), rows, 0, 1, opts);
  EXPECT_FALSE(o.result.completed);
  EXPECT_NE(o.result.watchdog_reason.find("deadlock"), std::string::npos)
      << o.result.watchdog_reason;
  EXPECT_NE(o.result.watchdog_report.find("bar"), std::string::npos) << o.result.watchdog_report;
  EXPECT_EQ(o.u32(0, 0), 0u);
}

TEST(Control, BarrierInsideDivergentBranchOfWholeWarps) {
  // Warps 0 and 1 take the branch, warp 2 does not: bar.sync 1, 64 counts the two warps only.
  std::vector<Row> rows(96, Row{0, 0, 0});
  auto o = run_body(R"(
  setp.ge.u32 %p1, %r0, 64;
  @%p1 bra $OUT;
  mov.u32 %r10, sm;
  shl.b32 %r11, %r0, 2;
  add.s32 %r12, %r10, %r11;
  st.shared.u32 [%r12], %r0;
  bar.sync 1, 64;
  xor.b32 %r13, %r11, 128;
  add.s32 %r14, %r10, %r13;
  ld.shared.u32 %r15, [%r14];
  st.global.u32 [%rd3], %r15;
$OUT:
)", rows, ".shared .align 4 .b32 sm[64];");
  for (unsigned t = 0; t < 64; ++t) EXPECT_EQ(o.u32(t, 0), t ^ 32) << t;
}

TEST(Control, QuietInfiniteLoopIsReportedAsLivelock) {
  DeviceOptions opts;
  opts.watchdog.quiet_steps = 5000;
  auto o = run_text(per_thread_kernel(R"(
$SPIN:
  add.s32 %r10, %r10, 0;
  bra.uni $SPIN;
)"), std::vector<Row>(4, Row{0, 0, 0}), 0, 1, opts);
  EXPECT_FALSE(o.result.completed);
}

}  // namespace
}  // namespace simtsync::func::testing
