// The lock stack of seed 004 ch. 4, step by step on the examples of its Figures 4.1-4.4 (8
// threads; thread k is lane k-1; PCs are the examples' letters).
#include "simt/impl/lock_stack.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "simt/impl/lock_stack_spill.h"

namespace simtsync::simt {
namespace {

using Lock = ReconvergenceEntry::Lock;

constexpr Pc A = 0x100, B = 0x108, C = 0x110, D = 0x118, E = 0x120, F = 0x128, G = 0x130, H = 0x138,
             I = 0x140, J = 0x148, K = 0x150;

// "PC mask kind" per entry, bottom first (kind: - normal, LR, L); RPCs are checked separately.
std::string dump(const IReconvergence& s) {
  std::string out;
  for (const auto& e : s.entries()) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s%llx:%02llx:%s", out.empty() ? "" : " ",
                  static_cast<unsigned long long>(e.pc), static_cast<unsigned long long>(e.mask),
                  e.lock == Lock::kRetry  ? "LR"
                  : e.lock == Lock::kHeld ? "L"
                  : e.lock == Lock::kTry  ? "TR"
                                          : "-");
    out += buf;
  }
  return out;
}

std::string st(std::vector<std::string> entries) {
  std::string out;
  for (const auto& e : entries) out += (out.empty() ? "" : " ") + e;
  return out;
}

TEST(LockStack, Figure41And42ASpinLockWithoutDivergence) {
  // Example 9: Lock (A); critical section (B); Unlock (C); more code (D).
  LockStack s(A, 0xFF);
  ASSERT_TRUE(s.lock_sent(A));
  EXPECT_FALSE(s.ready());  // out of the scheduling queue until every reply is back
  EXPECT_EQ(dump(s), st({"100:ff:-", "100:ff:LR"}));  // Fig. 4.1(a)
  s.lock_replied(0xF0, B);
  EXPECT_TRUE(s.ready());
  EXPECT_EQ(dump(s), st({"100:ff:-", "100:ff:LR", "108:f0:L"}));  // Fig. 4.1(b)
  EXPECT_EQ(s.active(), 0xF0u);
  EXPECT_EQ(s.pc(), B);
  for (const auto& e : s.entries()) {
    if (e.lock != Lock::kNone) {
      EXPECT_NE(e.rpc, B);  // never popped by reconvergence
    }
  }
  s.advance(C);
  ASSERT_TRUE(s.unlock(D));
  // Fig. 4.2: L popped, LR keeps the threads still to go, the entry below continues at D.
  EXPECT_EQ(dump(s), st({"118:ff:-", "100:0f:LR"}));
  EXPECT_EQ(s.pc(), A);  // the rest retry the lock
  EXPECT_EQ(s.lock_counter(), 1u);
  // A retry pushes nothing new; this time the other four take it.
  ASSERT_TRUE(s.lock_sent(A));
  EXPECT_EQ(dump(s), st({"118:ff:-", "100:0f:LR"}));
  s.lock_replied(0x00, B);  // none did: the LR entry stays on top
  EXPECT_EQ(s.pc(), A);
  ASSERT_TRUE(s.lock_sent(A));
  s.lock_replied(0x0F, B);
  s.advance(C);
  ASSERT_TRUE(s.unlock(D));
  EXPECT_EQ(dump(s), st({"118:ff:-"}));  // everyone through: the whole warp goes on at D
  EXPECT_EQ(s.active(), 0xFFu);
  EXPECT_EQ(s.lock_counter(), 0u);
}

