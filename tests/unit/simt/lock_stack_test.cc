// The lock stack of seed 004 ch. 4, step by step on the examples of its Figures 4.1-4.4 (8
// threads; thread k is lane k-1; PCs are the examples' letters).
#include "simt/impl/lock_stack.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

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

}  // namespace
}  // namespace simtsync::simt
