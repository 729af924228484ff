// The warp priority table and the barrier-aware policies inside a real SM: the table, fed by the
// SM's events, agrees with the SM's own count of waiting warps at every event, and a kernel
// whose warps reach two barriers at different times finishes under every combination.
#include <gtest/gtest.h>

#include "sm/sm_test_util.h"
#include "timing/sched/warp_phase_tracker.h"
#include "timing/sched/warp_priority_table.h"

namespace simtsync::sm::testing {
namespace {

// Warp w spins 5*w iterations before each of two barriers (phases of unequal length).
constexpr const char* kPhases = R"(
  mov.u32 %r1, %tid.x;
  shr.u32 %r2, %r1, 5;
  mul.lo.u32 %r3, %r2, 5;
  mov.u32 %r4, 0;
L1:
  setp.ge.u32 %p1, %r4, %r3;
  @%p1 bra D1;
  add.u32 %r4, %r4, 1;
  bra.uni L1;
D1:
  bar.sync 0;
  mov.u32 %r4, 0;
L2:
  setp.ge.u32 %p2, %r4, %r3;
  @%p2 bra D2;
  add.u32 %r4, %r4, 1;
  bra.uni L2;
D2:
  bar.sync 0;
  ret;)";

// Compares the table with the SM after every event the table has heard (subscribed after it).
struct Checker final : ISmObserver {
  const sched::WarpPriorityTable* wpt = nullptr;
  const Sm* sm = nullptr;
  int checks = 0, max_waiting = 0, mismatches = 0;
  void check(int c) {
    ++checks;
    const unsigned want = sm->cta_waiting(c);
    if (wpt->waiting(c) != want) ++mismatches;
    max_waiting = std::max(max_waiting, static_cast<int>(want));
  }
  void on_issue(const IssueEvent& e) override {
    if (e.barrier_arrival) check(e.cta_slot);
  }
  void on_barrier_release(const BarrierEvent& e) override { check(e.cta_slot); }
};

TEST(WarpPriorityTableInSm, AgreesWithTheSmsWaitingCountAtEveryEvent) {
  SmRig rig(kPhases, small_params(), 128);
  sched::WarpPriorityTable wpt(&rig.sm, &rig.sm.events());
  Checker chk;
  chk.wpt = &wpt;
  chk.sm = &rig.sm;
  rig.sm.events().subscribe(&chk);
  ASSERT_TRUE(rig.run());
  EXPECT_EQ(chk.checks, 2 * 4 + 2);  // 4 warps arrive twice, 2 releases
  EXPECT_EQ(chk.mismatches, 0);
  EXPECT_EQ(chk.max_waiting, 3);
  EXPECT_EQ(wpt.waiting(0), 0u);
}

TEST(BawsPoliciesInSm, FinishUnderEveryIssueAndFetchCombination) {
  for (const char* issue : {"mwf_lrr", "mwf_gto"})
    for (const char* fetch : {"rr", "cff", "fef"}) {
      SCOPED_TRACE(std::string(issue) + "+" + fetch);
      SmParams p = small_params();
      p.scheduler = sched::scheduler_params(issue);
      p.fetch_policy = sched::fetch_params(fetch);
      SmRig rig(kPhases, p, 128);
      EXPECT_TRUE(rig.run());
    }
}

// RTRU on a kernel with a known imbalance: warp w spins 5*w iterations per phase, so warp 3 is
// critical in both phases and most of the others' time is spent waiting; with equal work (every
// warp spins 10 iterations) the phases are nearly balanced.
TEST(WarpPhasesInSm, RtruSeesTheImbalanceAndTheCriticalWarp) {
  SmRig rig(kPhases, small_params(), 128);
  sched::WarpPhaseTracker t(&rig.sm);
  rig.sm.events().subscribe(&t);
  ASSERT_TRUE(rig.run());
  // Two barrier phases, then the exit phase (the warps return right after the last barrier).
  ASSERT_EQ(t.phases().size(), 3u);
  EXPECT_TRUE(t.phases()[2].exit);
  EXPECT_EQ(t.phases()[2].warps, 4u);
  for (const auto& p : t.phases()) {
    if (p.exit) continue;
    EXPECT_EQ(p.warps, 4u);
    EXPECT_EQ(p.critical, 3);
    EXPECT_GT(p.rtru, 0.3) << p.start;
    EXPECT_LT(p.rtru, 0.75) << p.start;
  }
  std::string balanced = kPhases;
  balanced.replace(balanced.find("mul.lo.u32 %r3, %r2, 5;"), 23, "mov.u32 %r3, 10;       ");
  SmRig rig2(balanced, small_params(), 128);
  sched::WarpPhaseTracker t2(&rig2.sm);
  rig2.sm.events().subscribe(&t2);
  ASSERT_TRUE(rig2.run());
  ASSERT_EQ(t2.phases().size(), 3u);
  EXPECT_LT(t2.mean_rtru(), 0.15);
  EXPECT_LT(t2.mean_rtru(), t.mean_rtru() / 3);
}

}  // namespace
}  // namespace simtsync::sm::testing
