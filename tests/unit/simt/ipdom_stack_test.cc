// The IPDOM reconvergence stack driven directly, with PCs as numbers, reproducing the seeds'
// examples: seed 003 Fig. 2a (if/else) and 2b (loop with one exiting thread), seed 004
// Example 2 (call entries keep recursion levels apart) and Example 4 (spin-lock deadlock).
#include "simt/impl/ipdom_stack.h"

#include <gtest/gtest.h>

#include <array>

#include "test_pcs.h"

namespace simtsync::simt {
namespace {

using test_pcs::P;

// Seed 003 Fig. 2a: A ends with a divergent if/else branch; B and C rejoin at D.
// Layout: A = 0..2 (branch at 2), B = 3..4 (bra D at 4), C = 5..6, D = 7.
TEST(IpdomStack, Seed003Fig2aIfElse) {
  IpdomStack s(P(0), 0b1111);
  s.advance(P(1));
  s.advance(P(2));
  EXPECT_EQ(s.depth(), 1u);
  // Threads 0,1 take the branch to C; 2,3 fall through to B.
  s.branch(0b0011, P(5), P(3), P(7));
  auto e = s.entries();
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[0].pc, P(7));  // the first entry now waits at the RPC (D)
  EXPECT_EQ(e[0].mask, 0b1111u);
  EXPECT_EQ(e[1].pc, P(5));  // taken path
  EXPECT_EQ(e[1].rpc, P(7));
  EXPECT_EQ(e[1].mask, 0b0011u);
  EXPECT_EQ(e[2].pc, P(3));  // not-taken path on top: runs first
  EXPECT_EQ(e[2].rpc, P(7));
  EXPECT_EQ(e[2].mask, 0b1100u);
  // Only the top of stack runs.
  EXPECT_EQ(s.pc(), P(3));
  EXPECT_EQ(s.active(), 0b1100u);
  s.advance(P(4));
  s.branch(0b1100, P(7), P(5), P(7));  // bra D (uniform for the active threads)
  // Reaching D pops that entry; the taken path runs next.
  EXPECT_EQ(s.depth(), 2u);
  EXPECT_EQ(s.pc(), P(5));
  EXPECT_EQ(s.active(), 0b0011u);
  s.advance(P(6));
  s.advance(P(7));
  // Reconverged at D with the full mask.
  EXPECT_EQ(s.depth(), 1u);
  EXPECT_EQ(s.pc(), P(7));
  EXPECT_EQ(s.active(), 0b1111u);
  EXPECT_FALSE(s.finished());
}

// Seed 003 Fig. 2b: a loop B (1..2, backward branch at 2) exits to C (3). One thread leaves
// after the first iteration; the others iterate until all have left.
TEST(IpdomStack, Seed003Fig2bLoop) {
  IpdomStack s(P(0), 0b1111);
  s.advance(P(1));
  s.advance(P(2));
  // Thread 3 exits the loop; 0..2 go back to the header.
  s.branch(0b0111, P(1), P(3), P(3));
  auto e = s.entries();
  ASSERT_EQ(e.size(), 2u) << "only the loop-header entry is pushed";
  EXPECT_EQ(e[0].pc, P(3));
  EXPECT_EQ(e[0].mask, 0b1111u);
  EXPECT_EQ(e[1].pc, P(1));
  EXPECT_EQ(e[1].rpc, P(3));
  EXPECT_EQ(e[1].mask, 0b0111u);
  // Threads leave one per iteration; the warp keeps iterating with the rest.
  LaneMask stay = 0b0111;
  int iterations = 1;
  while (stay != 0) {
    ASSERT_EQ(s.pc(), P(1));
    ASSERT_EQ(s.active(), stay);
    s.advance(P(2));
    stay &= stay - 1;  // the lowest remaining thread leaves
    s.branch(stay, P(1), P(3), P(3));
    ++iterations;
  }
  EXPECT_EQ(iterations, 4);
  EXPECT_EQ(s.depth(), 1u);
  EXPECT_EQ(s.pc(), P(3));
  EXPECT_EQ(s.active(), 0b1111u);
}

// Seed 004 Example 2: RecursiveFunction at F = 16: A (16) x=x+1; B (17) branch: threads with
// id > 4 (lanes 4..7, ids = lane + 1) go to C (18) on the first level only; C calls F and
// returns to D (19); D (19) x=x+1; E (20) ret. The kernel calls F at 0 and resumes at 1.
// Call entries must keep the recursing threads apart: they execute D inside the inner call
// and again after returning, giving X = 4; the others run D once (X = 2).
TEST(IpdomStack, Seed004Example2CallEntries) {
  constexpr LaneMask kAll = 0xff, kBig = 0xf0;
  const Pc kF = P(16), kB = P(17), kC = P(18), kD = P(19), kE = P(20);
  IpdomStack s(P(0), kAll);
  std::array<int, 8> x{};  // the per-thread value of X, as the function computes it
  std::array<int, 8> level{};
  std::array<std::array<int, 8>, 4> saved{};  // x per recursion level (call frames)

  auto run_a = [&] {
    for (unsigned l = 0; l < 8; ++l)
      if (s.active() >> l & 1) x[l] += 1;
  };
  s.call(kF, P(1));
  EXPECT_EQ(s.call_mask(), kAll);
  ASSERT_EQ(s.pc(), kF);
  run_a();
  s.advance(kB);
  // B: x == 1 && id > 4.
  LaneMask taken = 0;
  for (unsigned l = 0; l < 8; ++l)
    if ((s.active() >> l & 1) && x[l] == 1 && l + 1 > 4) taken |= LaneMask{1} << l;
  EXPECT_EQ(taken, kBig);
  s.branch(taken, kC, kD, kD);
  ASSERT_EQ(s.pc(), kC);
  ASSERT_EQ(s.active(), kBig);
  // C: the recursive call pushes a call entry with the same mask.
  for (unsigned l = 4; l < 8; ++l) saved[level[l]][l] = x[l], ++level[l];
  s.call(kF, kD);
  {
    auto e = s.entries();
    ASSERT_GE(e.size(), 2u);
    EXPECT_TRUE(e.back().call);
    EXPECT_EQ(e.back().mask, kBig);
    EXPECT_EQ(e.back().pc, kF);
    EXPECT_EQ(e[e.size() - 2].pc, kD) << "the entry below the call entry resumes at the return PC";
  }
  EXPECT_EQ(s.call_mask(), kBig);
  run_a();  // x = 2 for lanes 4..7 (a fresh frame starting from the argument x = 1)
  s.advance(kB);
  s.branch(0, kC, kD, kD);  // x == 2: nobody takes the branch
  // Without the call entry the stack would pop here and mix levels. It must not.
  ASSERT_EQ(s.pc(), kD);
  ASSERT_EQ(s.active(), kBig) << "recursing threads must run D inside the inner call alone";
  for (unsigned l = 0; l < 8; ++l)
    if (s.active() >> l & 1) x[l] += 1;  // D
  s.advance(kE);
  EXPECT_TRUE(s.ret()) << "the inner call has returned";
  for (unsigned l = 4; l < 8; ++l) --level[l];  // return value x flows into the caller's x
  // Back in the outer call: everybody reconverges at D.
  ASSERT_EQ(s.pc(), kD);
  ASSERT_EQ(s.active(), kAll);
  EXPECT_EQ(s.call_mask(), kAll);
  for (unsigned l = 0; l < 8; ++l) x[l] += 1;  // D
  s.advance(kE);
  EXPECT_TRUE(s.ret());
  EXPECT_EQ(s.pc(), P(1));
  EXPECT_EQ(s.active(), kAll);
  EXPECT_EQ(s.call_mask(), 0u);
  for (unsigned l = 0; l < 8; ++l) EXPECT_EQ(x[l], l + 1 > 4 ? 4 : 2) << "lane " << l;
}

// Seed 004 Example 4: A (0) atom.CAS, B (1) compare, C (2) branch back to A while the lock was
// not acquired, D (3) critical section, E (4) release. Threads 5..8 (lanes 4..7) acquire; the
// others contend for the same locks and keep failing.
TEST(IpdomStack, Seed004Example4SpinLockDeadlock) {
  constexpr LaneMask kAll = 0xff, kWon = 0xf0, kSpin = 0x0f;
  IpdomStack s(P(0), kAll);
  s.advance(P(1));
  s.advance(P(2));
  s.branch(kSpin, P(0), P(3), P(3));
  // The winners' NPC (D) equals the RPC: no entry is pushed for them.
  auto e = s.entries();
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].pc, P(3));
  EXPECT_EQ(e[0].mask, kAll);
  EXPECT_EQ(e[1].pc, P(0));
  EXPECT_EQ(e[1].mask, kSpin);
  // The losers spin; the winners wait at D and never release the locks.
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(s.pc(), P(0));
    ASSERT_EQ(s.active(), kSpin);
    s.advance(P(1));
    s.advance(P(2));
    s.branch(kSpin, P(0), P(3), P(3));  // the CAS keeps failing: locks held by lanes 4..7
    ASSERT_EQ(s.depth(), 2u);
  }
  EXPECT_FALSE(s.finished());
  EXPECT_EQ(s.active() & kWon, 0u) << "the lock holders never run";
}

