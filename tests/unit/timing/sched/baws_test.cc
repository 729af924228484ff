// Barrier-aware warp scheduling (seed 002): the warp priority table, MWF(LRR) and MWF(GTO) on
// hand-built CTA/warp states (the seed's Fig. 7 example), CFF and FEF on hand-built issue
// orders and I-buffer states. No SM involved: a fake IWarpView and events delivered by hand.
#include <gtest/gtest.h>

#include <vector>

#include "sched/sched_test_util.h"
#include "timing/sched/i_fetch_policy.h"
#include "timing/sched/i_warp_scheduler.h"
#include "timing/sched/warp_phase_tracker.h"
#include "timing/sched/warp_priority_table.h"

namespace simtsync::sched {
namespace {

using Order = std::vector<int>;

// Warp slot i belongs to CTA slot cta[i] (-1: empty slot).
class FakeView final : public IWarpView {
 public:
  std::vector<int> cta;
  std::vector<bool> barrier;
  std::vector<unsigned> ib;
  std::uint64_t blocked = 0;  // bit s: slot s is blocked at the issue stage

  unsigned num_slots() const override { return static_cast<unsigned>(cta.size()); }
  bool live(int s) const override { return cta[static_cast<size_t>(s)] >= 0; }
  int cta_slot(int s) const override { return cta[static_cast<size_t>(s)]; }
  Pc pc(int) const override { return 0; }
  bool at_barrier(int s) const override { return barrier[static_cast<size_t>(s)]; }
  unsigned ibuffer_count(int s) const override { return ib[static_cast<size_t>(s)]; }
  unsigned outstanding_memory(int) const override { return 0; }
  bool issue_blocked(int s) const override { return (blocked >> s) & 1; }
  std::uint64_t issued(int) const override { return 0; }
  unsigned cta_waiting(int c) const override {
    unsigned n = 0;
    for (size_t s = 0; s < cta.size(); ++s) n += cta[s] == c && barrier[s] ? 1 : 0;
    return n;
  }
  unsigned cta_warps(int c) const override {
    unsigned n = 0;
    for (int x : cta) n += x == c ? 1 : 0;
    return n;
  }
};

// One SM: the view, its shared units and its event bus; CTAs of `per_cta` warps in order.
struct Sm {
  FakeView view;
  SharedUnits shared;
  sm::EventBus bus;

