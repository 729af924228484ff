// The timing watchdog's evidence of progress (issue 23, timing/gpu/progress_watch.h): a slow
// but progressing lock hand-off is not a livelock, a starved lock holder is one (suspected), a
// warp that loses every compare-and-swap on a word other CTAs keep taking is named (issue 50),
// and the memory hash it samples sees contents, not the order of writes.
#include "timing/gpu/progress_watch.h"

#include <gtest/gtest.h>

#include <string>

#include "config/config.h"
#include "config/schema.h"
#include "func/device.h"
#include "func/global_memory.h"
#include "gpu/ht_run.h"
#include "ptx/parser.h"
#include "sim/simulator.h"
#include "timing/gpu/timing_gpu.h"

namespace simtsync::gpu {
namespace {

GpuParams params(const std::string& config,
                 const std::vector<std::pair<std::string, std::string>>& sets) {
  GpuParams p = gpu_params_from(config::Config::load(config::gpu_schema(), config, sets));
  p.registers_per_thread = 16;  // no ptxas needed
  return p;
}

// ht_insert on 4 x 64 threads, 2 keys each, into `buckets` buckets.
func::LaunchResult ht_result(const GpuParams& p, unsigned buckets) {
  return ht_fixture::run_ht(p, 4, 64, buckets).result;
}

TEST(ProgressWatch, SlowLockHandOffsAreProgressNotLivelock) {
  // One bucket: no CTA completes for about 200,000 cycles, twice the window, but every
  // hand-off links a new key (memory reaches new states), so the run completes.
  const func::LaunchResult r =
      ht_result(params("tiny", {{"watchdog.no_completion_window", "100000"}}), /*buckets=*/1);
  EXPECT_TRUE(r.completed) << r.watchdog_reason;
  EXPECT_GT(r.cycles, 200000u);
}

// 7-thread warps issuing one lane a cycle under strict GTO on the GTX480, 64 buckets, with the
// given scheduler priority. The starvation needs the front end and latencies the scenario was
// built on (one instruction decoded per fetch, 4-cycle ALU, atomics without the L2 access
// latency, resident kernel parameters, I-cache lines usable from their miss on); with gtx480's
// current ones the holder gets an LD/ST slot and the run completes.
func::LaunchResult lane_per_cycle_ht(const std::string& priority) {
  return ht_result(params("gtx480", {{"sm.fetch_decode", "1"},
                                     {"sm.latency.int", "4"},
                                     {"sm.latency.fp", "4"},
                                     {"sm.latency.imul", "5"},
                                     {"mem.atomic.l2_access", "false"},
                                     {"mem.const_cache.kernel_params", "resident"},
                                     {"sm.icache.wait_for_fill", "false"},
                                     {"gpu.warp_size", "7"},
                                     {"sm.max_threads", "336"},
                                     {"sm.simd_width", "1"},
                                     {"sm.warp_scheduler.impl", "gto"},
                                     {"sm.warp_scheduler.rotation_period", "0"},
                                     {"sm.scheduler_priority", priority}}),
                   /*buckets=*/64);
}

TEST(ProgressWatch, StarvedLockHolderIsASuspectedLivelock) {
  // With the fixed scheduler priority, scheduler 0's spinning warps take every LD/ST-queue
  // entry that frees, and the lock holder, on scheduler 1, never issues again.
  const func::LaunchResult r = lane_per_cycle_ht("fixed");
  ASSERT_FALSE(r.completed);
  EXPECT_NE(r.watchdog_reason.find("suspected livelock (starvation)"), std::string::npos)
      << r.watchdog_reason;
  EXPECT_NE(r.watchdog_report.find("stopped: suspected"), std::string::npos);
  EXPECT_LT(r.cycles, 5'000'000u);  // the starvation window (2 M), long before the backstop
  EXPECT_NE(r.watchdog_reason.find("sm.scheduler_priority=rotate may let them run"),
            std::string::npos)
      << r.watchdog_reason;
}

TEST(ProgressWatch, RotatingSchedulerPriorityLetsTheHolderIn) {
  // The same run with the default rotating priority: the holder issues and the run validates.
  const func::LaunchResult r = lane_per_cycle_ht("rotate");
  EXPECT_TRUE(r.completed) << r.watchdog_reason;
}

// Thread 0 of CTA 0 retries a compare-and-swap on word 0 that never swaps (it expects 5; the
// word only holds 0 and 1); thread 0 of CTA 1 takes and frees the word forever (compare-and-
// swap 0 -> 1, then 1 -> 0), and with `count` also adds 1 to word 1 each time (memory then
// reaches a new state at every sample: progress).
std::string cas_rivals_ptx(bool count) {
  return std::string(".version 9.0\n.target sm_75\n.address_size 64\n") + R"(
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p<4>;
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %tid.x;
  setp.ne.u32 %p1, %r2, 0;
  @%p1 bra $DONE;
  setp.eq.u32 %p2, %r1, 0;
  @%p2 bra $LOSER;
$TAKER:
  atom.global.cas.b32 %r3, [%rd1], 0, 1;
  atom.global.cas.b32 %r3, [%rd1], 1, 0;
)" + (count ? "  atom.global.add.u32 %r5, [%rd1+4], 1;\n" : "") +
         R"(  bra.uni $TAKER;
$LOSER:
  atom.global.cas.b32 %r4, [%rd1], 5, 6;
  setp.ne.u32 %p3, %r4, 5;
  @%p3 bra $LOSER;
$DONE:
  ret;
}
)";
}