// Known deviation (reported): a divergent branch whose RPC equals the top entry's RPC (the
// loop's second and later divergent iterations) turns the top into a stale wait entry and
// pushes a new one, so the stack grows by one entry per divergent iteration. Seed 003
// Fig. 2b and GPGPU-Sim reuse the top entry: the depth stays 2 while the warp iterates.
TEST(IpdomStack, LoopDivergenceKeepsDepthTwo) {
  IpdomStack s(P(0), 0xffffffff);
  LaneMask stay = 0xffffffff;
  while (stay != 0) {
    s.advance(P(1));
    s.advance(P(2));
    stay &= stay - 1;
    s.branch(stay, P(1), P(3), P(3));
    ASSERT_LE(s.depth(), 2u);
  }
  EXPECT_EQ(s.depth(), 1u);
}

TEST(IpdomStack, NestedBranchesAndExit) {
  // if (a) { if (b) X else Y } Z: outer branch at 0 -> 1 (then) / 6 (Z); inner at 1 -> 2 (X),
  // 4 (Y); both rejoin at 5, which falls into Z at 6.
  IpdomStack s(P(0), 0xf);
  s.branch(0b0111, P(1), P(6), P(6));
  EXPECT_EQ(s.active(), 0b0111u);
  s.branch(0b0001, P(2), P(4), P(5));
  EXPECT_EQ(s.pc(), P(4));
  EXPECT_EQ(s.active(), 0b0110u);
  EXPECT_EQ(s.depth(), 4u);
  s.exit(0b0010);  // lane 1 exits inside Y
  EXPECT_EQ(s.active(), 0b0100u);
  s.advance(P(5));
  EXPECT_EQ(s.pc(), P(2));
  EXPECT_EQ(s.active(), 0b0001u);
  s.advance(P(3));
  s.advance(P(5));
  EXPECT_EQ(s.pc(), P(5));
  EXPECT_EQ(s.active(), 0b0101u);
  s.advance(P(6));
  EXPECT_EQ(s.depth(), 1u);
  EXPECT_EQ(s.active(), 0b1101u);
  s.exit(0b1101);
  EXPECT_TRUE(s.finished());
}