TEST(LockStack, Figure43DivergenceInsideTheCriticalSection) {
  // Example 10 (radiosity): A lock; B if (...) {C ...; D unlock; E break;} F unlock; G after.
  // Threads 1-4 take the lock; at B threads 1-2 go to C, threads 3-4 fall through to F; the
  // branch's RPC is G.
  LockStack s(A, 0xFF);
  s.lock_sent(A);
  s.lock_replied(0x0F, B);
  s.branch(BranchOutcome{0x03, C, F, G, G});
  // The not-taken path (3-4 at F) runs first, as on NVIDIA hardware; the L entry waits at G.
  EXPECT_EQ(dump(s), st({"100:ff:-", "100:ff:LR", "130:0f:L", "110:03:-", "128:0c:-"}));
  ASSERT_TRUE(s.unlock(G));  // threads 3-4 unlock at F and go on to G, their RPC
  // They left L and LR; their entry reached its RPC and popped (Fig. 4.3c).
  EXPECT_EQ(dump(s), st({"100:ff:-", "100:f3:LR", "130:03:L", "110:03:-"}));
  s.advance(D);
  ASSERT_TRUE(s.unlock(E));  // threads 1-2 unlock at D, then break (E) to G
  EXPECT_EQ(dump(s), st({"100:ff:-", "100:f0:LR", "130:00:L", "120:03:-"}));
  s.advance(G);
  // Their entry pops at G; the empty L entry pops and hands its PC (G) below the LR (Fig. 4.3d).
  EXPECT_EQ(dump(s), st({"130:ff:-", "100:f0:LR"}));
  EXPECT_EQ(s.pc(), A);  // threads 5-8 retry
}

TEST(LockStack, Figure44NestedLocks) {
  // Example 11: A lock 1; B lock 2; C critical section; D if {E ...; F unlock 2} else {G ...;
  // H unlock 2}; I more code; J unlock 1. Threads 1,2,3,4,7,8 take lock 1 at A; 1-4 take lock 2
  // at B; at D threads 1-2 take the if (E), 3-4 the else (G); the RPC of D is I.
  LockStack s(A, 0xFF);
  s.lock_sent(A);
  s.lock_replied(0xCF, B);  // threads 1-4, 7, 8
  s.lock_sent(B);
  s.lock_replied(0x0F, C);  // threads 1-4
  EXPECT_EQ(s.lock_counter(), 2u);
  EXPECT_EQ(dump(s), st({"100:ff:-", "100:ff:LR", "108:cf:L", "108:cf:LR", "110:0f:L"}));
  s.advance(D);
  s.branch(BranchOutcome{0x03, E, G, I, I});  // Fig. 4.4(b)
  EXPECT_EQ(dump(s), st({"100:ff:-", "100:ff:LR", "108:cf:L", "108:cf:LR", "140:0f:L", "120:03:-",
                         "130:0c:-"}));
  s.advance(H);
  ASSERT_TRUE(s.unlock(I));  // threads 3-4 release lock 2 at H: only LR 2 loses them
  EXPECT_EQ(s.unlock_counter(2), 1u);
  EXPECT_EQ(dump(s),
            st({"100:ff:-", "100:ff:LR", "108:cf:L", "108:c3:LR", "140:0f:L", "120:03:-"}));
  s.advance(F);
  ASSERT_TRUE(s.unlock(I));  // threads 1-2 at F (Fig. 4.4c, d): they reconverge at I
  EXPECT_EQ(dump(s), st({"100:ff:-", "100:ff:LR", "108:cf:L", "108:c0:LR", "140:0f:L"}));
  EXPECT_EQ(s.active(), 0x0Fu);
  EXPECT_EQ(s.pc(), I);  // the L entry runs the code at I
  s.advance(J);
  ASSERT_TRUE(s.unlock(K));            // release lock 1 at J: nesting depth 0 (Fig. 4.4e)
  EXPECT_EQ(s.unlock_counter(0), 0u);  // reset at depth 0
  // Threads 1-4 left every entry from LR 1 up; L 2 emptied and popped, handing K to L 1; now
  // threads 7-8 contend for lock 2 from LR 2.
  EXPECT_EQ(dump(s), st({"100:ff:-", "100:f0:LR", "150:c0:L", "108:c0:LR"}));
  EXPECT_EQ(s.pc(), B);
  s.lock_sent(B);
  s.lock_replied(0xC0, C);
  s.advance(D);
  s.branch(BranchOutcome{0x00, E, G, I, I});  // both take the else
  s.advance(H);
  ASSERT_TRUE(s.unlock(I));
  s.advance(J);
  ASSERT_TRUE(s.unlock(K));
  // Threads 7-8 are through too: LR 2 and L 1 popped; threads 5-6 retry lock 1 at A, and the
  // entry below continues at K once they are done.
  EXPECT_EQ(dump(s), st({"150:ff:-", "100:30:LR"}));
  EXPECT_EQ(s.lock_counter(), 1u);
  EXPECT_EQ(s.pc(), A);
  s.lock_sent(A);
  s.lock_replied(0x30, B);
  s.lock_sent(B);
  s.lock_replied(0x30, C);
  s.advance(J);  // (no branch taken: straight to the unlocks)
  ASSERT_TRUE(s.unlock(J));
  ASSERT_TRUE(s.unlock(K));
  EXPECT_EQ(dump(s), st({"150:ff:-"}));
  EXPECT_EQ(s.lock_counter(), 0u);
}