func::LaunchResult run_cas_rivals(bool count) {
  sim::SimOptions o;
  o.mode = "timing";
  o.config = "tiny";
  o.sets = {{"watchdog.progress_seconds", "0"},
            {"compile.registers_per_thread", "16"},
            {"watchdog.starvation_window", "200000"},
            {"watchdog.max_cycles", "3000000"}};
  sim::Simulator s(o);
  func::Device& dev = s.device();
  const Addr buf = dev.upload(std::vector<std::uint32_t>(4, 0));
  const int m = dev.load_module(ptx::parse_module(cas_rivals_ptx(count), "cas_rivals.ptx"));
  return dev.launch(m, "k", {2, 1, 1}, {32, 1, 1}, func::KernelArgs().add(buf));
}

TEST(ProgressWatch, WarpThatLosesEveryCompareAndSwapIsNamed) {
  // Before issue 50 only the no-completion window (tiny: 1 M cycles) stopped this launch,
  // naming nobody.
  const func::LaunchResult r = run_cas_rivals(/*count=*/false);
  ASSERT_FALSE(r.completed);
  EXPECT_NE(r.watchdog_reason.find("starvation: CTA 0 (warp 0 on SM "), std::string::npos)
      << r.watchdog_reason;
  EXPECT_NE(r.watchdog_reason.find("lost every compare-and-swap on [0x"), std::string::npos);
  EXPECT_NE(r.watchdog_reason.find("cas_rivals.ptx:"), std::string::npos) << r.watchdog_reason;
  EXPECT_NE(r.watchdog_reason.find("(in the last 200000 cycles CTA(s) 1)"), std::string::npos)
      << r.watchdog_reason;
  EXPECT_EQ(r.watchdog_reason.find("starved CTAs in all"), std::string::npos);  // only CTA 0
  EXPECT_LT(r.cycles, 1'000'000u);  // the window and a few samples
}

TEST(ProgressWatch, LosingWhileMemoryProgressesIsNotStarvation) {
  // The same with a counter the taker advances: memory reaches new states, so only the cycle
  // limit stops it.
  const func::LaunchResult r = run_cas_rivals(/*count=*/true);
  ASSERT_FALSE(r.completed);
  EXPECT_NE(r.watchdog_reason.find("watchdog.max_cycles"), std::string::npos) << r.watchdog_reason;
}

TEST(ProgressWatch, MemoryHashSeesContentsNotWriteOrder) {
  func::GlobalMemory a, b;
  const Addr x = a.allocate(1 << 16, "x");
  ASSERT_EQ(b.allocate(1 << 16, "x"), x);
  const std::uint64_t empty = a.content_hash();
  a.store<std::uint32_t>(x + 8, 7);
  a.store<std::uint32_t>(x + 40000, 9);
  b.store<std::uint32_t>(x + 40000, 9);
  b.store<std::uint32_t>(x + 8, 7);
  EXPECT_EQ(a.content_hash(), b.content_hash());
  EXPECT_NE(a.content_hash(), empty);
  b.store<std::uint32_t>(x + 8, 8);
  EXPECT_NE(a.content_hash(), b.content_hash());
  // A lock taken and released again: memory returns to an earlier state, and so does its hash.
  b.store<std::uint32_t>(x + 8, 7);
  EXPECT_EQ(a.content_hash(), b.content_hash());
}

}  // namespace
}  // namespace simtsync::gpu
