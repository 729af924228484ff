// The SM's events as an observer hears them: branch outcomes, setp operands, barrier arrival
// and release, per-lane atomic results (whole and in parts), CTA launch and exit; and a policy
// that holds every warp back (the held stall category, next_event).
#include <gtest/gtest.h>

#include "sm_test_util.h"

namespace simtsync::sm::testing {
namespace {

struct Recorder final : ISmObserver {
  void on_issue(const IssueEvent& e) override { issues.push_back(e); }
  void on_barrier_release(const BarrierEvent& e) override { releases.push_back(e); }
  void on_cta_launch(const CtaEvent& e) override { launches.push_back(e); }
  void on_cta_exit(const CtaEvent& e) override { exits.push_back(e); }
  void on_memory(const MemoryEvent& e) override { memory.push_back(e); }
  std::vector<IssueEvent> of(ptx::Opcode op) const {
    std::vector<IssueEvent> v;
    for (const auto& e : issues)
      if (e.inst && e.inst->op == op) v.push_back(e);
    return v;
  }
  std::vector<IssueEvent> issues;
  std::vector<BarrierEvent> releases;
  std::vector<CtaEvent> launches, exits;
  std::vector<MemoryEvent> memory;
};

TEST(SmEvents, BranchOutcomeAndSetpOperands) {
  // Lanes 0-11 take a forward branch; then every lane runs a 3-iteration backward loop.
  SmRig rig(R"(
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 12;
  @%p1 bra SKIP;
  add.u32 %r2, %r1, 1;
SKIP:
  mov.u32 %r3, 0;
LOOP:
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p2, %r3, 3;
  @%p2 bra LOOP;
  ret;)",
            small_params());
  Recorder rec;
  rig.sm.events().subscribe(&rec);
  ASSERT_TRUE(rig.run());
  const auto br = rec.of(ptx::Opcode::kBra);
  ASSERT_EQ(br.size(), 4u);  // the forward branch and three loop branches
  EXPECT_TRUE(br[0].branch);
  EXPECT_EQ(br[0].active, 0xffffffffu);
  EXPECT_EQ(br[0].taken, 0xfffu);  // lanes 0..11
  EXPECT_FALSE(br[0].backward);
  EXPECT_GT(br[0].target, br[0].pc);
  for (int i = 1; i <= 3; ++i) {
    EXPECT_TRUE(br[static_cast<size_t>(i)].backward);
    EXPECT_EQ(br[static_cast<size_t>(i)].taken, i < 3 ? 0xffffffffu : 0u);
  }
  const auto sp = rec.of(ptx::Opcode::kSetp);
  ASSERT_EQ(sp.size(), 4u);
  EXPECT_TRUE(sp[0].setp);
  EXPECT_EQ(sp[0].setp_a, 0u);  // the first lane's %tid.x
  EXPECT_EQ(sp[0].setp_b, 12u);
  EXPECT_EQ(sp[1].setp_a, 1u);  // loop counter after the first iteration
  EXPECT_EQ(sp[3].setp_a, 3u);
  EXPECT_EQ(sp[3].setp_b, 3u);
  // The rig starts its CTA before the recorder subscribes: only the exit is heard.
  EXPECT_TRUE(rec.launches.empty());
  ASSERT_EQ(rec.exits.size(), 1u);
  EXPECT_EQ(rec.exits[0].slots, std::vector<int>{0});
  EXPECT_EQ(rec.exits[0].cta, 0);
}

TEST(SmEvents, BarrierArrivalAndRelease) {
  SmRig rig(R"(
  mov.u32 %r1, %tid.x;
  bar.sync 0;
  add.u32 %r2, %r1, 1;
  ret;)",
            small_params(), 64);
  Recorder rec;
  rig.sm.events().subscribe(&rec);
  ASSERT_TRUE(rig.run());
  int arrivals = 0;
  for (const auto& e : rec.issues) arrivals += e.barrier_arrival ? 1 : 0;
  EXPECT_EQ(arrivals, 2);
  ASSERT_EQ(rec.releases.size(), 1u);
  EXPECT_EQ(rec.releases[0].barrier, 0u);
  EXPECT_EQ(rec.releases[0].slots.size(), 2u);
  // The release comes after both arrivals and before any instruction after the barrier.
  const Cycle released = rec.releases[0].now;
  for (const auto& e : rec.of(ptx::Opcode::kAdd)) EXPECT_GE(e.now, released);
}

