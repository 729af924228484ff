// The timing watchdog's evidence of progress (issue 23, timing/gpu/progress_watch.h): a slow
// but progressing lock hand-off is not a livelock, a starved lock holder is one (suspected),
// and the memory hash it samples sees contents, not the order of writes.
#include "timing/gpu/progress_watch.h"

#include <gtest/gtest.h>

#include <string>

#include "config/config.h"
#include "config/schema.h"
#include "func/device.h"
#include "func/global_memory.h"
#include "gpu/ht_run.h"
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
// latency, resident kernel parameters); with gtx480's current ones the holder gets an LD/ST
// slot and the run completes.
func::LaunchResult lane_per_cycle_ht(const std::string& priority) {
  return ht_result(params("gtx480", {{"sm.fetch_decode", "1"},
                                     {"sm.latency.int", "4"},
                                     {"sm.latency.fp", "4"},
                                     {"sm.latency.imul", "5"},
                                     {"mem.atomic.l2_access", "false"},
                                     {"mem.const_cache.kernel_params", "resident"},
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
