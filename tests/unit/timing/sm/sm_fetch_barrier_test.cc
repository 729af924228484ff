// SM fetch-stage and barrier tests: I-cache misses delay issue, no fetch past an unresolved
// branch, bar.sync holds the warps of a CTA until all arrive.
#include <gtest/gtest.h>

#include "sm_test_util.h"

namespace simtsync::sm {
namespace {

using testing::small_params;
using testing::SmRig;

std::string movs(int n) {
  std::string s;
  for (int i = 0; i < n; ++i)
    s += "  mov.u32 %r" + std::to_string(i % 30 + 1) + ", " + std::to_string(i) + ";\n";
  return s + "  ret;\n";
}

TEST(SmFetch, AnICacheMissDelaysTheFirstIssueByTheMissLatency) {
  for (unsigned miss : {1u, 10u, 50u}) {
    SmParams p = small_params();
    p.icache_miss_latency = miss;
    p.icache_hit_latency = 1;
    SmRig rig(movs(4), p);
    ASSERT_TRUE(rig.run());
    ASSERT_FALSE(rig.issues.empty());
    EXPECT_EQ(rig.issues[0].at, miss + 1) << miss;  // fill, then the hit latency
    EXPECT_EQ(rig.sm.icache_stats().misses, 1u);
    EXPECT_GE(rig.stall(StallKind::kFetch), miss);
    EXPECT_EQ(rig.classified_cycles(), rig.ticks_live);
  }
}

TEST(SmFetch, CrossingIntoANewLineMissesAgain) {
  SmParams p = small_params();
  p.icache_miss_latency = 30;
  p.icache_line = 128;  // 16 instructions of 8 bytes
  SmRig rig(movs(40), p);
  ASSERT_TRUE(rig.run());
  const auto& is = rig.issues;
  ASSERT_EQ(is.size(), 41u);
  unsigned crossings = 0;
  for (size_t i = 1; i < is.size(); ++i) {
    const Cycle gap = is[i].at - is[i - 1].at;
    if (is[i].pc / 128 != is[i - 1].pc / 128) {
      ++crossings;
      EXPECT_GE(gap, 30u - p.ibuffer_slots) << i;
      EXPECT_LE(gap, 30u + 1) << i;
    } else if (is[i].pc / 128 == is[i - 1].pc / 128 && is[i].pc % 128 >= 8 * p.ibuffer_slots) {
      EXPECT_EQ(gap, 1u) << i;  // well inside a line: one per cycle
    }
  }
  EXPECT_GE(crossings, 2u);
  EXPECT_EQ(rig.sm.icache_stats().misses, crossings + 1);
}

TEST(SmFetch, NoFetchPastABranchUntilItIssues) {
  SmParams p = small_params();
  p.ibuffer_slots = 8;
  p.latency[static_cast<int>(OpClass::kInt)] = 8;  // the branch waits on its guard
  SmRig rig(R"(
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 1000;
  @%p1 bra SKIP;
  mov.u32 %r2, 1;
  mov.u32 %r3, 2;
SKIP:
  mov.u32 %r4, 3;
  ret;
)",
            p);
  unsigned bra_buffered = 0;
  while (rig.sm.take_completed().empty() && rig.now < 1000) {
    rig.tick();
    const WarpSlot& ws = rig.sm.slots()[0];
    if (!ws.warp) break;
    for (unsigned i = 0; i < ws.ib_count; ++i) {
      if (ptx::opcode_unit(ws.ib[i].inst->op) != ptx::UnitClass::kCtrl) continue;
      EXPECT_EQ(i + 1, ws.ib_count) << "fetched past a branch at cycle " << rig.now - 1;
      EXPECT_TRUE(ws.fetch_stop);
      if (ws.ib[i].inst->op == ptx::Opcode::kBra) ++bra_buffered;
    }
  }
  EXPECT_GE(bra_buffered, 5u);  // it sat in the buffer while setp was in flight
  std::vector<ptx::Opcode> ops;
  for (const auto& i : rig.issues) ops.push_back(i.op);
  using ptx::Opcode;
  EXPECT_EQ(ops, (std::vector<Opcode>{Opcode::kMov, Opcode::kSetp, Opcode::kBra, Opcode::kMov,
                                      Opcode::kMov, Opcode::kMov, Opcode::kRet}));
  EXPECT_EQ(rig.classified_cycles(), rig.ticks_live);
}

// sm.fetch_decode: one fetch fills up to that many consecutive instructions into the warp's
// free I-buffer entries (GPGPU-Sim 3.x decodes two); a control instruction ends the group.
TEST(SmFetch, DecodeFillsSeveralEntriesPerFetch) {
  const char* code = R"(
  mov.u32 %r1, 1;
  mov.u32 %r2, 2;
  mov.u32 %r3, 3;
  mov.u32 %r4, 4;
  ret;
)";
  SmParams one = small_params();
  one.ibuffer_slots = 2;
  one.num_schedulers = 2;
  SmParams two = one;
  two.fetch_decode = 2;
  // Two warps, two schedulers, one warp fetched per cycle: one instruction per fetch cannot
  // keep both schedulers busy; two can.
  SmRig a(code, one, 64), b(code, two, 64);
  ASSERT_TRUE(a.run());
  ASSERT_TRUE(b.run());
  ASSERT_EQ(a.issues.size(), 10u);
  ASSERT_EQ(b.issues.size(), 10u);
  EXPECT_EQ(a.sm.stats().ibuffer_fills, 10u);  // the same instructions either way
  EXPECT_EQ(b.sm.stats().ibuffer_fills, 10u);
  EXPECT_LT(b.issues.back().at, a.issues.back().at);
}

