// The independent-thread-scheduling unit driven directly, with PCs as numbers: the spin lock of
// seed 004 Example 4 (which deadlocks the IPDOM stack) finishes, an if/else and a loop
// reconverge opportunistically, recursion keeps call depths apart, a divergent barrier arrives
// group by group, and a warp sync holds a group until its other member arrives.
#include "simt/impl/its.h"

#include <gtest/gtest.h>

#include "simt/impl/ipdom_stack.h"
#include "test_pcs.h"

namespace simtsync::simt {
namespace {

using test_pcs::P;

// Seed 004 Example 4: A: atom.cas on the lock; B: compare; C: branch back to A when the CAS
// failed (rpc D); D: critical section; E: atom.exch releases the lock; F: exit. Every thread of
// the warp wants the same lock. Returns the steps (instructions executed) until every thread
// exited, or -1 after `limit` steps; *first_unlock: the step at which the first holder ran E.
int run_spin_lock(IReconvergence& s, int limit, int* first_unlock) {
  int holder = -1;
  LaneMask acquired = 0;  // threads whose CAS succeeded in this round
  *first_unlock = -1;
  for (int step = 0; step < limit; ++step) {
    if (s.finished()) return step;
    const LaneMask a = s.active();
    const Pc pc = s.pc();
    if (pc == P(0)) {
      if (holder < 0) {
        holder = first_lane(a);  // one CAS of the group wins
        acquired |= LaneMask{1} << holder;
      }
      s.advance(P(1));
    } else if (pc == P(1)) {
      s.advance(P(2));
    } else if (pc == P(2)) {
      s.branch(a & ~acquired, P(0), P(3), P(3));
    } else if (pc == P(3)) {
      s.advance(P(4));
    } else if (pc == P(4)) {
      EXPECT_TRUE(holder >= 0 && (a >> holder & 1)) << "only the holder unlocks";
      if (*first_unlock < 0) *first_unlock = step;
      holder = -1;
      s.advance(P(5));
    } else if (pc == P(5)) {
      s.exit(a);
    } else {
      ADD_FAILURE() << "unexpected PC " << pc;
      return -1;
    }
  }
  return -1;
}

TEST(Its, SpinLockSeed004Example4Finishes) {
  // The stack deadlocks: the holder waits at the reconvergence point D for the spinners.
  IpdomStack stack(P(0), 0xff);
  int unlock = 0;
  EXPECT_EQ(run_spin_lock(stack, 2000, &unlock), -1);
  EXPECT_EQ(unlock, -1);
  // ITS: the holder gets to run its critical section and unlock while the others spin, within
  // a bounded number of scheduling decisions (the starvation limit), and everyone finishes.
  for (unsigned limit : {1u, 4u, Its::kDefaultStarvationLimit}) {
    Its its(P(0), 0xff, limit);
    const int steps = run_spin_lock(its, 20000, &unlock);
    EXPECT_GT(steps, 0) << "limit " << limit;
    EXPECT_GE(unlock, 0);
    // Up to `limit` spin iterations of 3 instructions, plus the holder's way to E.
    EXPECT_LE(unlock, static_cast<int>(3 * (limit + 2) + 6)) << "limit " << limit;
    EXPECT_TRUE(its.finished());
    EXPECT_EQ(its.live(), 0u);
  }
}

// Seed 003 Fig. 2a: A = 0..2 (branch at 2), B = 3..4 (bra D at 4), C = 5..6, D = 7.
TEST(Its, IfElseReconvergesOpportunistically) {
  Its s(P(0), 0b1111);
  s.advance(P(1));
  s.advance(P(2));
  s.branch(0b0011, P(5), P(3), P(7));
  // The lower PC (B) runs first.
  EXPECT_EQ(s.pc(), P(3));
  EXPECT_EQ(s.active(), 0b1100u);
  s.advance(P(4));
  s.branch(0b1100, P(7), P(5), P(7));
  // B waits at D for the threads of C, which run now.
  EXPECT_EQ(s.pc(), P(5));
  EXPECT_EQ(s.active(), 0b0011u);
  const auto e = s.entries();
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].pc, P(7));
  EXPECT_EQ(e[0].rpc, P(7));
  EXPECT_EQ(e[0].mask, 0b1100u);
  EXPECT_EQ(e.back().mask, 0b0011u);  // the running group last
  s.advance(P(6));
  s.advance(P(7));
  // One group again at D.
  EXPECT_EQ(s.pc(), P(7));
  EXPECT_EQ(s.active(), 0b1111u);
  EXPECT_EQ(s.entries().size(), 1u);
  s.exit(0b1111);
  EXPECT_TRUE(s.finished());
}

