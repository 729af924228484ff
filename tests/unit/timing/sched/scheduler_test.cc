// Issue-order tests of every warp scheduler on hand-built warp states (no SM involved).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "common/error.h"
#include "sched/sched_test_util.h"
#include "timing/sched/i_warp_scheduler.h"

namespace simtsync::sched {
namespace {

using Order = std::vector<int>;

std::unique_ptr<IWarpScheduler> make(const std::string& impl, std::uint64_t rotation = 0,
                                     unsigned active = 8) {
  SchedulerParams p = scheduler_params(impl);
  if (p.params.has("rotation_period")) p.params.set("rotation_period", std::int64_t(rotation));
  if (p.params.has("active_set")) p.params.set("active_set", std::int64_t(active));
  if (p.params.has("hold_cycles")) p.params.set("hold_cycles", std::int64_t{0});
  return make_scheduler(p);
}

// Like the SM, a caller keeps one output vector per scheduler between calls.
Order order(IWarpScheduler& s, const std::vector<SchedWarp>& w, std::uint64_t version = 1,
            Cycle now = 0) {
  static std::map<const IWarpScheduler*, Order> outs;
  Order& out = outs[&s];
  s.order(w, version, now, out);
  return out;
}

TEST(Registry, BuildsEveryListedSchedulerByName) {
  for (const std::string& n : scheduler_names()) EXPECT_EQ(make(n)->name(), n);
  const std::vector<std::string> rows = def_rows("schedulers.def", "SCHEDULER");
  EXPECT_GE(rows.size(), 10u);  // lrr, gto, ..., bows: the table was read
  EXPECT_EQ(scheduler_names(), rows);
}

TEST(Registry, UnknownNameIsAUsageErrorNamingIt) {
  try {
    make("gtoo");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kUsage);
    EXPECT_NE(std::string(e.what()).find("'gtoo'"), std::string::npos) << e.what();
  }
}

// The contract: `out` is cleared first and holds the full order after every call, whatever
// the caller did with it in between (here: a stale or reused vector).
TEST(Contract, EveryPolicyRewritesOutOnEveryCall) {
  for (const std::string& n : scheduler_names()) {
    SCOPED_TRACE(n);
    auto s = make(n);
    auto w = warps({0, 1, 2, 3});
    Order first;
    s->order(w, 1, 0, first);
    ASSERT_EQ(first.size(), 4u);
    Order out = first;
    out.assign({99, 98});
    s->order(w, 1, 1, out);
    EXPECT_EQ(out, first);
    out.clear();
    s->order(w, 1, 2, out);
    EXPECT_EQ(out, first);
    Order other{7};
    s->order(w, 1, 3, other);
    EXPECT_EQ(other, first);
  }
}

TEST(Lrr, RotatesAfterTheLastIssuedWarpAndSkipsEmptySlots) {
  auto s = make("lrr");
  auto w = warps({5, 6, 7, 8});
  EXPECT_EQ(order(*s, w), (Order{0, 1, 2, 3}));
  s->issued(1, 0);
  EXPECT_EQ(order(*s, w), (Order{2, 3, 0, 1}));
  s->issued(3, 1);
  EXPECT_EQ(order(*s, w), (Order{0, 1, 2, 3}));
  w[2].valid = false;
  s->issued(1, 2);
  EXPECT_EQ(order(*s, w, 2), (Order{3, 0, 1}));
  // Age does not matter to LRR.
  auto young_first = warps({9, -1, 0, 4});
  auto s2 = make("lrr");
  EXPECT_EQ(order(*s2, young_first), (Order{0, 2, 3}));
}

TEST(Gto, KeepsTheLastIssuedWarpFirstThenOldest) {
  auto s = make("gto");
  // Ages: slot 3 oldest, then 1, then 0 and 2 tie (broken by warp id).
  auto w = warps({7, 4, 7, 1});
  EXPECT_EQ(order(*s, w), (Order{3, 1, 0, 2}));
  s->issued(2, 0);
  EXPECT_EQ(order(*s, w), (Order{2, 3, 1, 0}));
  s->issued(1, 1);
  EXPECT_EQ(order(*s, w), (Order{1, 3, 0, 2}));
  // The greedy warp leaves: back to pure oldest-first (a new version, so it re-sorts).
  w[1].valid = false;
  EXPECT_EQ(order(*s, w, 2), (Order{3, 0, 2}));
  // A new, younger warp arrives in slot 1: it goes behind the older ones.
  s->issued(0, 2);
  w[1] = {true, 9, 1};
  EXPECT_EQ(order(*s, w, 3), (Order{0, 3, 2, 1}));
}

TEST(Gto, TieOnAgeBrokenByWarpId) {
  auto s = make("gto");
  std::vector<SchedWarp> w = {{true, 3, 12}, {true, 3, 4}, {true, 3, 8}};
  EXPECT_EQ(order(*s, w), (Order{1, 2, 0}));
}

TEST(Gto, WithoutRotationTheOrderNeverChangesWithTime) {
  auto s = make("gto");
  auto w = warps({0, 1, 2, 3});
  for (Cycle now : {0, 100, 50'000, 1'000'000})
    EXPECT_EQ(order(*s, w, 1, now), (Order{0, 1, 2, 3})) << now;
}

TEST(Gto, RotationMovesTheOldestToTheBackEveryPeriod) {
  auto s = make("gto", /*rotation=*/100);
  auto w = warps({0, 1, 2, 3});
  EXPECT_EQ(order(*s, w, 1, 0), (Order{0, 1, 2, 3}));
  EXPECT_EQ(order(*s, w, 1, 99), (Order{0, 1, 2, 3}));
  EXPECT_EQ(order(*s, w, 1, 100), (Order{1, 2, 3, 0}));
  EXPECT_EQ(order(*s, w, 1, 250), (Order{2, 3, 0, 1}));
  EXPECT_EQ(order(*s, w, 1, 399), (Order{3, 0, 1, 2}));
  EXPECT_EQ(order(*s, w, 1, 400), (Order{0, 1, 2, 3}));
  // Greedy still wins over the rotated age order.
  s->issued(2, 150);
  EXPECT_EQ(order(*s, w, 1, 150), (Order{2, 1, 3, 0}));
}

TEST(Glrr, GreedyThenRoundRobinFromTheLastIssued) {
  auto s = make("glrr");
  auto w = warps({3, 2, 1, 0});
  EXPECT_EQ(order(*s, w), (Order{0, 1, 2, 3}));
  s->issued(2, 0);
  EXPECT_EQ(order(*s, w), (Order{2, 3, 0, 1}));  // LRR would give 3, 0, 1, 2
  s->issued(0, 1);
  EXPECT_EQ(order(*s, w), (Order{0, 1, 2, 3}));
  // The greedy warp gone: round robin continues after its slot.
  w[0].valid = false;
  EXPECT_EQ(order(*s, w, 2), (Order{1, 2, 3}));
  s->issued(3, 2);
  w[1].valid = false;
  EXPECT_EQ(order(*s, w, 3), (Order{3, 2}));
}

TEST(TwoLevel, ActiveSetHoldsTheOldestWarpsAndRunsRoundRobin) {
  auto s = make("two_level", 0, /*active=*/2);
  // Ages: slot 1 oldest, then 3, 0, 2.
  auto w = warps({2, 0, 3, 1});
  EXPECT_EQ(order(*s, w), (Order{1, 3}));
  s->issued(1, 0);
  EXPECT_EQ(order(*s, w), (Order{3, 1}));
  s->issued(3, 1);
  EXPECT_EQ(order(*s, w), (Order{1, 3}));
}

TEST(TwoLevel, LongLatencyWarpLeavesForTheBackOfThePendingFifo) {
  auto s = make("two_level", 0, 2);
  auto w = warps({2, 0, 3, 1});  // active {1, 3}, pending FIFO [0, 2]
  ASSERT_EQ(order(*s, w), (Order{1, 3}));
  s->issued(3, 0);
  s->long_latency(3, 0);  // active {1}, pending [0, 2, 3]; head 0 enters
  Order o = order(*s, w);
  std::sort(o.begin(), o.end());
  EXPECT_EQ(o, (Order{0, 1}));
  s->long_latency(1, 1);  // pending [2, 3, 1]; head 2 enters
  o = order(*s, w);
  std::sort(o.begin(), o.end());
  EXPECT_EQ(o, (Order{0, 2}));
  s->long_latency(0, 2);  // pending [3, 1, 0]; 3 enters
  s->long_latency(2, 2);  // pending [1, 0, 2]; 1 enters (after 3)
  o = order(*s, w);
  std::sort(o.begin(), o.end());
  EXPECT_EQ(o, (Order{1, 3}));
}

TEST(TwoLevel, LongLatencyWithAnEmptyFifoKeepsTheWarpActive) {
  auto s = make("two_level", 0, 4);
  auto w = warps({0, 1, -1, -1});
  ASSERT_EQ(order(*s, w), (Order{0, 1}));
  s->long_latency(0, 0);
  EXPECT_EQ(order(*s, w), (Order{0, 1}));
}

TEST(TwoLevel, NewWarpsEnterInAgeOrderAndLeaversAreReplaced) {
  auto s = make("two_level", 0, 2);
  auto w = warps({-1, -1, -1, -1});
  EXPECT_EQ(order(*s, w), (Order{}));
  // Three warps arrive at once, youngest in the lowest slot.
  w[0] = {true, 12, 0};
  w[1] = {true, 11, 1};
  w[2] = {true, 10, 2};
  Order o = order(*s, w, 2);
  std::sort(o.begin(), o.end());
  EXPECT_EQ(o, (Order{1, 2}));  // the two oldest; slot 0 waits in the FIFO
  // Slot 2 finishes: the FIFO head (slot 0) takes its place.
  w[2].valid = false;
  o = order(*s, w, 3);
  std::sort(o.begin(), o.end());
  EXPECT_EQ(o, (Order{0, 1}));
  // A new CTA's warp reuses slot 2 (new age): it waits behind nobody and fills no full set.
  w[2] = {true, 20, 2};
  w[3] = {true, 19, 3};
  o = order(*s, w, 4);
  std::sort(o.begin(), o.end());
  EXPECT_EQ(o, (Order{0, 1}));
  s->long_latency(1, 5);  // pending [3 (age 19), 2 (age 20), 1]: 3 enters first
  o = order(*s, w, 4);
  std::sort(o.begin(), o.end());
  EXPECT_EQ(o, (Order{0, 3}));
}

}  // namespace
}  // namespace simtsync::sched
