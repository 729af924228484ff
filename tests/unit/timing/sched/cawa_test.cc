// CAWA (impl/cawa.cc): criticality nInst x CPI_avg + nStall on hand-built warp states fed with
// issued() and hand-made SM events, then inside a real SM.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "sched/sched_test_util.h"
#include "sm/sm_test_util.h"
#include "timing/sched/critical_warps.h"
#include "timing/sched/critical_warps_unit.h"
#include "timing/sched/i_warp_scheduler.h"

namespace simtsync::sched {
namespace {

using Order = std::vector<int>;
// gCAWS's statistics, then (cawa only) CACP's, counted by the L1.
enum { kResorts, kGreedyHolds, kLoopAdds, kSkipSubs, kGcawsStats };
constexpr int kNumStats = kGcawsStats + static_cast<int>(sched::kCacpStatCount);

// Only at_barrier matters to CAWA.
class View final : public IWarpView {
 public:
  unsigned num_slots() const override { return 8; }
  bool live(int) const override { return true; }
  int cta_slot(int) const override { return 0; }
  Pc pc(int) const override { return 0; }
  bool at_barrier(int slot) const override { return waiting.count(slot) != 0; }
  unsigned ibuffer_count(int) const override { return 0; }
  unsigned outstanding_memory(int) const override { return 0; }
  bool issue_blocked(int) const override { return false; }
  std::uint64_t issued(int) const override { return 0; }
  unsigned cta_waiting(int) const override { return 0; }
  unsigned cta_warps(int) const override { return 0; }
  std::map<int, bool> waiting;
};

struct Rig {
  explicit Rig(std::vector<std::pair<std::string, config::Value>> sets = {},
               const char* impl = "cawa") {
    PolicyContext ctx;
    ctx.warps = &view;
    ctx.events = &bus;
    ctx.counters = counters.data();
    ctx.shared = &units;
    s = make_scheduler(scheduler_params(impl, sets), ctx);
  }
  Order order(const std::vector<SchedWarp>& w, Cycle now, std::uint64_t version = 1) {
    s->order(w, version, now, out);
    return out;
  }
  // A branch of warp `slot` at `pc` to `target`, taken by `taken` of the `active` lanes.
  void branch(int slot, Pc pc, Pc target, LaneMask taken, LaneMask active = 0xffffffff) {
    sm::IssueEvent e;
    e.slot = slot;
    e.pc = pc;
    e.active = active;
    e.guard = taken;
    e.branch = true;
    e.taken = taken;
    e.target = target;
    e.backward = target <= pc;
    bus.deliver(e, &sm::ISmObserver::on_issue);
  }

  const sched::CriticalWarps& board() {
    return units.get<CriticalWarpsUnit>(CriticalWarpsUnit::kName).board;
  }