// Seed 003 Fig. 2b: the loop B = 1..2 (backward branch at 2) exits to C = 3. Threads leave one
// per iteration; the early leavers wait at C and the warp leaves the loop as one group.
TEST(Its, LoopWithEarlyLeaverReconvergesAfterTheLoop) {
  Its s(P(0), 0b1111);
  s.advance(P(1));
  s.advance(P(2));
  LaneMask stay = 0b0111;  // thread 3 leaves first
  s.branch(stay, P(1), P(3), P(3));
  while (stay != 0) {
    ASSERT_EQ(s.pc(), P(1));
    ASSERT_EQ(s.active(), stay);
    s.advance(P(2));
    stay &= stay - 1;
    s.branch(stay, P(1), P(3), P(3));
  }
  EXPECT_EQ(s.pc(), P(3));
  EXPECT_EQ(s.active(), 0b1111u);
}

// With a small starvation limit a leaver that waits too long runs ahead (forward progress
// before reconvergence), and the loop's threads still finish.
TEST(Its, StarvationLimitLetsAWaitingGroupRun) {
  Its s(P(0), 0b11, 2);
  s.advance(P(1));
  s.advance(P(2));
  s.branch(0b01, P(1), P(3), P(3));  // thread 1 leaves; thread 0 loops
  int ran_ahead_at = -1;
  for (int i = 0; i < 10 && ran_ahead_at < 0; ++i) {
    if (s.active() == 0b10) {
      ran_ahead_at = i;
      break;
    }
    ASSERT_EQ(s.pc(), P(1));
    s.advance(P(2));
    s.branch(0b01, P(1), P(3), P(3));  // thread 0 keeps looping
  }
  EXPECT_EQ(ran_ahead_at, 2);
  EXPECT_EQ(s.pc(), P(3));
  s.exit(0b10);
  EXPECT_EQ(s.active(), 0b01u);
  EXPECT_EQ(s.pc(), P(1));
}

// Recursion (seed 004 Example 2 in spirit). Kernel: 0 call f, 1 exit. f: 10 branch (recurse:
// 11, else 13; rpc 13), 11 call f (returns to 12), 12 bra 13, 13 ret. Thread 0 recurses once
// more than thread 1: at 13 the two are at different depths and must not merge.
TEST(Its, RecursionKeepsCallDepthsApart) {
  Its s(P(0), 0b11);
  s.call(P(10), P(1));
  EXPECT_EQ(s.depth(0), 1u);
  EXPECT_EQ(s.call_mask(), 0b11u);
  s.branch(0b01, P(11), P(13), P(13));
  EXPECT_EQ(s.pc(), P(11));
  EXPECT_EQ(s.active(), 0b01u);
  s.call(P(10), P(12));
  EXPECT_EQ(s.depth(0), 2u);
  EXPECT_EQ(s.depth(1), 1u);
  EXPECT_EQ(s.call_mask(), 0b01u);
  s.branch(0, P(11), P(13), P(13));  // no deeper recursion
  EXPECT_EQ(s.pc(), P(13));
  EXPECT_EQ(s.active(), 0b01u) << "thread 1 is at PC 13 too, one call level up";
  EXPECT_TRUE(s.ret()) << "the inner call had only thread 0";
  EXPECT_EQ(s.depth(0), 1u);
  EXPECT_EQ(s.pc(), P(12));
  EXPECT_EQ(s.active(), 0b01u);
  s.branch(0b01, P(13), P(13), P(13));
  EXPECT_EQ(s.pc(), P(13));
  EXPECT_EQ(s.active(), 0b11u) << "same PC, same call: one group";
  EXPECT_TRUE(s.ret());
  EXPECT_EQ(s.pc(), P(1));
  EXPECT_EQ(s.active(), 0b11u);
  EXPECT_EQ(s.depth(0), 0u);
  EXPECT_EQ(s.call_mask(), 0u);
}

// A call whose threads return separately: f = 10 branch (taken: 20, else 11; rpc: the exit),
// 11 ret, 20 .. 21 ret. ret() is false for the first returning group, true for the last.
TEST(Its, RetIsTrueOnlyWhenTheWholeCallReturned) {
  Its s(P(0), 0b111);
  s.call(P(10), P(1));
  s.branch(0b100, P(20), P(11), kExitPc);
  EXPECT_EQ(s.pc(), P(11));
  EXPECT_EQ(s.active(), 0b011u);
  EXPECT_FALSE(s.ret());
  EXPECT_EQ(s.returned(), 0b011u);
  EXPECT_EQ(s.pc(), P(20));
  EXPECT_EQ(s.active(), 0b100u);
  s.advance(P(21));
  EXPECT_TRUE(s.ret());
  EXPECT_EQ(s.returned(), 0u);
  EXPECT_EQ(s.pc(), P(1));
  EXPECT_EQ(s.active(), 0b111u);
  EXPECT_EQ(s.depth(2), 0u);
}