  Sm(int ctas, int per_cta) {
    for (int c = 0; c < ctas; ++c)
      for (int w = 0; w < per_cta; ++w) {
        view.cta.push_back(c);
        view.barrier.push_back(false);
        view.ib.push_back(0);
      }
    // The SM builds its schedulers before any CTA arrives; the first MWF scheduler creates the
    // table. Here it exists from the start so events delivered before a policy is built count.
    shared.get<WarpPriorityTable>(WarpPriorityTable::kName, &view, &bus);
  }
  PolicyContext ctx(int sched = 0) {
    PolicyContext c;
    c.sched = sched;
    c.warps = &view;
    c.shared = &shared;
    c.events = &bus;
    return c;
  }
  void launch(int cta_slot, int cta) {
    sm::CtaEvent e;
    e.cta_slot = cta_slot;
    e.cta = cta;
    bus.deliver(e, &sm::ISmObserver::on_cta_launch);
  }
  // Warp `slot` arrives at its CTA's barrier (and waits there).
  void arrive(int slot) {
    view.barrier[static_cast<size_t>(slot)] = true;
    sm::IssueEvent e;
    e.slot = slot;
    e.cta_slot = view.cta[static_cast<size_t>(slot)];
    e.barrier_arrival = true;
    bus.deliver(e, &sm::ISmObserver::on_issue);
  }
  // The last warp arrives: the barrier releases before the arrival is reported (as the SM does).
  void arrive_last(int slot) {
    const int c = view.cta[static_cast<size_t>(slot)];
    sm::BarrierEvent r;
    r.cta_slot = c;
    for (size_t s = 0; s < view.cta.size(); ++s)
      if (view.cta[s] == c) {
        view.barrier[s] = false;
        r.slots.push_back(static_cast<int>(s));
      }
    bus.deliver(r, &sm::ISmObserver::on_barrier_release);
    sm::IssueEvent e;
    e.slot = slot;
    e.cta_slot = c;
    e.barrier_arrival = true;
    bus.deliver(e, &sm::ISmObserver::on_issue);
  }
  std::vector<SchedWarp> warps() const {
    std::vector<SchedWarp> w(view.cta.size());
    for (size_t i = 0; i < w.size(); ++i) w[i] = {view.cta[i] >= 0, i, static_cast<int>(i)};
    return w;
  }
};

Order baws_order(IWarpScheduler& s, const std::vector<SchedWarp>& w, std::uint64_t version = 1) {
  Order out;
  s.order(w, version, 0, out);
  return out;
}
Order running(const Order& o, const FakeView& v) {
  Order r;
  for (int i : o)
    if (!v.at_barrier(i)) r.push_back(i);
  return r;
}

TEST(WarpPriorityTable, CountsWaitingWarpsPerCtaAndResetsOnRelease) {
  Sm sm(2, 3);
  auto& wpt = sm.shared.get<WarpPriorityTable>(WarpPriorityTable::kName, &sm.view, &sm.bus);
  sm.launch(0, 7);
  sm.launch(1, 3);
  EXPECT_EQ(wpt.cta_id(0), 7);
  EXPECT_EQ(wpt.cta_id(1), 3);
  sm.arrive(0);
  sm.arrive(1);
  sm.arrive(4);
  EXPECT_EQ(wpt.waiting(0), 2u);
  EXPECT_EQ(wpt.waiting(1), 1u);
  EXPECT_EQ(wpt.waiting(0), sm.view.cta_waiting(0));
  // The third warp releases CTA 0's barrier: its own arrival must not count.
  const std::uint64_t v = wpt.version();
  sm.arrive_last(2);
  EXPECT_EQ(wpt.waiting(0), 0u);
  EXPECT_EQ(wpt.waiting(1), 1u);
  EXPECT_NE(wpt.version(), v);
  // Exit clears the row; a slot never launched answers 0 and its own index.
  sm::CtaEvent x;
  x.cta_slot = 1;
  sm.bus.deliver(x, &sm::ISmObserver::on_cta_exit);
  EXPECT_EQ(wpt.waiting(1), 0u);
  EXPECT_EQ(wpt.waiting(5), 0u);
  EXPECT_EQ(wpt.cta_id(5), 5);
}

TEST(WarpPriorityTable, OnePerSmSharedByItsSchedulers) {
  Sm sm(1, 2);
  auto a = make_scheduler(scheduler_params("mwf_lrr"), sm.ctx(0));
  auto b = make_scheduler(scheduler_params("mwf_gto"), sm.ctx(1));
  auto& wpt = sm.shared.get<WarpPriorityTable>(WarpPriorityTable::kName, &sm.view, &sm.bus);
  sm.arrive(0);
  EXPECT_EQ(wpt.waiting(0), 1u);  // subscribed once: counted once
}

// Seed 002 Fig. 7: TB0 = w0-w3 (w2 waits), TB1 = w4-w7 (w5, w7 wait), TB2 = w8-w11 (w9-w11
// wait). w0 issued last in TB0; w7 issued last in TB1 and reached the barrier.
struct Fig7 : Sm {
  Fig7() : Sm(3, 4) {
    for (int c = 0; c < 3; ++c) launch(c, c);
    for (int s : {2, 5, 9, 10, 11}) arrive(s);
  }
};

TEST(Mwf, LrrOrdersFig7AsTheSeed) {
  Fig7 sm;
  auto s = make_scheduler(scheduler_params("mwf_lrr"), sm.ctx());
  const auto w = sm.warps();
  (void)baws_order(*s, w);
  s->issued(0, 0);  // w0 in TB0
  (void)baws_order(*s, w);
  s->issued(7, 1);  // w7 in TB1, which then reaches the barrier
  sm.arrive(7);
  const Order o = baws_order(*s, w);
  EXPECT_EQ(running(o, sm.view), (Order{8, 4, 6, 1, 3, 0}));
  // Running warps first, then the waiting ones (still offered: their cycles are barrier stalls).
  EXPECT_EQ(o, (Order{8, 4, 6, 1, 3, 0, 9, 10, 11, 5, 7, 2}));
}

TEST(Mwf, GtoOrdersFig7GreedyThenOldestWithinEachCta) {
  Fig7 sm;
  auto s = make_scheduler(scheduler_params("mwf_gto"), sm.ctx());
  const auto w = sm.warps();
  (void)baws_order(*s, w);
  s->issued(0, 0);
  (void)baws_order(*s, w);
  s->issued(7, 1);
  sm.arrive(7);
  EXPECT_EQ(running(baws_order(*s, w), sm.view), (Order{8, 4, 6, 0, 1, 3}));
}

TEST(Mwf, EqualWaitingGoesToTheSmallerCtaIdNotSlot) {
  Sm sm(2, 2);
  sm.launch(0, 9);
  sm.launch(1, 4);
  auto s = make_scheduler(scheduler_params("mwf_lrr"), sm.ctx());
  EXPECT_EQ(baws_order(*s, sm.warps()), (Order{2, 3, 0, 1}));
  sm.arrive(0);  // CTA 9 now has more waiting: it goes first
  EXPECT_EQ(baws_order(*s, sm.warps()), (Order{1, 2, 3, 0}));
  sm.arrive(2);  // tie again: CTA 4 first
  EXPECT_EQ(baws_order(*s, sm.warps()), (Order{3, 1, 2, 0}));
  sm.arrive_last(3);  // CTA 4 released: CTA 9 leads with one waiting
  EXPECT_EQ(baws_order(*s, sm.warps()), (Order{1, 2, 3, 0}));
}

TEST(Mwf, LrrRotatesWithinTheCtaAfterItsLastIssued) {
  Sm sm(1, 4);
  sm.launch(0, 0);
  auto s = make_scheduler(scheduler_params("mwf_lrr"), sm.ctx());
  const auto w = sm.warps();
  EXPECT_EQ(baws_order(*s, w), (Order{0, 1, 2, 3}));
  s->issued(1, 0);
  EXPECT_EQ(baws_order(*s, w), (Order{2, 3, 0, 1}));
  s->issued(3, 1);
  EXPECT_EQ(baws_order(*s, w), (Order{0, 1, 2, 3}));
}

TEST(Mwf, GtoKeepsTheGreedyWarpThenOldest) {
  Sm sm(1, 4);
  sm.launch(0, 0);
  auto s = make_scheduler(scheduler_params("mwf_gto"), sm.ctx());
  auto w = sm.warps();
  w[0].age = 9;  // slot 0 is the youngest
  EXPECT_EQ(baws_order(*s, w), (Order{1, 2, 3, 0}));
  s->issued(2, 0);
  EXPECT_EQ(baws_order(*s, w), (Order{2, 1, 3, 0}));
}

// Seed 002 Fig. 13: three CTAs of 4 warps. t0: one warp of TB0 reaches the barrier; t1: two of
// TB1; t2: three of TB2. MWF moves to TB1 and then TB2; SAWS stays with TB0, which hit first.
TEST(Saws, KeepsTheFirstHitCtaFirstWhereMwfMovesToTheMostWaiting) {
  Sm sm(3, 4);
  for (int c = 0; c < 3; ++c) sm.launch(c, c);
  auto saws = make_scheduler(scheduler_params("saws"), sm.ctx());
  auto mwf = make_scheduler(scheduler_params("mwf_gto"), sm.ctx());
  const auto w = sm.warps();
  // No barrier hit yet: plain GTO (oldest first).
  EXPECT_EQ(running(baws_order(*saws, w), sm.view), (Order{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
  sm.arrive(0);  // t0
  EXPECT_EQ(running(baws_order(*saws, w, 2), sm.view), (Order{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
  sm.arrive(4), sm.arrive(5);  // t1
  EXPECT_EQ(running(baws_order(*saws, w, 3), sm.view), (Order{1, 2, 3, 6, 7, 8, 9, 10, 11}));
  EXPECT_EQ(running(baws_order(*mwf, w, 3), sm.view), (Order{6, 7, 1, 2, 3, 8, 9, 10, 11}));
  sm.arrive(8), sm.arrive(9), sm.arrive(10);  // t2
  EXPECT_EQ(running(baws_order(*saws, w, 4), sm.view), (Order{1, 2, 3, 6, 7, 11}));
  EXPECT_EQ(running(baws_order(*mwf, w, 4), sm.view), (Order{11, 6, 7, 1, 2, 3}));
  // TB0 released: TB1 (hit second) leads; TB0 joins the unprioritized CTAs.
  sm.arrive(1), sm.arrive(2), sm.arrive_last(3);
  EXPECT_EQ(running(baws_order(*saws, w, 5), sm.view), (Order{6, 7, 11, 0, 1, 2, 3}));
}

TEST(Saws, GreedyWarpLeadsItsGroupAndTheOrderIsSharedAcrossSchedulers) {
  Sm sm(2, 4);
  sm.launch(0, 0), sm.launch(1, 1);
  // Two schedulers of one SM, each with every warp for simplicity: a hit seen by one is seen
  // by both (one warp priority table per SM).
  auto a = make_scheduler(scheduler_params("saws"), sm.ctx(0));
  auto b = make_scheduler(scheduler_params("saws"), sm.ctx(1));
  const auto w = sm.warps();
  (void)baws_order(*a, w);
  a->issued(2, 0);  // a's greedy warp is w2 (TB0)
  sm.arrive(6);     // TB1 hits first
  EXPECT_EQ(running(baws_order(*a, w, 2), sm.view), (Order{4, 5, 7, 2, 0, 1, 3}));
  EXPECT_EQ(running(baws_order(*b, w, 2), sm.view), (Order{4, 5, 7, 0, 1, 2, 3}));
  a->issued(5, 1);  // greedy within the prioritized CTA
  EXPECT_EQ(running(baws_order(*a, w, 2), sm.view), (Order{5, 4, 7, 0, 1, 2, 3}));
}

// Fetch: 2 schedulers, even slots to scheduler 0, odd to scheduler 1 (as the SM assigns them).
struct FetchSm : Sm {
  std::vector<std::vector<int>> slots{{0, 2, 4}, {1, 3, 5}};
  std::vector<std::vector<int>> orders{{}, {}};
  FetchSm() : Sm(1, 6) {}
  PolicyContext fctx() {
    PolicyContext c = ctx(-1);
    c.num_schedulers = 2;
    c.sched_slots = &slots;
    c.issue_orders = &orders;
    return c;
  }
};

Order fetch_order(IFetchPolicy& f, std::uint64_t wanting, Cycle now = 0) {
  Order out;
  f.order(wanting, 6, now, out);
  return out;
}

TEST(Cff, FetchesInTheIssueOrderRankByRank) {
  FetchSm sm;
  auto f = make_fetch_policy(fetch_params("cff"), sm.fctx());
  sm.orders = {{2, 0, 1}, {1, 2, 0}};  // scheduler 0: slots 4, 0, 2; scheduler 1: 3, 5, 1
  EXPECT_EQ(fetch_order(*f, 0x3f, 0), (Order{4, 3, 0, 5, 2, 1}));
  // The scheduler to start with alternates by cycle.
  EXPECT_EQ(fetch_order(*f, 0x3f, 1), (Order{3, 4, 5, 0, 1, 2}));
  // Only warps that want an instruction: the issue stage's first choice has a full I-buffer.
  EXPECT_EQ(fetch_order(*f, 0x3f & ~(1u << 4) & ~(1u << 3), 0), (Order{0, 5, 2, 1}));
}

TEST(Cff, WarpsAtABarrierComeAfterThoseThatCanIssue) {
  FetchSm sm;
  auto f = make_fetch_policy(fetch_params("cff"), sm.fctx());
  sm.orders = {{0, 1, 2}, {0, 1, 2}};  // 0, 2, 4 and 1, 3, 5
  sm.view.barrier[0] = sm.view.barrier[1] = true;
  EXPECT_EQ(fetch_order(*f, 0x3f, 0), (Order{2, 3, 4, 5, 0, 1}));
}

TEST(Cff, AWarpBlockedAtIssueGivesWayToTheNextInTheOrder) {
  // GTO's greedy warps (slot 4 on scheduler 0, slot 3 on scheduler 1) wait on the scoreboard:
  // the seed's "if that one is stalled, ... the oldest warp" comes first; the blocked warps
  // follow every warp that can issue, in rank order, before those at a barrier.
  FetchSm sm;
  auto f = make_fetch_policy(fetch_params("cff"), sm.fctx());
  sm.orders = {{2, 0, 1}, {1, 2, 0}};  // scheduler 0: slots 4, 0, 2; scheduler 1: 3, 5, 1
  sm.view.blocked = (1u << 4) | (1u << 3);
  EXPECT_EQ(fetch_order(*f, 0x3f, 0), (Order{0, 5, 2, 1, 4, 3}));
  sm.view.barrier[1] = true;
  EXPECT_EQ(fetch_order(*f, 0x3f, 1), (Order{5, 0, 2, 3, 4, 1}));
}

TEST(Cff, WarpsInNoOrderComeLastInRoundRobin) {
  FetchSm sm;
  auto f = make_fetch_policy(fetch_params("cff"), sm.fctx());
  sm.orders = {{1}, {}};  // scheduler 0 offers slot 2 only; scheduler 1 has not ordered
  f->fetched(3, 0);
  EXPECT_EQ(fetch_order(*f, 0x3f, 0), (Order{2, 4, 5, 0, 1, 3}));
  // Without a context it is round robin.
  auto bare = make_fetch_policy(fetch_params("cff"));
  EXPECT_EQ(fetch_order(*bare, 0b101101), (Order{0, 2, 3, 5}));
}

TEST(Cff, WithMwfFetchesForTheCriticalWarp) {
  // Fig. 7's state on one scheduler: CFF fetches first for w8, the warp MWF issues next.
  Fig7 sm;
  auto s = make_scheduler(scheduler_params("mwf_lrr"), sm.ctx());
  std::vector<std::vector<int>> slots(1), orders(1);
  for (int i = 0; i < 12; ++i) slots[0].push_back(i);
  PolicyContext c = sm.ctx(-1);
  c.sched_slots = &slots;
  c.issue_orders = &orders;
  auto f = make_fetch_policy(fetch_params("cff"), c);
  s->order(sm.warps(), 1, 0, orders[0]);
  Order out;
  f->order(0xfff, 12, 0, out);
  ASSERT_FALSE(out.empty());
  EXPECT_EQ(out.front(), 8);
  EXPECT_EQ(Order(out.begin(), out.begin() + 3), (Order{8, 0, 1}));
}

TEST(Fef, FewestIBufferEntriesFirstTiesRoundRobin) {
  FetchSm sm;
  auto f = make_fetch_policy(fetch_params("fef"), sm.fctx());
  sm.view.ib = {2, 1, 0, 1, 2, 0};
  EXPECT_EQ(fetch_order(*f, 0x3f), (Order{2, 5, 1, 3, 0, 4}));
  f->fetched(2, 0);  // ties now start after slot 2
  EXPECT_EQ(fetch_order(*f, 0x3f), (Order{5, 2, 3, 1, 4, 0}));
  // Only wanting slots.
  EXPECT_EQ(fetch_order(*f, 0b010011), (Order{1, 4, 0}));
}

TEST(FetchRegistry, BuildsEveryListedFetchPolicyByName) {
  std::vector<std::string> names;
  for (const auto& f : fetch_policies()) {
    EXPECT_EQ(make_fetch_policy(fetch_params(f.name))->name(), f.name);
    names.push_back(f.name);
  }
  const std::vector<std::string> rows = def_rows("fetch_policies.def", "FETCH_POLICY");
  EXPECT_GE(rows.size(), 3u);  // rr, cff, fef: the table was read
  EXPECT_EQ(names, rows);
}

// Eq. 1 by hand: one CTA of 4 warps launched at cycle 100; warps arrive 10, 20 and 30 cycles
// later, the last releases the barrier at +40: T = 10, 20, 30, 40, RTRU = 60 / (4 * 40).
TEST(WarpPhases, RtruOfOnePhaseFollowsEquationOne) {
  Sm sm(1, 4);
  WarpPhaseTracker t(&sm.view);
  sm.bus.subscribe(&t);
  sm::CtaEvent l;
  l.now = 100, l.cta_slot = 0, l.cta = 5, l.slots = {0, 1, 2, 3};
  sm.bus.deliver(l, &sm::ISmObserver::on_cta_launch);
  auto arrive = [&](int slot, Cycle now) {
    sm.view.barrier[static_cast<size_t>(slot)] = true;
    sm::IssueEvent e;
    e.now = now, e.slot = slot, e.cta_slot = 0, e.barrier_arrival = true;
    sm.bus.deliver(e, &sm::ISmObserver::on_issue);
  };
  arrive(2, 110);
  arrive(0, 120);
  arrive(3, 130);
  sm::BarrierEvent r;
  r.now = 140, r.cta_slot = 0, r.cta = 5, r.slots = {0, 1, 2, 3};
  for (int s = 0; s < 4; ++s) sm.view.barrier[static_cast<size_t>(s)] = false;
  sm.bus.deliver(r, &sm::ISmObserver::on_barrier_release);
  arrive(1, 140);  // the releasing warp's own arrival, reported after the release
  sm.view.barrier[1] = false;
  ASSERT_EQ(t.phases().size(), 1u);
  const auto& p = t.phases()[0];
  EXPECT_EQ(p.cta, 5);
  EXPECT_EQ(p.start, 100u);
  EXPECT_EQ(p.end, 140u);
  EXPECT_EQ(p.warps, 4u);
  EXPECT_EQ(p.critical, 1);
  EXPECT_DOUBLE_EQ(p.rtru, 60.0 / 160.0);
  // The next phase starts at the release: all warps arrive together, no imbalance.
  for (int s : {0, 1, 2}) arrive(s, 150);
  r.now = 150;
  sm.bus.deliver(r, &sm::ISmObserver::on_barrier_release);
  ASSERT_EQ(t.phases().size(), 2u);
  EXPECT_EQ(t.phases()[1].start, 140u);
  EXPECT_DOUBLE_EQ(t.phases()[1].rtru, 0.0);
  EXPECT_DOUBLE_EQ(t.mean_rtru(), 60.0 / 160.0 / 2);
  EXPECT_EQ(t.phases()[0].wait, 60u);
  EXPECT_EQ(t.phases()[0].span, 160u);
  EXPECT_EQ(t.phases()[0].times, (std::vector<Cycle>{20, 40, 10, 30}));
}

// The exit point is the CTA's last barrier (seed 002 Fig. 3): from the last release to the CTA's
// exit, T_i runs to each warp's exit. The critical warp is the warp's index within its CTA, and
// a change from one phase to the next is counted (Fig. 6).
TEST(WarpPhases, ExitPhaseEndsAtTheCtaExitAndCriticalChangesAreSeen) {
  Sm sm(2, 2);  // CTA slot 1 holds warp slots 2 and 3
  WarpPhaseTracker t(&sm.view);
  sm.bus.subscribe(&t);
  sm::CtaEvent l;
  l.now = 0, l.cta_slot = 1, l.cta = 8, l.slots = {2, 3};
  sm.bus.deliver(l, &sm::ISmObserver::on_cta_launch);
  sm.view.barrier[3] = true;
  sm::IssueEvent a;
  a.now = 10, a.slot = 3, a.cta_slot = 1, a.barrier_arrival = true;
  sm.bus.deliver(a, &sm::ISmObserver::on_issue);
  sm.view.barrier[3] = false;
  sm::BarrierEvent r;
  r.now = 40, r.cta_slot = 1, r.cta = 8, r.slots = {2, 3};
  sm.bus.deliver(r, &sm::ISmObserver::on_barrier_release);  // warp index 0 was critical
  sm::WarpExitEvent x;
  x.now = 50, x.slot = 2, x.cta_slot = 1, x.cta = 8;
  sm.bus.deliver(x, &sm::ISmObserver::on_warp_exit);
  x.now = 100, x.slot = 3;
  sm.bus.deliver(x, &sm::ISmObserver::on_warp_exit);
  sm::CtaEvent e = l;
  e.now = 100;
  sm.bus.deliver(e, &sm::ISmObserver::on_cta_exit);
  ASSERT_EQ(t.phases().size(), 2u);
  const auto& b = t.phases()[0];
  EXPECT_FALSE(b.exit);
  EXPECT_EQ(b.critical, 0);
  EXPECT_FALSE(b.has_previous);
  EXPECT_DOUBLE_EQ(b.rtru, 30.0 / 80.0);
  const auto& p = t.phases()[1];
  EXPECT_TRUE(p.exit);
  EXPECT_EQ(p.start, 40u);
  EXPECT_EQ(p.end, 100u);
  EXPECT_EQ(p.times, (std::vector<Cycle>{10, 60}));
  EXPECT_EQ(p.critical, 1);
  EXPECT_TRUE(p.has_previous);
  EXPECT_TRUE(p.critical_changed);
  EXPECT_EQ(p.wait, 50u);
  EXPECT_DOUBLE_EQ(p.rtru, 50.0 / 120.0);
  EXPECT_EQ(t.take_phases().size(), 2u);
  EXPECT_TRUE(t.phases().empty());
}

}  // namespace
}  // namespace simtsync::sched
