// The lock-retry instruction counts of stats.sync_status (seed 000 Fig. 16b's "ideal block
// instruction count": instructions if every lock were acquired on its first attempt), first on
// a hand-written event sequence whose answer is counted by hand, then on ht's contended lock
// loop, where every failed attempt of a lane must cost at least its next attempt.
#include <gtest/gtest.h>

#include <vector>

#include "config/config.h"
#include "config/schema.h"
#include "func/executor.h"
#include "func/program.h"
#include "gpu/ht_run.h"
#include "timing/gpu/sync_status.h"

namespace simtsync::gpu {
namespace {

struct Feed {
  SyncStatus s{1};
  func::ExecInst attempt, other;
  func::MemAccess acc{};
  Feed() {
    attempt.op = ptx::Opcode::kAtom;
    attempt.a.op = ptx::Mod::kCasOp;
    attempt.sync_role = func::SyncRole::kLockAttempt;
    for (unsigned l = 0; l < 64; ++l) {
      acc.addr[l] = 0x1000 + 4 * l;  // a lock word per lane
      acc.space[l] = static_cast<std::uint8_t>(ptx::Space::kGlobal);
    }
  }
  void issue(const func::ExecInst& in, LaneMask active, int slot = 0) {
    sm::IssueEvent e;
    e.slot = slot;
    e.inst = &in;
    e.active = active;
    s.observer(0)->on_issue(e);
  }
  void reply(LaneMask lanes, LaneMask succeeded, int slot = 0) {
    sm::MemoryEvent e;
    e.slot = slot;
    e.inst = &attempt;
    e.lanes = lanes;
    e.succeeded = succeeded;
    e.access = &acc;
    s.observer(0)->on_memory(e);
  }
  const SyncCounts& c() { return s.counts(0); }
};

TEST(LockRetry, CountsFromEachFailedAttemptToTheNextAttemptOfTheSameLanes) {
  Feed f;
  f.issue(f.attempt, 0b11);  // both lanes try
  f.issue(f.other, 0b11);    // issued before the answer: pending
  f.reply(0b11, 0b01);       // lane 0 takes its lock, lane 1 fails: its pending instruction
  EXPECT_EQ(f.c().lock_retry_thread_insts, 1u);
  EXPECT_EQ(f.c().lock_retry_warp_insts, 0u);          // the warp's pass took a lock
  for (int i = 0; i < 3; ++i) f.issue(f.other, 0b01);  // lane 0's critical section: useful
  EXPECT_EQ(f.c().lock_retry_thread_insts, 1u);
  f.issue(f.other, 0b10);
  f.issue(f.other, 0b10);    // lane 1 goes round the loop
  f.issue(f.attempt, 0b10);  // and tries again: the attempt is part of the retry
  EXPECT_EQ(f.c().lock_retry_thread_insts, 4u);
  EXPECT_EQ(f.c().lock_retry_warp_insts, 0u);
  f.reply(0b10, 0);  // fails again: now the whole warp's pass took nothing
  f.issue(f.other, 0b10);
  f.issue(f.other, 0b10);
  f.issue(f.attempt, 0b10);
  EXPECT_EQ(f.c().lock_retry_thread_insts, 7u);
  EXPECT_EQ(f.c().lock_retry_warp_insts, 3u);
  f.reply(0b10, 0b10);  // taken: nothing more is a retry
  f.issue(f.other, 0b11);
  EXPECT_EQ(f.c().lock_retry_thread_insts, 7u);
  EXPECT_EQ(f.c().lock_retry_warp_insts, 3u);
  EXPECT_EQ(f.c().lock_success, 2u);
  EXPECT_EQ(f.c().lock_fail_inter_warp, 2u);
}

TEST(LockRetry, AWarpThatExitsLeavesNothingToTheNextWarpInItsSlot) {
  Feed f;
  f.issue(f.attempt, 0b1);
  f.reply(0b1, 0);
  f.issue(f.other, 0b1);
  EXPECT_EQ(f.c().lock_retry_thread_insts, 1u);
  sm::WarpExitEvent x;
  x.slot = 0;
  f.s.observer(0)->on_warp_exit(x);
  f.issue(f.other, 0b1);  // a new warp in slot 0
  EXPECT_EQ(f.c().lock_retry_thread_insts, 1u);
  EXPECT_EQ(f.c().lock_retry_warp_insts, 1u);
}

TEST(LockRetry, SlotsAreSeparate) {
  Feed f;
  f.issue(f.attempt, 0b1, 0);
  f.issue(f.attempt, 0b1, 1);
  f.reply(0b1, 0, 0);
  f.reply(0b1, 0b1, 1);
  f.issue(f.other, 0b1, 1);
  EXPECT_EQ(f.c().lock_retry_thread_insts, 0u);
  f.issue(f.other, 0b1, 0);
  EXPECT_EQ(f.c().lock_retry_thread_insts, 1u);
}

// Seed 001 Table 1's "Lock Bit Used": distinct lock bits (word offset modulo the SM's lock
// bits) of shared-memory atomics (implicit) and lock-bit operations (explicit).
TEST(LockBitsUsed, DistinctBitsOfSharedAtomicsAndLockBitOperations) {
  SyncStatus s(2, 1024);
  func::ExecInst atom, global_atom, ldslk;
  atom.op = global_atom.op = ptx::Opcode::kAtom;
  ldslk.op = ptx::Opcode::kLd;
  ldslk.lock_op = func::IntrinsicOp::kLoadLock;
  func::MemAccess shared{}, global{};
  const Addr words[4] = {0, 4, 4096, 8};  // 4096 bytes = word 1024: lock bit 0 again
  for (unsigned l = 0; l < 4; ++l) {
    shared.addr[l] = global.addr[l] = words[l];
    shared.space[l] = static_cast<std::uint8_t>(ptx::Space::kShared);
    global.space[l] = static_cast<std::uint8_t>(ptx::Space::kGlobal);
  }
  auto mem = [&](int sm, const func::ExecInst& in, const func::MemAccess& a, LaneMask lanes) {
    sm::MemoryEvent e;
    e.inst = &in;
    e.access = &a;
    e.lanes = e.succeeded = lanes;
    s.observer(sm)->on_memory(e);
  };
  mem(0, atom, shared, 0b1111);
  EXPECT_EQ(s.counts(0).lock_bits_implicit, 3u);
  mem(0, atom, shared, 0b0011);         // the same bits again
  mem(0, global_atom, global, 0b1111);  // global atomics use no lock bit
  EXPECT_EQ(s.counts(0).lock_bits_implicit, 3u);
  EXPECT_EQ(s.counts(0).lock_bits_explicit, 0u);
  mem(0, ldslk, shared, 0b0110);
  EXPECT_EQ(s.counts(0).lock_bits_explicit, 2u);
  EXPECT_EQ(s.counts(1).lock_bits_implicit + s.counts(1).lock_bits_explicit, 0u);
}

// ht's lock loop on the tiny config: every failed lane attempt is followed by that lane's next
// attempt (ht retries until it inserts), which counts; the warp count cannot exceed the warps'.
TEST(LockRetry, HtEveryFailedAttemptCostsAtLeastItsRetry) {
  for (unsigned buckets : {4u, 4096u}) {
    GpuParams p = gpu_params_from(config::Config::load(config::gpu_schema(), "tiny", {}));
    p.registers_per_thread = 16;
    p.track_sync_status = true;
    const ht_fixture::HtRun r = ht_fixture::run_ht(p, 4, 64, buckets);
    ASSERT_TRUE(r.result.completed) << r.result.watchdog_report;
    SyncCounts c;
    std::uint64_t warp_insts = 0, thread_insts = 0;
    for (const auto& s : r.totals.sync) {
      c.lock_fail_inter_warp += s.lock_fail_inter_warp;
      c.lock_fail_intra_warp += s.lock_fail_intra_warp;
      c.lock_retry_thread_insts += s.lock_retry_thread_insts;
      c.lock_retry_warp_insts += s.lock_retry_warp_insts;
    }
    for (const auto& s : r.totals.sm)
      warp_insts += s.warp_instructions, thread_insts += s.thread_instructions;
    const std::uint64_t fails = c.lock_fail_inter_warp + c.lock_fail_intra_warp;
    SCOPED_TRACE(buckets);
    if (buckets == 4) {
      EXPECT_GT(fails, 0u);
    }
    // ht's loop body between two attempts is several instructions: at least 3 per failure.
    EXPECT_GE(c.lock_retry_thread_insts, 3 * fails);
    EXPECT_LT(c.lock_retry_thread_insts, thread_insts);
    EXPECT_LE(c.lock_retry_warp_insts, warp_insts);
    if (fails == 0) {
      EXPECT_EQ(c.lock_retry_thread_insts, 0u);
    }
  }
}

// The ideal count (thread instructions minus lock-retry instructions) is what every thread
// executes when each lock is taken at once, so it cannot depend on contention or on the
// scheduler: equal for 4 and 4096 buckets under LRR and GTO (ht_contention_ideal shows the
// same on gtx480: 1,098,240 at every bucket count under LRR and BOWS).
TEST(LockRetry, HtIdealCountIsTheSameUnderEveryContentionAndScheduler) {
  std::vector<std::uint64_t> ideal;
  for (const char* sched : {"lrr", "gto"}) {
    for (unsigned buckets : {4u, 4096u}) {
      GpuParams p = gpu_params_from(
          config::Config::load(config::gpu_schema(), "tiny", {{"sm.warp_scheduler.impl", sched}}));
      p.registers_per_thread = 16;
      p.track_sync_status = true;
      const ht_fixture::HtRun r = ht_fixture::run_ht(p, 4, 64, buckets);
      ASSERT_TRUE(r.result.completed) << r.result.watchdog_report;
      std::uint64_t threads = 0, retry = 0;
      for (const auto& s : r.totals.sm) threads += s.thread_instructions;
      for (const auto& s : r.totals.sync) retry += s.lock_retry_thread_insts;
      ideal.push_back(threads - retry);
    }
  }
  for (std::uint64_t v : ideal) EXPECT_EQ(v, ideal[0]);
}

}  // namespace
}  // namespace simtsync::gpu
