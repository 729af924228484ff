// Shared-memory atomics as Fermi executes them (sm.shared.atomics = lock_loop, seed 001
// Listing 1): a retry loop of LDSLK / modify / STSUL / branch micro-operations, one round per
// group of lanes whose words share a lock bit, each micro-operation an issue slot.
#include <gtest/gtest.h>

#include <string>

#include "sm_test_util.h"

namespace simtsync::sm::testing {
namespace {

const char* kDecls = ".shared .align 4 .b32 words[64];\n";

// Every thread adds 1 to words[tid % distinct] (a word per lane when distinct = 32), then thread
// 0 checks the sum of word 0 (traps when it is wrong).
std::string add_body(unsigned distinct, const char* op = "add.u32", const char* extra = "1",
                     unsigned threads = 32) {
  return "  mov.u32 %r1, %tid.x;\n  rem.u32 %r2, %r1, " + std::to_string(distinct) +
         ";\n  shl.b32 %r3, %r2, 2;\n  mov.u32 %r4, words;\n  add.u32 %r5, %r4, %r3;\n"
         "  atom.shared." +
         std::string(op) + " %r6, [%r5], " + extra + ";\n" +
         "  bar.sync 0;\n  ld.shared.u32 %r7, [words];\n  setp.ne.u32 %p1, %r1, 0;\n"
         "  @%p1 bra $END;\n  setp.ne.u32 %p2, %r7, " +
         std::to_string(threads / distinct) + ";\n  @%p2 trap;\n$END:\n  ret;\n";
}

SmParams loop_params(bool lock_loop) {
  SmParams p = small_params();
  p.shared_lock_loop = lock_loop;
  return p;
}

TEST(SmAtomicLoop, OneRoundIsFourMicroOperations) {
  SmRig rig(add_body(32), loop_params(true), 32, kDecls);
  ASSERT_TRUE(rig.run());
  EXPECT_EQ(rig.sm.stats().atomic_rounds, 1u);
  EXPECT_EQ(rig.sm.stats().atomic_uops, 4u);  // LDSLK, IADD, STSUL, BRA
  EXPECT_EQ(rig.sm.shared_stats().lock_attempts, 1u);
  EXPECT_EQ(rig.sm.shared_stats().atomics, 1u);
  // The atomic counts once as a warp instruction; its other three micro-operations take issue
  // slots too.
  EXPECT_EQ(rig.stall(StallKind::kIssued), rig.sm.stats().warp_instructions + 3);
}

TEST(SmAtomicLoop, LanesSharingALockBitTakeOneRoundEach) {
  // Four lanes per word: four rounds of LDSLK, IADD, STSUL, BRA (seed 001 Listing 1 per retry).
  SmRig rig(add_body(8), loop_params(true), 32, kDecls);
  ASSERT_TRUE(rig.run());
  EXPECT_EQ(rig.sm.stats().atomic_rounds, 4u);
  EXPECT_EQ(rig.sm.stats().atomic_uops, 16u);
  EXPECT_EQ(rig.sm.shared_stats().lock_retries, 24u + 16 + 8);  // lanes that found a bit taken
  EXPECT_EQ(rig.stall(StallKind::kIssued), rig.sm.stats().warp_instructions + 15);
  // Each round waits for its LDSLK's data (the shared-memory latency) before it modifies.
  SmRig native(add_body(8), loop_params(false), 32, kDecls);
  ASSERT_TRUE(native.run());
  EXPECT_EQ(native.sm.stats().atomic_uops, 0u);
  EXPECT_GT(rig.now, native.now + 3 * small_params().shared_latency);
}

TEST(SmAtomicLoop, CasComparesAndSelects) {
  // atom.cas: LDSLK, ISETP, SEL, STSUL, BRA per round (seed 001 Listing 3).
  SmRig rig(add_body(32, "cas.b32", "0, 1"), loop_params(true), 32, kDecls);
  ASSERT_TRUE(rig.run());
  EXPECT_EQ(rig.sm.stats().atomic_rounds, 1u);
  EXPECT_EQ(rig.sm.stats().atomic_uops, 5u);
}

TEST(SmAtomicLoop, AnAtomicAliasingAcrossWarpsCompletes) {
  // Two warps' lanes all add to word 0: 32 rounds each, interleaved through the lock unit.
  SmRig rig(add_body(1, "add.u32", "1", 64), loop_params(true), 64, kDecls);
  rig.auto_latency = 1;
  ASSERT_TRUE(rig.run(100'000));
  EXPECT_EQ(rig.sm.stats().atomic_rounds, 64u);
  EXPECT_EQ(rig.sm.stats().atomic_uops, 256u);
}

}  // namespace
}  // namespace simtsync::sm::testing