TEST(LockStack, UnlockWithoutALockIsRefused) {
  LockStack s(A, 0xFF);
  EXPECT_FALSE(s.unlock(B));
  IpdomStack plain(A, 0xFF);
  EXPECT_EQ(plain.locks(), nullptr);  // units without lock semantics have no lock hooks
  EXPECT_EQ(s.locks(), static_cast<LockHooks*>(&s));
}

// Try-locks (seed 004 sec. 9.2.2). The thesis's own case, sec. 6.5.1: threads X (lane 0) and Y
// (lane 1) both pass the availability check of the same leaf; X takes the lock. With a
// blocking lock Y would wait in the retry loop and then insert into a node that is no longer a
// leaf; with a try-lock Y fails at once and re-traverses (the alternate path).
TEST(LockStack, TryLockSingleAttemptSendsTheLoserToItsAlternatePath) {
  // A: ok = try_lock(leaf, 1); B: if (!ok) goto E; C: insert; D: unlock; E: re-traverse.
  LockStack s(A, 0x3);
  ASSERT_EQ(s.try_lock_sent(A, 1), LockHooks::kLockFirst);
  EXPECT_FALSE(s.ready());
  EXPECT_EQ(dump(s), st({"100:03:-", "100:03:TR"}));
  // X got it, Y did not: with its one attempt spent Y leaves the retry mechanism.
  EXPECT_EQ(s.try_lock_replied(0x1, B), 0x2u);
  EXPECT_TRUE(s.ready());
  EXPECT_EQ(dump(s), st({"108:03:-"}));  // both go on after the try-lock with their results
  EXPECT_EQ(s.try_held(0), 1u);
  EXPECT_EQ(s.try_held(1), 0u);
  EXPECT_EQ(s.lock_counter(), 0u);  // no lock-retry entry stays behind
  // The program branches on the result: Y to E, X into the critical section.
  s.branch(0x2, E, C, E);
  EXPECT_EQ(s.active(), 0x1u);
  EXPECT_EQ(s.pc(), C);
  s.advance(D);
  ASSERT_TRUE(s.unlock_sent());  // X releases its try-held lock: an ordinary instruction
  ASSERT_TRUE(s.unlock(E));
  EXPECT_EQ(s.try_held(0), 0u);
  EXPECT_EQ(dump(s), st({"120:03:-"}));  // reconverged at E
  EXPECT_EQ(s.counter(LockStack::kTryInsts), 1u);
  EXPECT_EQ(s.counter(LockStack::kTryRequests), 2u);
  EXPECT_EQ(s.counter(LockStack::kTryAcquired), 1u);
  EXPECT_EQ(s.counter(LockStack::kTryFailed), 1u);
  EXPECT_EQ(s.counter(LockStack::kPushes), 0u);
  // Y, having re-traversed, holds nothing: its unlock would be refused.
  s.branch(0x1, G, F, G);
  EXPECT_EQ(s.active(), 0x2u);
  EXPECT_FALSE(s.unlock_sent());
}