  View view;
  sm::EventBus bus;
  SharedUnits units;
  std::vector<std::uint64_t> counters = std::vector<std::uint64_t>(kNumStats, 0);
  std::unique_ptr<IWarpScheduler> s;
  Order out;
};

const std::pair<std::string, config::Value> kStrict{"cawa_greedy", false};

TEST(Cawa, DeclaresItsKeysAndStatistics) {
  const SchedulerParams p = scheduler_params("cawa");
  for (const char* k : {"cawa_greedy", "cawa_initial_ninst", "cawa_period", "cawa_barrier_stall"})
    EXPECT_TRUE(p.params.has(k)) << k;
  ASSERT_EQ(scheduler_stats("cawa").size(), static_cast<size_t>(kNumStats));
  EXPECT_EQ(scheduler_stats("cawa")[kResorts].name, "resorts");
  EXPECT_EQ(scheduler_stats("cawa")[kGreedyHolds].name, "greedy_holds");
  EXPECT_EQ(make_scheduler(p)->name(), "cawa");
}

// With equal criticality (fresh warps) the older warp goes first, then the lower slot.
TEST(Cawa, EqualCriticalityGoesToTheOlderWarpThenTheLowerSlot) {
  Rig r({kStrict});
  EXPECT_EQ(r.order(warps({7, 4, 7, 1}), 0), (Order{3, 1, 0, 2}));
  EXPECT_EQ(r.order(warps({7, 4, 7, 1}), 50), (Order{3, 1, 0, 2}));
  Rig g;  // greedy, nothing issued yet
  EXPECT_EQ(g.order(warps({2, -1, 0, 1}), 0), (Order{2, 3, 0}));
}

// One instruction each (progress 1: the learnt kernel length), then warp 2 takes a loop back-edge
// (body of 7, progress -6): nInst 0, 0, 7. At cycle 10 every warp has CPI_avg 10 and nStall 9:
// criticalities 9, 9, 79.
TEST(Cawa, MoreRemainingInstructionsRanksFirst) {
  Rig r({kStrict});
  auto w = warps({0, 1, 2});
  EXPECT_EQ(r.order(w, 0), (Order{0, 1, 2}));
  r.s->issued(0, 0);
  r.s->issued(1, 1);
  r.s->issued(2, 2);
  r.branch(2, 0x40, 0x10, 0xffffffff);
  EXPECT_EQ(r.order(w, 10), (Order{2, 0, 1}));
  EXPECT_EQ(r.counters[kLoopAdds], 1u);
}

// A cycle in which every warp is blocked (IWarpScheduler::all_blocked) re-rates the warps without
// sorting them: the board's marks, the statistics and every later order are those of a run that
// ordered the warps in that cycle too.
TEST(Cawa, ABlockedCycleLeavesWhatAnOrderWould) {
  for (const int period : {1, 3}) {
    Rig a({{"cawa_period", config::Value(std::int64_t{period})}});
    Rig b({{"cawa_period", config::Value(std::int64_t{period})}});
    const auto w = warps({0, 1, 2, 3, 4});
    for (Cycle t = 0; t < 60; ++t) {
      // Warps issue and loop at different rates, so the order keeps changing.
      const Order oa = a.order(w, t);
      const bool blocked = t % 4 == 1 || t % 4 == 2;
      if (!blocked || !b.s->all_blocked(w, 1, t)) {
        EXPECT_EQ(b.order(w, t), oa) << "period " << period << ", cycle " << t;
      }
      if (!blocked) {
        const int who = static_cast<int>((t * 7) % 5);
        for (Rig* r : {&a, &b}) {
          r->s->issued(who, t);
          if (t % 5 == 0) r->branch(who, 0x40, 0x10, 0xffffffff);
        }
      }
      for (int slot = 0; slot < 5; ++slot)
        EXPECT_EQ(b.board().is_critical(slot), a.board().is_critical(slot))
            << "period " << period << ", cycle " << t << ", slot " << slot;
    }
    EXPECT_EQ(b.order(w, 60), a.order(w, 60)) << "period " << period;
    EXPECT_EQ(b.counters, a.counters) << "period " << period;
    EXPECT_GT(a.counters[kGreedyHolds], 0u) << "period " << period;
  }
}

// The same criticalities 9, 9, 79 on the SM's board: critical is above min + 0.5 x (max - min)
// = 44 among the CTA's warps, so warp 2 only. cawa asks the L1 for CACP and lends it its CACP
// counters (after gCAWS's four); gcaws publishes the same marks and asks for nothing.
TEST(Cawa, PublishesItsCriticalWarpsForTheL1sCacp) {
  for (const char* impl : {"cawa", "gcaws"}) {
    Rig r({kStrict}, impl);
    auto w = warps({0, 1, 2});
    r.order(w, 0);
    EXPECT_FALSE(r.board().is_critical(0)) << impl;  // all equal: none critical
    EXPECT_FALSE(r.board().is_critical(2)) << impl;
    r.s->issued(0, 0);
    r.s->issued(1, 1);
    r.s->issued(2, 2);
    r.branch(2, 0x40, 0x10, 0xffffffff);
    r.order(w, 10);
    EXPECT_FALSE(r.board().is_critical(0)) << impl;
    EXPECT_FALSE(r.board().is_critical(1)) << impl;
    EXPECT_TRUE(r.board().is_critical(2)) << impl;
    const bool cawa = std::string(impl) == "cawa";
    EXPECT_EQ(r.board().cacp_requested, cawa);
    EXPECT_EQ(r.board().counters, cawa ? r.counters.data() + kGcawsStats : nullptr);
    EXPECT_EQ(r.s->name(), impl);
    // Warp 2 leaves: its mark goes with it.
    r.order(warps({0, 1}), 11, 2);
    EXPECT_FALSE(r.board().is_critical(2)) << impl;
  }
  EXPECT_EQ(scheduler_stats("gcaws").size(), static_cast<size_t>(kGcawsStats));
  EXPECT_EQ(scheduler_stats("cawa")[kGcawsStats + static_cast<int>(sched::kCacpCriticalHits)].name,
            "cacp_critical_hits");
}

// nInst 0 (a kernel length of 0, and each loop returns over what it issued): the warp that
// issued less has stalled more. At cycle 10: warp 0 issued 4 (nStall 6), warp 1 issued 2 (8).
TEST(Cawa, MoreStallCyclesRanksFirst) {
  Rig r({kStrict, {"cawa_initial_ninst", std::int64_t{0}}});
  auto w = warps({0, 1});
  EXPECT_EQ(r.order(w, 0), (Order{0, 1}));
  for (Cycle c = 0; c < 4; ++c) r.s->issued(0, c);
  for (Cycle c = 4; c < 6; ++c) r.s->issued(1, c);
  r.branch(0, 0x100 + 3 * kInstSize, 0x100, 1);  // body of 4
  r.branch(1, 0x100 + 1 * kInstSize, 0x100, 1);  // body of 2
  EXPECT_EQ(r.order(w, 10), (Order{1, 0}));
}

// Forward branches subtract what they skip only when every active lane jumps; a backward branch
// adds its body when any lane takes it. Criticality at cycle 1 is nInst + 1.
TEST(Cawa, BranchDirectionsUpdateTheRemainingInstructions) {
  Rig r({kStrict, {"cawa_initial_ninst", std::int64_t{100}}});
  auto w = warps({0, 1});
  r.order(w, 0);
  r.branch(0, 0x200, 0x200 + 5 * kInstSize, 0xf, 0xf);  // skips 4: nInst 96
  r.branch(1, 0x200, 0x200 + 5 * kInstSize, 0x3, 0xf);  // divergent: both paths run
  r.branch(1, 0x200, 0x200 + 5 * kInstSize, 0x0, 0xf);  // not taken
  r.branch(1, 0x200, 0x200 + kInstSize, 0xf, 0xf);      // to the next instruction: nothing skipped
  EXPECT_EQ(r.order(w, 1), (Order{1, 0}));
  EXPECT_EQ(r.counters[kSkipSubs], 1u);
  r.branch(0, 0x200 + 9 * kInstSize, 0x200, 0x1, 0xf);  // one lane loops: body of 10, nInst 106
  EXPECT_EQ(r.order(w, 2), (Order{0, 1}));
  EXPECT_EQ(r.counters[kLoopAdds], 1u);
  // Events of warps in no slot of this scheduler are someone else's.
  r.branch(5, 0x200 + 9 * kInstSize, 0x200, 0x1, 0xf);
  EXPECT_EQ(r.counters[kLoopAdds], 1u);
  EXPECT_EQ(r.order(w, 3), (Order{0, 1}));
}

// gCAWS keeps the last issued warp first while it is live, even ahead of a more critical one;
// strict CAWS does not.
TEST(Cawa, GreedyKeepsTheLastIssuedWarpFirst) {
  for (bool greedy : {true, false}) {
    SCOPED_TRACE(greedy);
    Rig r({{"cawa_greedy", greedy}});
    auto w = warps({0, 1, 2});
    r.order(w, 0);
    r.s->issued(0, 0);
    r.branch(2, 0x40, 0x10, 1);  // warp 2 most critical, then 1, then 0 (issued once)
    const Order got = r.order(w, 1);
    EXPECT_EQ(got, greedy ? (Order{0, 2, 1}) : (Order{2, 1, 0}));
    EXPECT_EQ(r.counters[kGreedyHolds], greedy ? 1u : 0u);
    r.s->issued(got[0], 1);
    EXPECT_EQ(r.order(w, 2)[0], got[0]);
    // The greedy warp leaves: criticality decides alone.
    w[0].valid = false;
    EXPECT_EQ(r.order(w, 3, 2), (Order{2, 1}));
  }
}

// A new warp in a slot (another age) starts its counters afresh.
TEST(Cawa, ANewWarpInASlotStartsFresh) {
  Rig r({kStrict});
  auto w = warps({0, 1});
  r.order(w, 0);
  r.branch(0, 0x40, 0x10, 1);
  EXPECT_EQ(r.order(w, 1), (Order{0, 1}));
  w[0].age = 5;  // slot 0 now holds a younger warp, nothing issued
  EXPECT_EQ(r.order(w, 2, 2), (Order{1, 0}));
}

// nStall comes from timestamps, not from issue events: a call after a long gap sees every cycle
// since. With a kernel length of 0 criticality is nStall alone.
TEST(Cawa, StallCyclesCountOverCyclesWithoutOrders) {
  Rig r({kStrict, {"cawa_initial_ninst", std::int64_t{0}}});
  auto w = warps({0, 1});
  r.order(w, 0);
  for (Cycle c = 0; c < 100; ++c) r.s->issued(1, c);
  EXPECT_EQ(r.order(w, 100), (Order{0, 1}));  // nStall 100 and 0
  for (Cycle c = 100; c < 300; ++c) r.s->issued(0, c);
  // Warp 1 has not issued since cycle 99: nStall 100 (warp 0) and 200 (warp 1).
  EXPECT_EQ(r.order(w, 300), (Order{1, 0}));
  EXPECT_EQ(r.order(w, 1000), (Order{1, 0}));  // 800 and 900
}

// The kernel length, unseen, is learnt as the furthest progress of any warp. Warp 1 issues 4 and
// loops back over them (progress 0, furthest 4); warp 0 issues 3. At cycle 10, learnt: warp 0
// has nInst 1 (1 x 10/3 + 7), warp 1 nInst 4 (4 x 10/4 + 6): warp 1 first. With a length of 0
// only nStall counts: warp 0 (7) first.
TEST(Cawa, LearnsTheKernelLengthFromTheFurthestWarp) {
  for (std::int64_t length : {-1, 0}) {
    SCOPED_TRACE(length);
    Rig r({kStrict, {"cawa_initial_ninst", length}});
    auto w = warps({0, 1});
    r.order(w, 0);
    for (Cycle c = 0; c < 4; ++c) r.s->issued(1, c);
    r.branch(1, 0x100 + 3 * kInstSize, 0x100, 1);
    for (Cycle c = 4; c < 7; ++c) r.s->issued(0, c);
    EXPECT_EQ(r.order(w, 10), length < 0 ? (Order{1, 0}) : (Order{0, 1}));
  }
}

// With a period the criticality is re-evaluated once per period (and when warps change).
TEST(Cawa, PeriodDelaysReevaluationToThePeriodBoundary) {
  Rig r({kStrict, {"cawa_period", std::int64_t{100}}});
  auto w = warps({0, 1});
  EXPECT_EQ(r.order(w, 0), (Order{0, 1}));
  r.branch(1, 0x40, 0x10, 1);
  EXPECT_EQ(r.order(w, 50), (Order{0, 1}));
  EXPECT_EQ(r.order(w, 99), (Order{0, 1}));
  EXPECT_EQ(r.counters[kResorts], 1u);
  EXPECT_EQ(r.order(w, 100), (Order{1, 0}));
  EXPECT_EQ(r.counters[kResorts], 2u);
  w.push_back({true, 2, 2});
  r.order(w, 120, 2);
  EXPECT_EQ(r.counters[kResorts], 3u);
}

// Cycles parked at a CTA barrier are not stall cycles unless cawa_barrier_stall says so. Warps
// 0 and 1 each issue one instruction (nInst 9); warp 0's is a bar.sync it waits at from cycle 1
// to 501. At 600: counted, both have 600 active cycles (a tie: age); left out, warp 0 has 100
// (9 x 100 + 99) against warp 1's 600 (9 x 600 + 599).
TEST(Cawa, BarrierWaitsAreLeftOutOfStallAndCpi) {
  for (bool counted : {true, false}) {
    SCOPED_TRACE(counted);
    Rig r({kStrict, {"cawa_initial_ninst", std::int64_t{10}}, {"cawa_barrier_stall", counted}});
    auto w = warps({0, 1});
    r.order(w, 0);
    r.view.waiting[0] = true;
    sm::IssueEvent bar;
    bar.now = 0;
    bar.slot = 0;
    bar.barrier_arrival = true;
    r.bus.deliver(bar, &sm::ISmObserver::on_issue);
    r.s->issued(0, 0);
    r.s->issued(1, 1);
    r.view.waiting.clear();
    sm::BarrierEvent rel;
    rel.now = 501;
    rel.slots = {0};
    r.bus.deliver(rel, &sm::ISmObserver::on_barrier_release);
    EXPECT_EQ(r.order(w, 600), counted ? (Order{0, 1}) : (Order{1, 0}));
  }
}

}  // namespace
}  // namespace simtsync::sched