constexpr const char* kCas = R"(
  mov.u32 %r1, %tid.x;
  atom.global.cas.b32 %r2, [lock], 0, 1;
  add.u32 %r3, %r2, %r1;
  ret;)";
constexpr const char* kLockDecl = ".global .u32 lock;\n";

TEST(SmEvents, PerLaneAtomicResults) {
  SmRig rig(kCas, small_params(), 32, kLockDecl);
  Recorder rec;
  rig.sm.events().subscribe(&rec);
  rig.auto_latency = 10;
  ASSERT_TRUE(rig.run());
  ASSERT_EQ(rec.memory.size(), 1u);
  EXPECT_TRUE(rec.memory[0].last);
  EXPECT_EQ(rec.memory[0].lanes, 0xffffffffu);
  EXPECT_EQ(rec.memory[0].succeeded, 0x1u);  // lanes serialize in lane order: lane 0 swaps
  EXPECT_TRUE(rec.memory[0].inst && rec.memory[0].inst->op == ptx::Opcode::kAtom);
}

TEST(SmEvents, LanesMayCompleteSeparately) {
  SmRig rig(kCas, small_params(), 32, kLockDecl);
  Recorder rec;
  rig.sm.events().subscribe(&rec);
  while (rig.port.sent.empty() && rig.now < 200) rig.tick();
  ASSERT_EQ(rig.port.sent.size(), 1u);
  rig.respond_lanes(0, 0xffff0000u);  // the upper half first (lane 16 swaps)
  ASSERT_EQ(rec.memory.size(), 1u);
  EXPECT_FALSE(rec.memory[0].last);
  EXPECT_EQ(rec.memory[0].succeeded, 0x10000u);
  // The dependent add cannot issue while half the lanes are out.
  rig.run_until(rig.now + 50);
  EXPECT_TRUE(rec.of(ptx::Opcode::kAdd).empty());
  rig.respond_lanes(0, 0x0000ffffu);
  ASSERT_EQ(rec.memory.size(), 2u);
  EXPECT_TRUE(rec.memory[1].last);
  EXPECT_EQ(rec.memory[1].succeeded, 0x10000u);  // the instruction's outcome, all lanes
  ASSERT_TRUE(rig.run(rig.now + 1000));
  EXPECT_EQ(rec.of(ptx::Opcode::kAdd).size(), 1u);
}

TEST(SmPolicy, HoldingEveryWarpIsHeldNotIdleAndWakesTheSm) {
  SmParams p = small_params();
  p.scheduler = sched::scheduler_params("example_hold", {{"hold_cycles", std::int64_t{500}}});
  SmRig rig("  mov.u32 %r1, %tid.x;\n  add.u32 %r2, %r1, 1;\n  ret;", p);
  // Once its I-buffers are full nothing happens by itself, and the SM may sleep exactly until
  // the hold ends (not for ever: no false deadlock).
  rig.run_until(100);
  EXPECT_FALSE(rig.sm.tick(rig.now));
  EXPECT_EQ(rig.sm.next_event(rig.now), 500u);
  rig.run_until(500);
  EXPECT_TRUE(rig.issues.empty());
  EXPECT_EQ(rig.stall(StallKind::kHeld), 501u);  // cycles 0..499 and the extra tick above
  EXPECT_EQ(rig.stall(StallKind::kIdle), 0u);
  ASSERT_TRUE(rig.run(2000));
  EXPECT_FALSE(rig.issues.empty());
  EXPECT_GE(rig.issues.front().at, 500u);
  EXPECT_GT(rig.sm.stats().sched[0].policy.at(0), 0u);  // the declared statistic counted
}