// sm.fetch_empty_only: a warp is fetched for only when its I-buffer is empty (seed 002 sec.
// 2.2, GPGPU-Sim 3.x). One warp with one instruction per fetch then waits a hit latency for
// every instruction; with two per fetch (the GPGPU-Sim pairing) it is fed again.
TEST(SmFetch, EmptyOnlyFetchesWhenTheIBufferIsEmpty) {
  const char* code = R"(
  mov.u32 %r1, 1;
  mov.u32 %r2, 2;
  mov.u32 %r3, 3;
  mov.u32 %r4, 4;
  mov.u32 %r5, 5;
  mov.u32 %r6, 6;
  ret;
)";
  SmParams base = small_params();
  base.ibuffer_slots = 2;
  base.icache_hit_latency = 3;
  SmParams empty = base;
  empty.fetch_empty_only = true;
  SmParams pair = empty;
  pair.fetch_decode = 2;
  SmRig a(code, base), b(code, empty), c(code, pair);
  ASSERT_TRUE(a.run());
  ASSERT_TRUE(b.run());
  ASSERT_TRUE(c.run());
  ASSERT_EQ(b.issues.size(), 7u);
  // Empty-only, one per fetch: every instruction is fetched after the previous one issued.
  for (size_t k = 1; k < b.issues.size(); ++k)
    EXPECT_GE(b.issues[k].at - b.issues[k - 1].at, 3u) << k;
  EXPECT_GT(b.issues.back().at, a.issues.back().at);
  EXPECT_LT(c.issues.back().at, b.issues.back().at);
  EXPECT_EQ(c.sm.stats().ibuffer_fills, 7u);
}

// A taken branch over two instructions (the two tests below).
constexpr const char* kTakenBranchSkip = R"(
  mov.u32 %r1, 1;
  bra.uni SKIP;
  mov.u32 %r2, 1;
  mov.u32 %r3, 2;
SKIP:
  mov.u32 %r4, 3;
  ret;
)";

// sm.fetch_past_control (GPGPU-Sim 3.x): decode goes on past the branch and fetch goes on down
// the fall-through path; the taken branch leaves wrong-path entries that the issue stage drops
// when it next looks at the warp, and only then does fetch restart at the target. The same
// instructions issue, later, and the wrong-path ones were fetched.
TEST(SmFetch, PastControlFetchesTheWrongPathUntilTheWarpIsVisited) {
  const char* code = kTakenBranchSkip;
  SmParams base = small_params();
  base.icache_hit_latency = 2;
  base.ibuffer_slots = 2;
  base.fetch_decode = 2;
  base.fetch_empty_only = true;
  SmParams past = base;
  past.fetch_past_control = true;
  SmRig a(code, base), b(code, past);
  ASSERT_TRUE(a.run());
  ASSERT_TRUE(b.run());
  ASSERT_EQ(a.issues.size(), 4u);
  ASSERT_EQ(b.issues.size(), 4u);
  for (size_t k = 0; k < 4; ++k) EXPECT_EQ(a.issues[k].pc, b.issues[k].pc) << k;
  EXPECT_GT(b.sm.stats().ibuffer_fills, a.sm.stats().ibuffer_fills);  // wrong-path entries
  EXPECT_GT(b.sm.stats().ibuffer_flushes, 0u);
  EXPECT_GT(b.issues[2].at - b.issues[1].at, a.issues[2].at - a.issues[1].at);
  EXPECT_EQ(b.classified_cycles(), b.ticks_live);
}