// A thread that exits inside the call: the returned threads run their return again (an
// implicit return at the function's exit), which completes the call.
TEST(Its, ExitInsideACallLetsTheReturnedThreadsGoOn) {
  Its s(P(0), 0b11);
  s.call(P(10), P(1));
  s.branch(0b10, P(20), P(11), kExitPc);
  EXPECT_FALSE(s.ret());  // thread 0
  EXPECT_EQ(s.active(), 0b10u);
  s.exit(0b10);
  EXPECT_EQ(s.pc(), kExitPc);
  EXPECT_EQ(s.active(), 0b01u);
  EXPECT_TRUE(s.ret());
  EXPECT_EQ(s.pc(), P(1));
}

// A barrier in divergent code: 0 branch (taken: 5; else 1; rpc 9), 1 bar.sync, 5 bar.sync.
// The first group blocks and the other runs; the warp has arrived when the second group does.
TEST(Its, DivergentBarrierArrivesGroupByGroup) {
  Its s(P(0), 0b1111);
  s.branch(0b0011, P(5), P(1), P(9));
  EXPECT_EQ(s.pc(), P(1));
  EXPECT_EQ(s.barrier_arrive(s.active()), 0b1100u);
  EXPECT_EQ(s.pc(), P(5));
  EXPECT_EQ(s.active(), 0b0011u);
  EXPECT_EQ(s.barrier_arrive(s.active()), s.live());
  EXPECT_EQ(s.at_barrier(), 0b1111u);
  s.barrier_release();
  EXPECT_EQ(s.at_barrier(), 0u);
  EXPECT_EQ(s.thread_pc(0), P(6));
  EXPECT_EQ(s.thread_pc(3), P(2));
  EXPECT_EQ(s.pc(), P(2));
  EXPECT_EQ(s.active(), 0b1100u);
}

// Threads held at a barrier while the others run: once the others exit, the warp has arrived.
TEST(Its, BarrierCompleteWhenTheOtherThreadsExit) {
  Its s(P(0), 0b1111);
  s.branch(0b0011, P(5), P(1), P(9));
  EXPECT_EQ(s.barrier_arrive(s.active()), 0b1100u);
  EXPECT_FALSE(s.barrier_complete());
  EXPECT_EQ(s.active(), 0b0011u);
  s.exit(0b0011);
  EXPECT_TRUE(s.barrier_complete());
  s.barrier_release();
  EXPECT_FALSE(s.barrier_complete());
  EXPECT_EQ(s.pc(), P(2));
}

// A warp sync at 2 with members 0 and 1: 0 branch (taken: 4; else 1; no reconvergence point),
// 1 .. 2 warp sync; 4 .. 5 bra 2. Thread 0 arrives first and is held until thread 1 arrives;
// then both run the instruction together.
TEST(Its, WarpSyncHoldsAGroupUntilTheOtherMemberArrives) {
  Its s(P(0), 0b11);
  s.branch(0b10, P(4), P(1), kExitPc);
  EXPECT_EQ(s.pc(), P(1));
  s.advance(P(2));
  EXPECT_FALSE(s.warp_sync(0b11));
  EXPECT_EQ(s.held(), 0b01u);
  EXPECT_EQ(s.pc(), P(4));
  EXPECT_EQ(s.active(), 0b10u);
  s.advance(P(5));
  s.branch(0b10, P(2), P(6), kExitPc);
  EXPECT_EQ(s.pc(), P(2));
  EXPECT_EQ(s.active(), 0b10u);
  EXPECT_FALSE(s.warp_sync(0b11)) << "the last member arrives: they run it as one group";
  EXPECT_EQ(s.held(), 0u);
  EXPECT_EQ(s.pc(), P(2));
  EXPECT_EQ(s.active(), 0b11u);
  EXPECT_TRUE(s.warp_sync(0b11));
  s.advance(P(3));
  EXPECT_EQ(s.active(), 0b11u);
  // A sync whose members are all in the group runs at once.
  EXPECT_TRUE(s.warp_sync(0b11));
  EXPECT_TRUE(s.warp_sync(0b01));
}

// Exited members count as arrived.
TEST(Its, WarpSyncReleasedWhenTheOtherMemberExits) {
  Its s(P(0), 0b11);
  s.branch(0b10, P(4), P(1), kExitPc);
  EXPECT_FALSE(s.warp_sync(0b11));
  EXPECT_EQ(s.active(), 0b10u);
  s.exit(0b10);
  EXPECT_EQ(s.held(), 0u);
  EXPECT_EQ(s.pc(), P(1));
  EXPECT_EQ(s.active(), 0b01u);
  EXPECT_TRUE(s.warp_sync(0b11));
}

TEST(Its, NameAndDefaults) {
  Its s(P(0), 0b1);
  EXPECT_EQ(s.name(), "its");
  EXPECT_EQ(s.timed(), nullptr);
  EXPECT_EQ(s.locks(), nullptr);
  EXPECT_TRUE(s.ready());
  EXPECT_EQ(s.live(), 0b1u);
  EXPECT_FALSE(s.finished());
}

}  // namespace
}  // namespace simtsync::simt