TEST(IpdomStack, UniformBranchesPushNothing) {
  IpdomStack s(P(0), 0xff);
  s.branch(0xff, P(10), P(1), P(20));
  EXPECT_EQ(s.depth(), 1u);
  EXPECT_EQ(s.pc(), P(10));
  s.branch(0, P(3), P(11), P(20));
  EXPECT_EQ(s.depth(), 1u);
  EXPECT_EQ(s.pc(), P(11));
  EXPECT_EQ(s.name(), "ipdom_stack");
}

TEST(IpdomStack, DivergentReturnWaitsForTheWholeCall) {
  // A function at 10 with a divergent early return: lanes 0..1 return at 11, the others at 13.
  IpdomStack s(P(0), 0xf);
  s.call(P(10), P(1));
  s.branch(0b0011, P(11), P(12), kExitPc);
  EXPECT_EQ(s.pc(), P(12));
  s.advance(P(13));
  EXPECT_FALSE(s.ret()) << "lanes 0..1 have not returned yet";
  EXPECT_EQ(s.pc(), P(11));
  EXPECT_EQ(s.active(), 0b0011u);
  EXPECT_TRUE(s.ret());
  EXPECT_EQ(s.pc(), P(1));
  EXPECT_EQ(s.active(), 0xfu);
}

}  // namespace
}  // namespace simtsync::simt
