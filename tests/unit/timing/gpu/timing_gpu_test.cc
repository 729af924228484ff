// Whole-GPU tests through func::Device: identical runs give identical statistics; the warp
// scheduler changes the cycle count of a contended spin-lock kernel (ht).
#include "timing/gpu/timing_gpu.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "config/config.h"
#include "config/schema.h"
#include "func/device.h"
#include "gpu/ht_run.h"
#include "ptx/parser.h"
#include "stats/timing_report.h"
#include "timing/sched/i_fetch_policy.h"
#include "timing/sched/i_warp_scheduler.h"

namespace simtsync::gpu {
namespace {

using ht_fixture::ht_ptx;
using ht_fixture::HtRun;
using ht_fixture::run_ht;

GpuParams tiny(const std::string& sched = "", const std::string& fetch = "") {
  std::vector<std::pair<std::string, std::string>> sets;
  if (!sched.empty()) sets.push_back({"sm.warp_scheduler.impl", sched});
  if (!fetch.empty()) sets.push_back({"sm.fetch_policy.impl", fetch});
  GpuParams p = gpu_params_from(config::Config::load(config::gpu_schema(), "tiny", sets));
  p.registers_per_thread = 16;  // no ptxas needed
  return p;
}

void expect_valid(const HtRun& r, std::size_t total) {
  EXPECT_TRUE(r.result.completed) << r.result.watchdog_report;
  EXPECT_TRUE(r.locks_free);
  EXPECT_EQ(r.linked, total);
  EXPECT_GT(r.result.cycles, 0u);
}

void expect_same(const TimingTotals& a, const TimingTotals& b) {
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.kernels, b.kernels);
  // Every declared statistic of every component, as the run reports it (JSON and CSV).
  const nlohmann::json ja = stats::timing_stats_json(a, 32), jb = stats::timing_stats_json(b, 32);
  EXPECT_TRUE(ja.contains("memory"));
  EXPECT_EQ(ja.dump(), jb.dump());
}

TEST(TimingGpu, TwoIdenticalRunsGiveIdenticalStatistics) {
  ASSERT_FALSE(ht_ptx().empty());
  const GpuParams p = tiny();
  HtRun a = run_ht(p), b = run_ht(p);
  expect_valid(a, 4 * 64 * 2);
  expect_valid(b, 4 * 64 * 2);
  EXPECT_EQ(a.result.cycles, b.result.cycles);
  EXPECT_EQ(a.result.stats.warp_instructions, b.result.stats.warp_instructions);
  expect_same(a.totals, b.totals);
}

// The parallel SM phase (issue 20): any number of host threads, the same statistics, on a
// many-SM GPU where most cycles tick dozens of SMs at once.
TEST(TimingGpu, OneTwoAndFourHostThreadsGiveIdenticalStatistics) {
  GpuParams p = gpu_params_from(config::Config::load(config::gpu_schema(), "qv100", {}));
  p.registers_per_thread = 16;
  const HtRun one = run_ht(p, 40, 64, 1024, 1);
  expect_valid(one, 40 * 64 * 2);
  for (unsigned t : {2u, 4u}) {
    SCOPED_TRACE("threads " + std::to_string(t));
    const HtRun many = run_ht(p, 40, 64, 1024, t);
    expect_valid(many, 40 * 64 * 2);
    EXPECT_EQ(one.result.cycles, many.result.cycles);
    EXPECT_EQ(one.result.stats.warp_instructions, many.result.stats.warp_instructions);
    EXPECT_EQ(one.result.stats.thread_instructions, many.result.stats.thread_instructions);
    expect_same(one.totals, many.totals);
    EXPECT_EQ(one.totals.hier.l1.hits, many.totals.hier.l1.hits);
    EXPECT_EQ(one.totals.hier.l2.misses, many.totals.hier.l2.misses);
    EXPECT_EQ(one.totals.hier.refused, many.totals.hier.refused);
  }
}

TEST(TimingGpu, StallClassificationCoversEveryActiveCycle) {
  HtRun r = run_ht(tiny());
  expect_valid(r, 4 * 64 * 2);
  std::uint64_t ctas = 0;
  for (const sm::SmStats& s : r.totals.sm) {
    ctas += s.ctas_completed;
    for (const sm::SchedStats& sc : s.sched) {
      std::uint64_t sum = 0;
      for (std::uint64_t c : sc.cycles) sum += c;
      EXPECT_EQ(sum, s.active_cycles);
    }
    EXPECT_LE(s.active_cycles, r.result.cycles);
  }
  EXPECT_EQ(ctas, 4u);
}

TEST(TimingGpu, LrrAndGtoGiveDifferentCycleCountsOnHt) {
  HtRun lrr = run_ht(tiny("lrr")), gto = run_ht(tiny("gto"));
  expect_valid(lrr, 4 * 64 * 2);
  expect_valid(gto, 4 * 64 * 2);
  EXPECT_NE(lrr.result.cycles, gto.result.cycles);
  std::printf("ht on tiny: lrr %llu cycles, gto %llu cycles\n",
              static_cast<unsigned long long>(lrr.result.cycles),
              static_cast<unsigned long long>(gto.result.cycles));
}

// Every registered issue policy and every registered fetch policy (from their .def tables, so a
// new one is covered without editing this test) completes the contended kernel correctly.
TEST(TimingGpu, EverySchedulerCompletesHtCorrectly) {
  ASSERT_GE(sched::schedulers().size(), 10u);
  for (const auto& s : sched::schedulers()) {
    SCOPED_TRACE(s.name);
    expect_valid(run_ht(tiny(s.name)), 4 * 64 * 2);
  }
}

TEST(TimingGpu, EveryFetchPolicyCompletesHtCorrectly) {
  ASSERT_GE(sched::fetch_policies().size(), 3u);
  for (const auto& f : sched::fetch_policies()) {
    SCOPED_TRACE(f.name);
    expect_valid(run_ht(tiny("gto", f.name)), 4 * 64 * 2);
    expect_valid(run_ht(tiny("mwf_lrr", f.name)), 4 * 64 * 2);
  }
}

}  // namespace
}  // namespace simtsync::gpu