TEST(LockStack, TryLockRetriesUpToItsBoundOfAttempts) {
  LockStack s(A, 0xFF);
  ASSERT_EQ(s.try_lock_sent(A, 3), LockHooks::kLockFirst);
  EXPECT_EQ(s.try_lock_replied(0xF0, B), 0u);  // attempt 1: four took it, the rest retry
  EXPECT_EQ(dump(s), st({"100:ff:-", "100:0f:TR"}));
  EXPECT_EQ(s.active(), 0x0Fu);  // the holders wait below the try entry
  EXPECT_EQ(s.pc(), A);
  ASSERT_EQ(s.try_lock_sent(A, 3), LockHooks::kLockRetry);
  EXPECT_EQ(s.try_lock_replied(0x03, B), 0u);  // attempt 2
  ASSERT_EQ(s.try_lock_sent(A, 3), LockHooks::kLockRetry);
  EXPECT_EQ(s.try_lock_replied(0x00, B), 0x0Cu);  // attempt 3, the last: two fail
  EXPECT_EQ(dump(s), st({"108:ff:-"}));
  EXPECT_EQ(s.counter(LockStack::kTryInsts), 3u);
  EXPECT_EQ(s.counter(LockStack::kTryRetries), 2u);
  EXPECT_EQ(s.counter(LockStack::kTryRequests), 8u + 4u + 2u);
  EXPECT_EQ(s.counter(LockStack::kTryAcquired), 6u);
  EXPECT_EQ(s.counter(LockStack::kTryFailed), 2u);
  // Everyone acquiring ends the try-lock before its bound.
  LockStack t(A, 0xFF);
  t.try_lock_sent(A, 5);
  EXPECT_EQ(t.try_lock_replied(0xFF, B), 0u);
  EXPECT_EQ(dump(t), st({"108:ff:-"}));
}

TEST(LockStack, TryLockInsideACriticalSectionAndALockInsideATryLock) {
  // A lock X; B try_lock Y; C if (!ok) goto E; D unlock Y; E unlock X; F after.
  LockStack s(A, 0x3);
  s.lock_sent(A);
  s.lock_replied(0x3, B);
  ASSERT_EQ(s.try_lock_sent(B, 1), LockHooks::kLockFirst);
  EXPECT_EQ(dump(s), st({"100:03:-", "100:03:LR", "108:03:L", "108:03:TR"}));
  EXPECT_EQ(s.try_lock_replied(0x1, C), 0x2u);
  EXPECT_EQ(dump(s), st({"100:03:-", "100:03:LR", "110:03:L"}));
  s.branch(0x2, E, D, E);
  ASSERT_TRUE(s.unlock_sent());  // lane 0's innermost lock is the try-held Y
  ASSERT_TRUE(s.unlock(E));
  EXPECT_EQ(s.try_held(0), 0u);
  EXPECT_EQ(dump(s), st({"100:03:-", "100:03:LR", "120:03:L"}));
  ASSERT_TRUE(s.unlock_sent());  // both release X: the blocking lock's rules
  ASSERT_TRUE(s.unlock(F));
  EXPECT_EQ(dump(s), st({"128:03:-"}));
  // The other order: a try-held lock around a blocking one.
  LockStack u(A, 0x1);
  u.try_lock_sent(A, 1);
  u.try_lock_replied(0x1, B);
  u.lock_sent(B);
  u.lock_replied(0x1, C);
  ASSERT_TRUE(u.unlock_sent());  // the innermost, blocking lock
  ASSERT_TRUE(u.unlock(D));
  EXPECT_EQ(u.try_held(0), 1u);
  EXPECT_EQ(dump(u), st({"118:01:-"}));
  ASSERT_TRUE(u.unlock_sent());  // then the try-held one
  ASSERT_TRUE(u.unlock(E));
  EXPECT_EQ(u.try_held(0), 0u);
  EXPECT_EQ(dump(u), st({"120:01:-"}));
}

// A finite stack (seed 004 sec. 7.3): two hardware entries; the rest in memory.
struct Memory {
  std::vector<UnitRequest> sent;
  // Sends every request waiting in the unit's outbox; returns how many.
  unsigned drain(SpillingLockStack& s) {
    unsigned n = 0;
    UnitRequest q;
    while (s.timed()->pop_request(q)) {
      s.timed()->request_sent(q.tag);
      sent.push_back(q);
      ++n;
    }
    return n;
  }
  void answer(SpillingLockStack& s) {
    for (const UnitRequest& q : sent) {
      if (q.write) continue;
      MemoryReply r;
      r.from_unit = true;
      r.tag = q.tag;
      s.timed()->memory_reply(r);
    }
    sent.clear();
  }
};