namespace simtsync::sm::testing {
namespace {

// Warp w loops 3*(w+1) times, skips a block with a uniform forward branch, meets the others at
// a barrier, then loops again.
constexpr const char* kLoops = R"(
  mov.u32 %r1, %tid.x;
  shr.u32 %r2, %r1, 5;
  add.u32 %r2, %r2, 1;
  mul.lo.u32 %r3, %r2, 3;
  mov.u32 %r4, 0;
L1:
  add.u32 %r4, %r4, 1;
  setp.lt.u32 %p1, %r4, %r3;
  @%p1 bra L1;
  bra.uni S;
  add.u32 %r5, %r4, 7;
  add.u32 %r5, %r5, 7;
S:
  bar.sync 0;
  mov.u32 %r4, 0;
L2:
  add.u32 %r4, %r4, 1;
  setp.lt.u32 %p2, %r4, %r3;
  @%p2 bra L2;
  ret;)";

// Counts what CAWA should have counted, from the same events.
struct BranchCount final : ISmObserver {
  std::uint64_t backward = 0, skips = 0;
  void on_issue(const IssueEvent& e) override {
    if (!e.branch || (e.taken & e.active) == 0) return;
    if (e.backward)
      ++backward;
    else if ((e.taken & e.active) == e.active && e.target > e.pc + kInstSize)
      ++skips;
  }
};

struct CawaRun {
  std::vector<Issue> issues;
  std::vector<std::uint64_t> stats;
  BranchCount seen;
  bool done = false;
};

CawaRun run_cawa(std::vector<std::pair<std::string, config::Value>> sets) {
  SmParams p = small_params();
  p.scheduler = sched::scheduler_params("cawa", sets);
  SmRig rig(kLoops, p, 128);
  CawaRun r;
  rig.sm.events().subscribe(&r.seen);
  r.done = rig.run();
  r.issues = rig.issues;
  r.stats = rig.sm.stats().sched[0].policy;
  return r;
}

TEST(CawaInSm, FinishesCountsEveryBranchAndRepeatsExactly) {
  for (bool greedy : {true, false})
    for (std::int64_t period : {1, 16}) {
      SCOPED_TRACE(std::to_string(greedy) + " period " + std::to_string(period));
      const std::vector<std::pair<std::string, config::Value>> sets = {{"cawa_greedy", greedy},
                                                                       {"cawa_period", period}};
      const CawaRun a = run_cawa(sets);
      ASSERT_TRUE(a.done);
      ASSERT_EQ(a.stats.size(), static_cast<size_t>(sched::kNumStats));  // gCAWS's, CACP's
      EXPECT_GT(a.stats[0], 0u);                                         // resorts
      // Warp w takes 2 x (3(w+1) - 1) back-edges; each warp skips once.
      EXPECT_EQ(a.seen.backward, 2u * (2 + 5 + 8 + 11));
      EXPECT_EQ(a.stats[2], a.seen.backward);
      EXPECT_EQ(a.seen.skips, 4u);
      EXPECT_EQ(a.stats[3], a.seen.skips);
      if (!greedy) {
        EXPECT_EQ(a.stats[1], 0u);
      }
      const CawaRun b = run_cawa(sets);
      ASSERT_EQ(a.issues.size(), b.issues.size());
      for (size_t i = 0; i < a.issues.size(); ++i) {
        EXPECT_EQ(a.issues[i].at, b.issues[i].at) << i;
        EXPECT_EQ(a.issues[i].warp, b.issues[i].warp) << i;
      }
      EXPECT_EQ(a.stats, b.stats);
    }
}

}  // namespace
}  // namespace simtsync::sm::testing