// The timeline trace's per-warp reasons (SchedCycleEvent): heard only by observers subscribed
// with subscribe_cycles, and listening changes nothing.
struct CycleRecorder final : ISmObserver {
  struct Seen {
    Cycle now;
    int slot;
    WarpCycle why;
  };
  void on_sched_cycle(const SchedCycleEvent& e) override {
    ASSERT_EQ(e.slots.size(), e.why.size());
    for (std::size_t i = 0; i < e.slots.size(); ++i) seen.push_back({e.now, e.slots[i], e.why[i]});
  }
  std::vector<Seen> seen;
};

TEST(SmEvents, SchedulerCyclesSayWhyEachWarpDidNotIssue) {
  SmParams p = small_params();
  p.scheduler = sched::scheduler_params("example_hold", {{"hold_cycles", std::int64_t{300}}});
  const std::string body =
      "  mov.u32 %r1, %tid.x;\n  add.u32 %r2, %r1, 1;\n  mul.lo.u32 %r3, %r2, %r2;\n"
      "  add.u32 %r4, %r3, %r1;\n  ret;";
  SmRig rig(body, p, 64);  // two warps on one scheduler
  CycleRecorder rec, plain;
  rig.sm.events().subscribe_cycles(&rec);
  rig.sm.events().subscribe(&plain);  // an ordinary observer hears no scheduler cycles
  ASSERT_TRUE(rig.run(3000));
  EXPECT_TRUE(plain.seen.empty());
  ASSERT_FALSE(rec.seen.empty());
  // The cycle each warp issued its ret (warps 0 and 1 hold slots 0 and 1): from then on it is
  // not live, and its slot reports no reason.
  Cycle ret_at[2] = {kNever, kNever};
  for (const auto& i : rig.issues)
    if (i.op == ptx::Opcode::kRet && i.warp >= 0 && i.warp < 2)
      ret_at[i.warp] = std::min(ret_at[i.warp], i.at);
  std::size_t issued = 0, held = 0, other = 0;
  for (const auto& s : rec.seen) {
    if (s.why == WarpCycle::kNone) {
      // The slots without a warp (the CTA has two), or a warp that has finished.
      if (s.slot < 2) {
        EXPECT_GT(s.now, ret_at[s.slot]) << "slot " << s.slot;
      }
      continue;
    }
    if (s.now < 300) {
      EXPECT_EQ(s.why, WarpCycle::kHeld) << "cycle " << s.now << " slot " << s.slot;
      ++held;
    } else if (s.why == WarpCycle::kIssued) {
      ++issued;
      // The warp the event says issued did issue in that cycle.
      EXPECT_TRUE(std::any_of(rig.issues.begin(), rig.issues.end(),
                              [&](const auto& i) { return i.at == s.now; }));
    } else {
      EXPECT_NE(s.why, WarpCycle::kHeld) << "cycle " << s.now;
      ++other;
    }
  }
  EXPECT_GT(held, 0u);
  EXPECT_EQ(issued, rig.issues.size());
  EXPECT_GT(other, 0u);  // the warp behind the issuing one, waiting on data, or fetching

  // The same run without the listener issues the same instructions in the same cycles.
  SmRig quiet(body, p, 64);
  ASSERT_TRUE(quiet.run(3000));
  ASSERT_EQ(quiet.issues.size(), rig.issues.size());
  for (std::size_t i = 0; i < rig.issues.size(); ++i) {
    EXPECT_EQ(quiet.issues[i].at, rig.issues[i].at);
    EXPECT_EQ(quiet.issues[i].pc, rig.issues[i].pc);
  }
}

}  // namespace
}  // namespace simtsync::sm::testing
