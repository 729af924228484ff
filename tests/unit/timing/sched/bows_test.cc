// BOWS (seed 000 sec. III) on hand-built warp states and issue events, without an SM: the
// back-off order and the pending delay of Fig. 4 and 8, SIBs that every lane leaves, the
// adaptive delay limit of Fig. 5 window by window, the base policy's keys and statistics
// reaching it, and the statistics of the warps' states (Fig. 11).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/error.h"
#include "func/program.h"
#include "sched/sched_test_util.h"
#include "timing/sched/i_warp_scheduler.h"

namespace simtsync::sched {
namespace {

using Order = std::vector<int>;

// n live warps, warp i of age i.
std::vector<SchedWarp> live(int n) {
  std::vector<int> ages(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) ages[static_cast<size_t>(i)] = i;
  return warps(ages);
}

// A BOWS policy over `base` with annotated SIBs, and its counters and records.
struct Harness {
  std::vector<std::uint64_t> counters;
  std::vector<PolicyRecord> records;
  sm::EventBus bus;
  std::unique_ptr<IWarpScheduler> s;
  Order out;
  func::ExecInst sib, other;

  Harness(std::vector<std::pair<std::string, config::Value>> sets,
          const std::string& base = "gto") {
    sets.emplace_back("base", base);
    sets.emplace_back("sib_source", std::string("annotation"));
    const SchedulerParams p = scheduler_params("bows", sets);
    counters.assign(scheduler_stats("bows").size(), 0);
    PolicyContext ctx;
    ctx.counters = counters.data();
    ctx.records = &records;
    ctx.events = &bus;
    s = make_scheduler(p, ctx);
    sib.op = ptx::Opcode::kBra;
    sib.spin_mark = true;
    other.op = ptx::Opcode::kBra;
  }
  Order order(const std::vector<SchedWarp>& w, Cycle now) {
    s->order(w, 1, now, out);
    return out;
  }
  // Warp `slot` issues at `now` (the SM delivers the event before issued()).
  void issue(int slot, Cycle now, const func::ExecInst* inst = nullptr, LaneMask taken = 0) {
    sm::IssueEvent e;
    e.now = now;
    e.slot = slot;
    e.inst = inst;
    e.branch = inst != nullptr;
    e.taken = taken;
    e.backward = true;
    e.active = 0xf;
    bus.deliver(e, &sm::ISmObserver::on_issue);
    s->issued(slot, now);
  }
  std::uint64_t stat(const std::string& name) const {
    const auto& decl = scheduler_stats("bows");
    for (size_t i = 0; i < decl.size(); ++i)
      if (decl[i].name == name) return counters[i];
    ADD_FAILURE() << "no statistic " << name;
    return 0;
  }
};

const std::vector<std::pair<std::string, config::Value>> kFixed100 = {
    {"adaptive_delay", false}, {"backoff_delay", std::int64_t{100}}};

// Fig. 4 with two warps under GTO: W0 takes the SIB and goes to the back (backed off, delay
// zero: still offered); it issues again, leaves the state and loads its pending delay; taking
// the SIB again it is held back until the delay has run out, and the SM is told when.
TEST(Bows, Fig4BackOffThenPendingDelay) {
  Harness h(kFixed100);
  const auto w = live(2);
  EXPECT_EQ(h.order(w, 0), (Order{0, 1}));
  h.issue(0, 0);
  h.issue(0, 1, &h.sib, 0x3);               // (2): W0 executes the SIB, two lanes go round again
  EXPECT_EQ(h.order(w, 2), (Order{1, 0}));  // back of the queue, delay already zero
  h.issue(0, 3);                            // (3)/(4): leaves the state, delay = 100
  EXPECT_EQ(h.order(w, 4), (Order{0, 1}));  // its priority reverts to normal (greedy)
  h.issue(0, 10, &h.sib, 0x1);              // (8): another iteration before the delay ran out
  EXPECT_EQ(h.order(w, 11), (Order{1}));    // (9): not eligible
  EXPECT_EQ(h.s->next_event(11), Cycle{103});
  EXPECT_EQ(h.order(w, 102), (Order{1}));
  EXPECT_EQ(h.order(w, 103), (Order{1, 0}));  // (10)
  EXPECT_EQ(h.stat("sib_instructions"), 2u);
  EXPECT_EQ(h.stat("backoffs"), 2u);
  EXPECT_EQ(h.stat("backoff_exits"), 1u);
}

TEST(Bows, SibThatEveryLaneLeavesDoesNotBackOff) {
  Harness h(kFixed100);
  const auto w = live(2);
  h.order(w, 0);
  h.issue(0, 0, &h.sib, 0);      // the spin loop is over for every lane
  h.issue(0, 1, &h.other, 0x1);  // an unmarked backward branch
  EXPECT_EQ(h.order(w, 2), (Order{0, 1}));
  EXPECT_EQ(h.stat("sib_instructions"), 1u);
  EXPECT_EQ(h.stat("backoffs"), 0u);
}

// Backed-off warps come back in the order they backed off, after every other warp.
TEST(Bows, BackedOffQueueIsFifo) {
  Harness h({{"adaptive_delay", false}, {"backoff_delay", std::int64_t{0}}});
  const auto w = live(4);
  h.order(w, 0);
  h.issue(2, 0, &h.sib, 1);
  h.issue(0, 1, &h.sib, 1);
  EXPECT_EQ(h.order(w, 2), (Order{1, 3, 2, 0}));
}

// The warps' states over time (Fig. 11): normal until the SIB, then held by the delay, then
// backed off and ready.
TEST(Bows, WarpCyclesByState) {
  Harness h(kFixed100);
  const auto w = live(1);
  h.order(w, 0);              // W0 is live from cycle 0
  h.issue(0, 10, &h.sib, 1);  // normal 0..10, backed off (delay zero: ready)
  h.issue(0, 20);             // ready 10..20; leaves: delay until 120
  h.issue(0, 30, &h.sib, 1);  // normal 20..30; backed off: delayed 30..120
  h.issue(0, 150);            // ready 120..150
  sm::WarpExitEvent x;
  x.now = 200;  // normal 150..200
  x.slot = 0;
  h.bus.deliver(x, &sm::ISmObserver::on_warp_exit);
  EXPECT_EQ(h.stat("warp_cycles_not_backed_off"), 10u + 10u + 50u);
  EXPECT_EQ(h.stat("warp_cycles_backed_off_delayed"), 90u);
  EXPECT_EQ(h.stat("warp_cycles_backed_off_ready"), 10u + 30u);
}

// Fig. 5, one window at a time (T = 100, step 50, FRAC1 0.1, FRAC2 0.8, limits 0..500):
// window 0: 5 SIBs of 10 (> FRAC1): +step; window 1: 1 of 10 (= FRAC1, Total/SIB 10): no
// change; window 2: 5 of 10: +step, and Total/SIB 2 < 0.8 x 10: -2 steps; a window without
// instructions changes nothing; window 5: 9 of 10 but the limit is clamped at 500 when higher.
TEST(Bows, AdaptiveDelayLimitFig5) {
  Harness h({{"adaptive_delay", true},
             {"backoff_delay", std::int64_t{100}},
             {"delay_window", std::int64_t{100}},
             {"delay_step", std::int64_t{50}},
             {"delay_min", std::int64_t{0}},
             {"delay_max", std::int64_t{500}},
             {"delay_frac1", 0.1},
             {"delay_frac2", 0.8}});
  auto window = [&](Cycle start, int sibs) {
    for (int i = 0; i < 10; ++i)
      h.issue(0, start + static_cast<Cycle>(i), i < sibs ? &h.sib : &h.other, 0);
  };
  window(0, 5);
  window(100, 1);
  window(200, 5);
  window(400, 5);  // after an empty window 300..400: Total/SIB 2 vs 2: no decrease; +step
  window(500, 0);  // Total/SIB infinite: no change
  h.issue(0, 600);
  std::vector<std::pair<double, double>> trace;
  for (const auto& r : h.records)
    if (r.kind == "bows_delay_limit") trace.emplace_back(r.fields[0].second, r.fields[1].second);
  EXPECT_EQ(trace,
            (std::vector<std::pair<double, double>>{{0, 100}, {100, 150}, {300, 100}, {500, 150}}));
  EXPECT_EQ(h.stat("delay_increases"), 2u);
  EXPECT_EQ(h.stat("delay_decreases"), 1u);
  EXPECT_EQ(h.stat("delay_windows"), 5u);
  EXPECT_EQ(h.stat("delay_limit_max"), 150u);
}

TEST(Bows, AdaptiveLimitStaysWithinMinAndMax) {
  Harness h({{"adaptive_delay", true},
             {"backoff_delay", std::int64_t{0}},
             {"delay_window", std::int64_t{10}},
             {"delay_step", std::int64_t{300}},
             {"delay_min", std::int64_t{200}},
             {"delay_max", std::int64_t{400}},
             {"delay_frac1", 0.1}});
  for (Cycle t = 0; t < 100; ++t) h.issue(0, t, &h.sib, 0);
  for (const auto& r : h.records) {
    EXPECT_GE(r.fields[1].second, 200);
    EXPECT_LE(r.fields[1].second, 400);
  }
  EXPECT_EQ(h.records.front().fields[1].second, 200);  // the starting limit, clamped
  EXPECT_EQ(h.stat("delay_limit_max"), 400u);
}

TEST(Bows, MinAboveMaxIsAUsageErrorNamingTheKeys) {
  try {
    Harness h({{"delay_min", std::int64_t{5000}}, {"delay_max", std::int64_t{1000}}});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kUsage);
    EXPECT_NE(std::string(e.what()).find("delay_min"), std::string::npos) << e.what();
  }
}

// The base policy's keys reach it and its statistics land in BOWS's counters: GTO with age
// rotation (the seed's GTO baseline) rotates under BOWS; LRR rotates its start.
TEST(Bows, BasePolicyKeysAndStatistics) {
  Harness h({{"rotation_period", std::int64_t{10}}, {"adaptive_delay", false}});
  const auto w = live(3);
  EXPECT_EQ(h.order(w, 0), (Order{0, 1, 2}));
  EXPECT_EQ(h.order(w, 10), (Order{1, 2, 0}));
  EXPECT_EQ(h.stat("rotations"), 1u);
  Harness l(kFixed100, "lrr");
  l.order(live(3), 0);
  l.issue(0, 0);
  EXPECT_EQ(l.order(live(3), 1), (Order{1, 2, 0}));
}

TEST(Bows, IsListedWithItsKeys) {
  const auto names = scheduler_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "bows"), names.end());
  const SchedulerParams p = scheduler_params("bows");
  for (const char* k : {"base", "sib_source", "backoff_delay", "adaptive_delay", "delay_window",
                        "delay_step", "delay_min", "delay_max", "delay_frac1", "delay_frac2",
                        "ddos_hash", "ddos_threshold", "rotation_period"})
    EXPECT_TRUE(p.params.has(k)) << k;
}

}  // namespace
}  // namespace simtsync::sched
