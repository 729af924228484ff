// The split-table units (multipath, aware) driven directly, with PCs as numbers: seed 003
// Fig. 6a (delayed reconvergence at C'), Fig. 6b (the timeout splits the waiting thread off),
// seed 004 Example 4 (the spin lock a stack deadlocks on), FIFO order, barriers in divergent
// code, calls, insertion latency and virtualized tables (Fig. 7).
#include "simt/impl/split_table.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "simt/registry.h"
#include "test_pcs.h"

namespace simtsync::simt {
namespace {

using test_pcs::P;

SplitTableOptions aware(bool delayed, Cycle timeout = 0) {
  SplitTableOptions o;
  o.name = "aware";
  o.delayed = delayed;
  o.timeout = timeout;
  return o;
}

// A counter by its declared name (declare_stats; multipath and aware declare the same ones), as
// the executor reads it when the warp finishes.
std::uint64_t stat(const SplitTable& s, const std::string& name) {
  const auto& decl = reconvergence_stats(s.name());
  std::vector<std::uint64_t> v(decl.size());
  s.collect(v);
  for (size_t i = 0; i < decl.size(); ++i)
    if (decl[i].name == name) return v[i];
  ADD_FAILURE() << s.name() << " declares no statistic " << name;
  return 0;
}

const ReconvergenceEntry* find_rt(const SplitTable& s) {
  static ReconvergenceEntry found;
  for (const auto& e : s.entries())
    if (e.table == ReconvergenceEntry::Table::kReconvergence) return &(found = e);
  return nullptr;
}

// Seed 003 Fig. 1 / Fig. 6: A (0) init, B (1) CAS, (2) branch back to B while the lock was not
// taken, C (3) critical section, (4) atomicExch releases, C' (5) after it, (6) exit. IPDOM of
// the loop branch is C; its safe post-dominator C'.
constexpr Pc kLoop = P(2), kC = P(3), kRelease = P(4), kCPrime = P(5);
BranchOutcome loop_branch(LaneMask spinning) {
  return BranchOutcome{spinning, P(1), kC, kC, kCPrime};
}

TEST(SplitTable, Seed003Fig6aDelayedReconvergenceAtCPrime) {
  SplitTable s(P(0), 0b1111, aware(true));
  s.advance(P(1));
  s.advance(kLoop);
  // Thread 0 takes the lock and leaves the loop; 1-3 spin.
  s.branch(loop_branch(0b1110));
  const ReconvergenceEntry* rt = find_rt(s);
  ASSERT_NE(rt, nullptr);
  EXPECT_EQ(rt->pc, kCPrime);  // step 2: the RT entry's PC is C', not C
  EXPECT_EQ(rt->pending, 0b1111u);
  // Step 3-4: the not-taken path has priority: the thread that exited the loop runs first.
  EXPECT_EQ(s.pc(), kC);
  EXPECT_EQ(s.active(), 0b0001u);
  EXPECT_EQ(stat(s, "delayed"), 1u);
  s.advance(kRelease);
  s.advance(kCPrime);  // it released the lock and waits at C'
  rt = find_rt(s);
  ASSERT_NE(rt, nullptr);
  EXPECT_EQ(rt->pending, 0b1110u);
  EXPECT_EQ(s.pc(), P(1));
  EXPECT_EQ(s.active(), 0b1110u);
  // The others take the lock one by one; a split that reaches C' waits there.
  for (LaneMask spin = 0b1110; spin != 0;) {
    s.advance(kLoop);
    const LaneMask winner = spin & (~spin + 1);
    spin &= ~winner;
    s.branch(loop_branch(spin));
    ASSERT_EQ(s.active(), winner);  // the winner, not-taken, runs first
    s.advance(kRelease);
    s.advance(kCPrime);
    if (spin) {
      EXPECT_EQ(s.active(), spin);
    }
  }
  // Step 5: all threads reconverge at C'.
  EXPECT_EQ(s.pc(), kCPrime);
  EXPECT_EQ(s.active(), 0b1111u);
  EXPECT_EQ(s.rt_size(), 0u);
  EXPECT_EQ(s.st_size(), 1u);
}

TEST(SplitTable, Seed003Fig6bTimeoutSplitsTheWaitingThreadOff) {
  constexpr Cycle kTimeout = 100;
  SplitTable s(P(0), 0b1111, aware(false, kTimeout));
  s.tick(1);
  s.advance(P(1));
  s.advance(kLoop);
  s.branch(loop_branch(0b1110));
  // Steps 1-2: thread 0 waits at the IPDOM C; one split iterates the loop.
  const ReconvergenceEntry* rt = find_rt(s);
  ASSERT_NE(rt, nullptr);
  EXPECT_EQ(rt->pc, kC);
  EXPECT_EQ(rt->pending, 0b1110u);
  EXPECT_EQ(s.st_size(), 1u);
  // Step 3: the spinners never get the lock.
  Cycle now = 1;
  for (; now < 1 + kTimeout; ++now) {
    s.tick(now);
    EXPECT_EQ(s.active(), 0b1110u);
    s.advance(kLoop);
    s.branch(loop_branch(0b1110));
  }
  EXPECT_EQ(s.next_event(now - 1), 1 + kTimeout);
  // Step 4: the timeout fires: a new split with the RT entry's PC and RPC and the arrived
  // threads (active mask minus pending mask).
  s.tick(now);
  EXPECT_EQ(stat(s, "timeouts"), 1u);
  EXPECT_EQ(s.st_size(), 2u);
  EXPECT_EQ(find_rt(s)->mask, 0b1110u);
  // Steps 5-6: the spinning split runs until its loop branch puts it at the FIFO's tail.
  EXPECT_EQ(s.active(), 0b1110u);
  s.advance(kLoop);
  s.branch(loop_branch(0b1110));
  EXPECT_EQ(s.pc(), kC);
  EXPECT_EQ(s.active(), 0b0001u);
  s.advance(kRelease);
  s.advance(kCPrime);
  s.exit(0b0001);
  EXPECT_EQ(s.active(), 0b1110u);
}

// Seed 004 Example 4 (A 0 CAS, B 1 compare, C 2 branch back to A, D 3 critical section, E 4
// release): Multi-Path keeps IPDOM reconvergence, so the winners wait at D while the losers
// spin (the same SIMT deadlock as the stack); AWARE's delayed reconvergence at the point after
// the release lets the winners through.
TEST(SplitTable, Seed004Example4MultipathDeadlocksAwareFinishes) {
  constexpr LaneMask kAll = 0xff, kWon = 0xf0, kSpin = 0x0f;
  const BranchOutcome first{kSpin, P(0), P(3), P(3), P(5)};
  {
    SplitTable mp(P(0), kAll, SplitTableOptions{});
    mp.advance(P(1));
    mp.advance(P(2));
    mp.branch(first);
    for (int i = 0; i < 1000; ++i) {
      ASSERT_EQ(mp.active(), kSpin);  // the winners never run: they wait at D
      mp.advance(P(1));
      mp.advance(P(2));
      mp.branch(BranchOutcome{kSpin, P(0), P(3), P(3), P(5)});
    }
  }
  SplitTable aw(P(0), kAll, aware(true));
  aw.advance(P(1));
  aw.advance(P(2));
  aw.branch(first);
  EXPECT_EQ(aw.active(), kWon);
  EXPECT_EQ(aw.pc(), P(3));
  aw.advance(P(4));  // critical section
  aw.advance(P(5));  // released: wait at the delayed point
  EXPECT_EQ(aw.active(), kSpin);
  aw.advance(P(1));
  aw.advance(P(2));
  aw.branch(BranchOutcome{0, P(0), P(3), P(3), P(5)});  // all get their locks now
  aw.advance(P(4));
  aw.advance(P(5));
  EXPECT_EQ(aw.active(), kAll);
  EXPECT_EQ(aw.pc(), P(5));
}

// Fig. 2a's if/else on Multi-Path: both paths run (not-taken first, breadth-first), and a branch
// ends a split's turn even when it does not diverge.
TEST(SplitTable, IfElseFifoOrderAndReconvergence) {
  SplitTable s(P(0), 0b1111, SplitTableOptions{});
  s.branch(0b0011, P(5), P(1), P(7));
  EXPECT_EQ(s.active(), 0b1100u);  // not-taken first
  EXPECT_EQ(stat(s, "splits"), 2u);
  s.advance(P(2));
  s.branch(0b1100, P(3), P(3), P(7));  // a uniform branch: to the back of the FIFO
  EXPECT_EQ(s.active(), 0b0011u);
  EXPECT_EQ(s.pc(), P(5));
  EXPECT_EQ(stat(s, "fifo_switches"), 2u);  // to the not-taken split, then to the taken one
  s.advance(P(6));
  s.advance(P(7));  // reaches D and waits
  EXPECT_EQ(s.active(), 0b1100u);
  EXPECT_EQ(s.pc(), P(3));
  s.advance(P(4));
  s.advance(P(7));
  EXPECT_EQ(s.active(), 0b1111u);
  EXPECT_EQ(s.pc(), P(7));
  EXPECT_EQ(stat(s, "reconverged"), 1u);
  s.exit(0b1111);
  EXPECT_TRUE(s.finished());
}

TEST(SplitTable, DivergentBarrierBlocksSplitsUntilAllArrive) {
  // if (t < 2) { A: bar } else { B: bar }: both splits reach a barrier (PC 2 and PC 5).
  SplitTable s(P(0), 0b1111, aware(true));
  s.branch(0b0011, P(5), P(2), P(7));
  EXPECT_EQ(s.active(), 0b1100u);
  EXPECT_EQ(s.barrier_arrive(0b1100), 0b1100u);  // only this split waits; the other runs
  EXPECT_EQ(s.active(), 0b0011u);
  EXPECT_EQ(s.pc(), P(5));
  EXPECT_EQ(s.barrier_arrive(0b0011), 0b1111u);  // now the whole warp waits
  s.barrier_release();
  // Both go on after their barriers, in FIFO order (each blocked split went to the back when
  // it reached the FIFO output).
  EXPECT_EQ(s.pc(), P(6));
  EXPECT_EQ(s.active(), 0b0011u);
  s.advance(P(7));
  EXPECT_EQ(s.pc(), P(3));
  EXPECT_EQ(s.active(), 0b1100u);
  s.advance(P(7));
  EXPECT_EQ(s.active(), 0b1111u);
}

// Seed 004 Example 2: recursion levels never merge; ret() is true only when every thread that
// entered the call has returned.
TEST(SplitTable, CallsKeepRecursionLevelsApart) {
  SplitTable s(P(0), 0b11, SplitTableOptions{});
  s.call(P(10), P(1));  // kernel calls f
  EXPECT_EQ(s.pc(), P(10));
  // In f: thread 0 recurses, thread 1 returns.
  s.branch(0b01, P(12), P(11), kExitPc);
  EXPECT_EQ(s.active(), 0b10u);
  EXPECT_FALSE(s.ret());  // thread 1 returns; thread 0 is still inside
  EXPECT_EQ(s.active(), 0b01u);
  EXPECT_EQ(s.pc(), P(12));
  s.call(P(10), P(13));  // thread 0 calls f again
  s.advance(P(11));
  EXPECT_TRUE(s.ret());  // the inner call returns: back at P(13), one level up
  EXPECT_EQ(s.pc(), P(13));
  EXPECT_EQ(s.active(), 0b01u);
  EXPECT_EQ(s.call_mask(), 0b11u);
  EXPECT_TRUE(s.ret());  // the outer call has returned for both
  EXPECT_EQ(s.pc(), P(1));
  EXPECT_EQ(s.active(), 0b11u);
  EXPECT_EQ(s.call_mask(), 0u);
}

TEST(SplitTable, NewSplitsWaitTheInsertionLatency) {
  SplitTableOptions o = aware(false);
  o.insert_latency = 1;
  SplitTable s(P(0), 0b11, o);
  s.tick(10);
  EXPECT_TRUE(s.ready());
  s.branch(0b01, P(5), P(1), P(7));
  EXPECT_FALSE(s.ready());
  EXPECT_EQ(s.next_event(10), 11u);
  s.tick(11);
  EXPECT_TRUE(s.ready());
}

// Fig. 7 with one physical entry per table: a second split spills the first (12 bytes), a second
// RT entry spills the first (16 bytes); a virtual split at the FIFO output is filled and goes to
// the back; a pending-mask update of a virtual RT entry waits for its fill.
TEST(SplitTable, VirtualizedTablesSpillAndFill) {
  SplitTableOptions o = aware(false);
  o.st_entries = 1;
  o.rt_entries = 1;
  SplitTable s(P(0), 0b1111, o);
  s.branch(0b0011, P(20), P(1), P(30));  // outer if: RT at 30
  UnitRequest q;
  // The not-taken split was inserted into the full ST (the running split was removed first),
  // then the taken split spilled it.
  ASSERT_TRUE(s.pop_request(q));
  EXPECT_TRUE(q.write);
  EXPECT_EQ(q.bytes, 12u);
  EXPECT_EQ(stat(s, "st_spills"), 1u);
  EXPECT_FALSE(s.branch_ready());
  s.request_sent(q.tag);
  EXPECT_TRUE(s.branch_ready());
  // The not-taken split, now virtual, reached the FIFO output: its fill is out.
  ASSERT_TRUE(s.pop_request(q));
  EXPECT_FALSE(q.write);
  EXPECT_EQ(q.bytes, 12u);
  EXPECT_EQ(s.active(), 0b0011u);  // the taken split is resident and runs meanwhile
  // The taken split diverges again: a second RT entry spills the first (LRU).
  s.branch(0b0001, P(25), P(21), P(28));
  bool rt_spill = false;
  std::vector<std::uint64_t> fills{q.tag};
  while (s.pop_request(q)) {
    rt_spill |= q.write && q.bytes == 16;
    if (!q.write) fills.push_back(q.tag);
    s.request_sent(q.tag);
  }
  EXPECT_TRUE(rt_spill);
  EXPECT_EQ(stat(s, "rt_spills"), 1u);
  for (std::uint64_t t : fills) s.memory_reply(MemoryReply{0, 0, 0, true, t});
  EXPECT_GE(stat(s, "st_fills"), 1u);
  EXPECT_GT(stat(s, "table_bytes"), 0u);
  // Every thread still completes the program (the tables only move entries around).
  for (int guard = 0; guard < 100 && !s.finished(); ++guard) {
    while (s.pop_request(q)) {
      s.request_sent(q.tag);
      if (!q.write) s.memory_reply(MemoryReply{0, 0, 0, true, q.tag});
    }
    if (!s.ready()) continue;
    s.exit(s.active());
  }
  EXPECT_TRUE(s.finished());
}

// Fig. 7's issue restrictions: a spill request holds back branches only, until it leaves the SM.
TEST(SplitTable, SpillRequestHoldsBackBranchesUntilItLeaves) {
  SplitTableOptions o = aware(false);
  o.st_entries = 1;
  SplitTable s(P(0), 0b11, o);
  s.branch(0b01, P(5), P(1), P(9));  // the taken split spills the not-taken one
  EXPECT_TRUE(s.ready());            // straight-line code issues
  EXPECT_FALSE(s.branch_ready());
  UnitRequest q;
  ASSERT_TRUE(s.pop_request(q));
  EXPECT_TRUE(q.write);
  EXPECT_FALSE(s.branch_ready());  // in the SM's queue, not yet sent
  s.request_sent(q.tag);
  EXPECT_TRUE(s.branch_ready());
}

// The reconverged-entry buffer: a split out of the RT (here a timeout's) that finds the ST full
// while the ST spill request has not left waits there, and no instruction issues meanwhile.
TEST(SplitTable, ReconvergedEntryBufferWaitsForSplitTableRoom) {
  SplitTableOptions o = aware(false, 5);
  o.st_entries = 1;
  SplitTable s(P(0), 0b11, o);
  s.branch(0b01, P(5), P(1), P(9));  // the taken split spills the not-taken one
  UnitRequest spill, fill;
  ASSERT_TRUE(s.pop_request(spill));
  ASSERT_TRUE(s.pop_request(fill));
  ASSERT_TRUE(spill.write);
  ASSERT_FALSE(fill.write);
  EXPECT_EQ(s.active(), 0b01u);
  s.advance(P(9));          // the taken thread waits at the RT entry from cycle 0
  EXPECT_FALSE(s.ready());  // the not-taken split is in transit
  s.memory_reply(MemoryReply{0, 0, 0, true, fill.tag});
  ASSERT_TRUE(s.ready());
  EXPECT_EQ(s.active(), 0b10u);
  s.tick(5);  // the timeout fires: the ST is full and its spill request still waits
  EXPECT_EQ(stat(s, "timeouts"), 1u);
  EXPECT_FALSE(s.ready());
  EXPECT_NE(s.report_note().find("reconverged-entry buffer"), std::string::npos);
  s.request_sent(spill.tag);
  EXPECT_TRUE(s.ready());
  EXPECT_EQ(s.active(), 0b10u);
  bool timed_out_split = false;
  for (const auto& e : s.entries())
    timed_out_split |=
        e.table == ReconvergenceEntry::Table::kSplit && e.pc == P(9) && e.mask == 0b01u;
  EXPECT_TRUE(timed_out_split);
}

// Lookup latency: reading the ST entry when the FIFO output changes overlaps the insertion of a
// split inserted the same cycle, but costs a cycle for an older one; a reconverged entry waits
// for the RT lookup and then its insertion.
TEST(SplitTable, LookupLatencyOnSwitchesAndReconvergence) {
  SplitTableOptions o = aware(false);
  o.insert_latency = 1;
  o.lookup_latency = 1;
  SplitTable s(P(0), 0b11, o);
  s.tick(10);
  s.branch(0b01, P(5), P(1), P(9));
  EXPECT_EQ(s.next_event(10), 11u);
  s.tick(11);
  ASSERT_TRUE(s.ready());
  EXPECT_EQ(s.active(), 0b10u);  // not-taken first
  s.advance(P(9));               // arrives; the taken split, inserted at 10, is read now
  EXPECT_FALSE(s.ready());
  EXPECT_EQ(s.next_event(11), 12u);
  s.tick(12);
  ASSERT_TRUE(s.ready());
  EXPECT_EQ(s.active(), 0b01u);
  s.advance(P(9));  // the last arrival: RT lookup, then insertion
  EXPECT_FALSE(s.ready());
  EXPECT_EQ(s.next_event(12), 14u);
  s.tick(14);
  ASSERT_TRUE(s.ready());
  EXPECT_EQ(s.active(), 0b11u);
  EXPECT_EQ(s.pc(), P(9));
}

// A call whose RT entry was spilled: the last ret() reports the whole call returned at once
// (the executor restores the caller's frame then), and the threads go on in the caller once the
// entry's fill is back (the recursion workload livelocked when the answer waited for the fill).
TEST(SplitTable, RetOfASpilledCallEntryAnswersAtOnce) {
  SplitTableOptions o = aware(false);
  o.rt_entries = 1;
  SplitTable s(P(0), 0b11, o);
  s.call(P(100), P(1));
  s.branch(0b01, P(110), P(101), P(120));  // the callee diverges: its RT entry spills the call's
  EXPECT_EQ(stat(s, "rt_spills"), 1u);
  s.advance(P(120));
  s.advance(P(120));
  ASSERT_EQ(s.active(), 0b11u);
  EXPECT_TRUE(s.ret());
  EXPECT_FALSE(s.ready());  // the arrival waits for the call entry's fill
  UnitRequest q;
  while (s.pop_request(q)) {
    s.request_sent(q.tag);
    if (!q.write) s.memory_reply(MemoryReply{0, 0, 0, true, q.tag});
  }
  ASSERT_TRUE(s.ready());
  EXPECT_EQ(s.pc(), P(1));
  EXPECT_EQ(s.active(), 0b11u);
}

// A split held at a barrier while another runs: when the other exits, the warp has arrived
// (barrier_complete) though no further barrier_arrive comes.
TEST(SplitTable, BarrierCompleteWhenTheOtherSplitsExit) {
  SplitTable s(P(0), 0b11, aware(false));
  s.branch(0b01, P(5), P(1), P(9));
  ASSERT_EQ(s.active(), 0b10u);
  EXPECT_EQ(s.barrier_arrive(0b10), 0b10u);  // held; the taken split still runs
  EXPECT_FALSE(s.barrier_complete());
  ASSERT_EQ(s.active(), 0b01u);
  s.exit(0b01);
  EXPECT_TRUE(s.barrier_complete());
  s.barrier_release();
  EXPECT_FALSE(s.barrier_complete());
  EXPECT_EQ(s.active(), 0b10u);
  EXPECT_EQ(s.pc(), P(2));
}

}  // namespace
}  // namespace simtsync::simt