TEST(SmFetch, ATakenBranchRefetchesFromItsTarget) {
  SmParams p = small_params();
  p.icache_hit_latency = 3;
  SmRig rig(kTakenBranchSkip, p);
  ASSERT_TRUE(rig.run());
  ASSERT_EQ(rig.issues.size(), 4u);  // mov, bra, mov %r4, ret
  EXPECT_EQ(rig.issues[1].op, ptx::Opcode::kBra);
  EXPECT_EQ(rig.issues[2].pc, rig.issues[1].pc + 3 * kInstSize);
  // Nothing was buffered behind the branch, so the target arrives a hit latency later.
  EXPECT_EQ(rig.issues[2].at - rig.issues[1].at, 3u);
  EXPECT_EQ(rig.sm.stats().ibuffer_fills, 4u);
}

const char* kBarrierKernel = R"(
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 32;
  @!%p1 bra JOIN;
  add.u32 %r2, %r1, 1;
  add.u32 %r2, %r2, 1;
  add.u32 %r2, %r2, 1;
  add.u32 %r2, %r2, 1;
  add.u32 %r2, %r2, 1;
  add.u32 %r2, %r2, 1;
  add.u32 %r2, %r2, 1;
  add.u32 %r2, %r2, 1;
JOIN:
  bar.sync 0;
  add.u32 %r3, %r1, 5;
  ret;
)";

TEST(SmBarrier, WarpsWaitAtBarSyncUntilAllArrive) {
  SmParams p = small_params();
  p.num_schedulers = 2;  // warp 0 on scheduler 0, warp 1 on scheduler 1
  SmRig rig(kBarrierKernel, p, /*threads=*/64);
  ASSERT_TRUE(rig.run());
  auto bars = rig.of_op(ptx::Opcode::kBar);
  ASSERT_EQ(bars.size(), 2u);
  EXPECT_EQ(bars[0].warp, 1);  // the short path arrives first
  EXPECT_EQ(bars[1].warp, 0);
  EXPECT_GT(bars[1].at - bars[0].at, 25u);  // 8 dependent adds
  const Pc after = bars[0].pc + kInstSize;
  for (int w : {0, 1}) {
    bool found = false;
    for (const auto& i : rig.of_warp(w)) {
      if (i.pc != after) continue;
      found = true;
      // Not before the last arrival. (A warp of a later scheduler may go in the very cycle
      // the last warp arrives: schedulers are visited in order within a cycle.)
      EXPECT_GE(i.at, bars[1].at) << "warp " << w << " passed the barrier early";
    }
    EXPECT_TRUE(found) << w;
  }
  // Scheduler 1 had only warp 1, waiting at the barrier all that time.
  EXPECT_GE(rig.stall(StallKind::kBarrier, 1), bars[1].at - bars[0].at - 1);
  EXPECT_EQ(rig.stall(StallKind::kBarrier, 0), 0u);
  EXPECT_EQ(rig.classified_cycles(), rig.ticks_live * 2);
}

TEST(SmBarrier, AWarpAtTheBarrierDoesNotTakeIssueSlots) {
  SmParams p = small_params();  // one scheduler for both warps
  SmRig rig(kBarrierKernel, p, 64);
  ASSERT_TRUE(rig.run());
  auto bars = rig.of_op(ptx::Opcode::kBar);
  ASSERT_EQ(bars.size(), 2u);
  // While warp 1 waits, every issue slot belongs to warp 0; its stalls are data stalls (the
  // more advanced reason), not barrier stalls.
  for (const auto& i : rig.issues) {
    if (i.at > bars[0].at && i.at < bars[1].at) {
      EXPECT_EQ(i.warp, 0);
    }
  }
  EXPECT_EQ(rig.stall(StallKind::kBarrier), 0u);
  EXPECT_GT(rig.stall(StallKind::kData), 20u);
  EXPECT_EQ(rig.classified_cycles(), rig.ticks_live);
}

}  // namespace
}  // namespace simtsync::sm