namespace simtsync::gpu {
namespace {

// A policy that holds every warp back for N cycles: the GPU neither reports a false deadlock
// (every SM asleep) nor charges the hold as idle; the run then completes correctly.
TEST(TimingGpu, APolicyHoldingEveryWarpIsNeitherADeadlockNorIdle) {
  constexpr Cycle kHold = 300'000;  // beyond watchdog.quiet_cycles (200,000 in tiny)
  GpuParams p = gpu_params_from(
      config::Config::load(config::gpu_schema(), "tiny",
                           {{"sm.warp_scheduler.impl", "example_hold"},
                            {"sm.warp_scheduler.hold_cycles", std::to_string(kHold)}}));
  p.registers_per_thread = 16;
  const HtRun held = run_ht(p);
  expect_valid(held, 4 * 64 * 2);
  EXPECT_GT(held.result.cycles, kHold);
  const HtRun lrr = run_ht(tiny("lrr"));
  std::uint64_t h = 0, idle_held = 0, idle_lrr = 0;
  for (const auto& s : held.totals.sm)
    for (const auto& sc : s.sched) {
      h += sc.cycles[static_cast<int>(sm::StallKind::kHeld)];
      idle_held += sc.cycles[static_cast<int>(sm::StallKind::kIdle)];
    }
  for (const auto& s : lrr.totals.sm)
    for (const auto& sc : s.sched) idle_lrr += sc.cycles[static_cast<int>(sm::StallKind::kIdle)];
  EXPECT_GE(h, kHold);  // at least one scheduler held for the whole hold
  // The hold adds no idle cycles: after it the policy is LRR, so idle time stays LRR's order.
  EXPECT_LT(idle_held, idle_lrr + kHold / 100);
  // Statistics follow the declaration: the policy's counter is there, named.
  ASSERT_EQ(held.totals.issue_stats.size(), 1u);
  EXPECT_EQ(held.totals.issue_stats[0].name, "empty_orders");
}

}  // namespace
}  // namespace simtsync::gpu