TEST(LockStack, FiniteStackSpillsLockEntriesAndFillsThemBack) {
  // Example 9 inside a divergent branch: the branch's entries, LR and L make four entries, two
  // past a two-entry hardware stack.
  SpillingLockStack s(A, 0xFF, 2, 16);
  Memory mem;
  EXPECT_NE(s.timed(), nullptr);
  Cycle clock = 0;         // the SM's latest tick, which the unit reads between ticks
  std::uint64_t work = 0;  // the SM's mask of units to tick
  s.timed()->bind(&clock, &work, 4);
  EXPECT_FALSE(s.timed()->keeps_time());
  EXPECT_FALSE(s.state().tick);  // nothing to send: the SM does not tick the unit
  EXPECT_EQ(work, 0u);
  s.branch(0x0F, C, B, K);  // 0xF0 at B on top, 0x0F at C, the wait entry at K: 3 entries
  EXPECT_EQ(s.in_memory(), 1u);
  EXPECT_TRUE(s.state().tick);  // a spill to send: the unit sets its bit
  EXPECT_EQ(work, 4u);
  EXPECT_EQ(mem.drain(s), 1u);
  EXPECT_FALSE(s.state().tick);
  EXPECT_TRUE(mem.sent[0].write);
  EXPECT_EQ(mem.sent[0].bytes, 16u);
  EXPECT_TRUE(s.ready());  // a spill does not hold the warp
  mem.sent.clear();
  s.lock_sent(B);           // LR: 4 entries, 2 in memory
  s.lock_replied(0xF0, C);  // L: 5 entries, 3 in memory
  EXPECT_EQ(s.in_memory(), 3u);
  EXPECT_EQ(mem.drain(s), 2u);
  mem.sent.clear();
  const auto e = s.entries();
  ASSERT_EQ(e.size(), 5u);
  EXPECT_TRUE(e[2].spilled);
  EXPECT_FALSE(e[3].spilled);
  s.advance(D);
  clock = 10;
  // Unlock clears the lock-retry entry (in hardware) and hands the PC to the entry below it,
  // which is in memory: a traversal reads it back and the warp waits for it.
  ASSERT_TRUE(s.unlock_sent());
  ASSERT_TRUE(s.unlock(E));
  EXPECT_GT(mem.drain(s), 0u);
  EXPECT_FALSE(s.ready());
  EXPECT_GT(s.fills_out(), 0u);
  EXPECT_NE(s.report_note().find("filled from memory"), std::string::npos);
  mem.answer(s);
  EXPECT_TRUE(s.state().tick);  // the wait's end is noted at the next tick
  clock = 25;
  s.timed()->tick(25);
  EXPECT_FALSE(s.state().tick);
  EXPECT_TRUE(s.ready());
  // The contents are exact whatever lives where: B's entry continues at E (Fig. 4.2).
  EXPECT_EQ(s.pc(), E);
  EXPECT_EQ(s.active(), 0xF0u);
  EXPECT_GT(s.counter(LockStack::kSpills), 0u);
  EXPECT_GT(s.counter(LockStack::kFills), 0u);
  EXPECT_EQ(s.counter(LockStack::kFillStall), 15u);
  EXPECT_EQ(s.counter(LockStack::kStackBytes),
            16u * (s.counter(LockStack::kSpills) + s.counter(LockStack::kFills)));
  EXPECT_EQ(s.counter(LockStack::kMaxDepth), 5u);
  // The same steps on the unbounded stack leave the same entries.
  LockStack u(A, 0xFF);
  u.branch(0x0F, C, B, K);
  u.lock_sent(B);
  u.lock_replied(0xF0, C);
  u.advance(D);
  u.unlock_sent();
  u.unlock(E);
  EXPECT_EQ(dump(u), dump(s));
  EXPECT_EQ(u.timed(), nullptr);
}

TEST(LockStack, FiniteStackFillsTheTopWhenPopsEmptyTheHardware) {
  SpillingLockStack s(A, 0xFF, 1, 16);
  Memory mem;
  s.branch(0x0F, C, B, K);  // 3 entries, 2 in memory
  EXPECT_EQ(s.in_memory(), 2u);
  mem.drain(s);
  mem.sent.clear();
  s.advance(K);  // the top reaches K and pops: the 0x0F entry at C comes back
  EXPECT_EQ(mem.drain(s), 1u);
  EXPECT_FALSE(mem.sent[0].write);
  EXPECT_FALSE(s.ready());
  mem.answer(s);
  EXPECT_TRUE(s.ready());
  EXPECT_EQ(s.pc(), C);
  EXPECT_EQ(s.active(), 0x0Fu);
  EXPECT_EQ(s.in_memory(), 1u);
}

}  // namespace
}  // namespace simtsync::simt
