// SM issue-stage tests on a real functional model between mock memory: scoreboard latency,
// back-to-back issue, loads holding their destination, SIMD passes, stall accounting.
#include <gtest/gtest.h>

#include "sm_test_util.h"

namespace simtsync::sm {
namespace {

using testing::Issue;
using testing::small_params;
using testing::SmRig;

constexpr int kInt = static_cast<int>(OpClass::kInt);

std::vector<Cycle> times(const std::vector<Issue>& v) {
  std::vector<Cycle> t;
  for (const Issue& i : v) t.push_back(i.at);
  return t;
}

void expect_accounted(const SmRig& rig) {
  EXPECT_EQ(rig.classified_cycles(), rig.ticks_live * rig.sm.stats().sched.size());
  EXPECT_EQ(rig.sm.stats().active_cycles, rig.ticks_live);
}

const char* kChain = R"(
  mov.u32 %r1, 7;
  add.u32 %r2, %r1, 1;
  add.u32 %r3, %r2, 1;
  add.u32 %r4, %r3, 1;
  add.u32 %r5, %r4, 1;
  ret;
)";

TEST(SmIssue, DependentChainIssuesOncePerLatency) {
  for (unsigned lat : {4u, 6u, 11u}) {
    SmParams p = small_params();
    p.latency[kInt] = lat;
    SmRig rig(kChain, p);
    ASSERT_TRUE(rig.run());
    auto t = times(rig.of_warp(0));
    ASSERT_EQ(t.size(), 6u);  // mov, 4 adds, ret
    for (size_t i = 1; i < 5; ++i)
      EXPECT_EQ(t[i] - t[i - 1], lat) << "lat " << lat << " inst " << i;
    EXPECT_GT(rig.stall(StallKind::kData), 0u);
    EXPECT_EQ(rig.stall(StallKind::kIssued), 6u);
    EXPECT_EQ(rig.sm.stats().warp_instructions, 6u);
    EXPECT_EQ(rig.sm.stats().thread_instructions, 6u * 32);
    expect_accounted(rig);
  }
}

TEST(SmIssue, IndependentInstructionsIssueBackToBack) {
  SmRig rig(R"(
  mov.u32 %r1, 1;
  mov.u32 %r2, 2;
  mov.u32 %r3, 3;
  mov.u32 %r4, 4;
  mov.u32 %r5, 5;
  mov.u32 %r6, 6;
  ret;
)",
            small_params());
  ASSERT_TRUE(rig.run());
  auto t = times(rig.of_op(ptx::Opcode::kMov));
  ASSERT_EQ(t.size(), 6u);
  for (size_t i = 1; i < t.size(); ++i) EXPECT_EQ(t[i], t[i - 1] + 1) << i;
  EXPECT_EQ(rig.stall(StallKind::kData), 0u);
  EXPECT_EQ(rig.stall(StallKind::kStructural), 0u);
  expect_accounted(rig);
}

TEST(SmIssue, TwoWarpsHideEachOthersLatency) {
  SmParams p = small_params();
  p.latency[kInt] = 2;
  SmRig rig(kChain, p, /*threads=*/64);
  ASSERT_TRUE(rig.run());
  auto a = times(rig.of_warp(0)), b = times(rig.of_warp(1));
  ASSERT_EQ(a.size(), 6u);
  ASSERT_EQ(b.size(), 6u);
  // One scheduler issues at most one instruction per cycle.
  for (Cycle x : a)
    for (Cycle y : b) EXPECT_NE(x, y);
  // With latency 2 the two chains interleave: each add still waits exactly the latency.
  for (size_t i = 1; i < 5; ++i) {
    EXPECT_EQ(a[i] - a[i - 1], 2u);
    EXPECT_EQ(b[i] - b[i - 1], 2u);
  }
  expect_accounted(rig);
}

const char* kLoadUse = R"(
  ld.global.u32 %r1, [g];
  mov.u32 %r5, 9;
  add.u32 %r2, %r1, 1;
  st.global.u32 [g+4], %r2;
  ret;
)";
const char* kGlobals = ".global .u32 g[4];\n";

TEST(SmIssue, GlobalLoadHoldsItsDestinationUntilTheResponse) {
  SmRig rig(kLoadUse, small_params(), 32, kGlobals);
  while (rig.port.sent.empty() && rig.now < 100) rig.tick();
  ASSERT_EQ(rig.port.sent.size(), 1u);
  EXPECT_EQ(rig.port.sent[0].req.kind, mem::ReqKind::kLoad);
  EXPECT_EQ(rig.port.sent[0].req.transactions, 1u);  // 32 lanes, one address: one sector
  const Cycle ld_at = rig.of_op(ptx::Opcode::kLd).at(0).at;
  EXPECT_EQ(rig.port.sent[0].at, ld_at + 1);  // through the LD/ST unit the next cycle
  rig.run_until(rig.now + 300);
  // The independent mov went ahead; the dependent add did not.
  EXPECT_EQ(rig.of_op(ptx::Opcode::kMov).size(), 1u);
  EXPECT_TRUE(rig.of_op(ptx::Opcode::kAdd).empty());
  EXPECT_GE(rig.stall(StallKind::kData), 290u);
  const Cycle answer = rig.now;
  rig.respond(0);
  rig.run_until(rig.now + 20);
  ASSERT_EQ(rig.of_op(ptx::Opcode::kAdd).size(), 1u);
  EXPECT_EQ(rig.of_op(ptx::Opcode::kAdd)[0].at, answer);  // released before issue that cycle
  // The store and the exit: the CTA waits for the store's response.
  ASSERT_EQ(rig.port.sent.size(), 2u);
  EXPECT_EQ(rig.port.sent[1].req.kind, mem::ReqKind::kStore);
  EXPECT_TRUE(rig.sm.take_completed().empty());
  EXPECT_GT(rig.stall(StallKind::kExit), 0u);
  rig.respond(1);
  rig.tick();
  EXPECT_EQ(rig.sm.take_completed(), std::vector<int>{0});
  EXPECT_TRUE(rig.sm.idle());
  expect_accounted(rig);
}

TEST(SmIssue, RefusedRequestsWaitInTheLdstUnit) {
  SmRig rig(kLoadUse, small_params(), 32, kGlobals);
  rig.port.refuse = true;
  rig.run_until(40);
  EXPECT_TRUE(rig.port.sent.empty());
  EXPECT_GT(rig.port.refusals, 20u);
  EXPECT_EQ(rig.sm.stats().memory_refusals, rig.port.refusals);
  rig.port.refuse = false;
  rig.auto_latency = 10;
  rig.tick();
  ASSERT_EQ(rig.port.sent.size(), 1u);
  EXPECT_EQ(rig.port.sent[0].at, 40u);
  ASSERT_TRUE(rig.run());
  EXPECT_EQ(rig.port.sent.size(), 2u);
  expect_accounted(rig);
}

TEST(SmIssue, NarrowSimdOccupiesTheUnitForSeveralPasses) {
  for (unsigned simd : {8u, 16u}) {
    SmParams p = small_params();
    p.simd_width = simd;  // warp_size 32: 32 / simd passes
    p.units[static_cast<int>(UnitKind::kSp)] = 1;
    SmRig rig(R"(
  mov.u32 %r1, 1;
  mov.u32 %r2, 2;
  mov.u32 %r3, 3;
  mov.u32 %r4, 4;
  mov.u32 %r5, 5;
  ret;
)",
              p);
    ASSERT_TRUE(rig.run());
    const unsigned passes = 32 / simd;
    auto t = times(rig.of_warp(0));
    ASSERT_EQ(t.size(), 6u);
    for (size_t i = 1; i < t.size(); ++i) EXPECT_EQ(t[i] - t[i - 1], passes) << simd << " " << i;
    EXPECT_EQ(rig.stall(StallKind::kStructural), 5u * (passes - 1));
    EXPECT_EQ(rig.sm.stats().unit_busy[static_cast<int>(UnitKind::kSp)], 6u * passes);
    expect_accounted(rig);
  }
}

TEST(SmIssue, InitiationIntervalMultipliesWithPasses) {
  SmParams p = small_params();
  p.simd_width = 16;
  p.units[static_cast<int>(UnitKind::kSp)] = 1;
  p.ii[static_cast<int>(OpClass::kImul)] = 3;
  SmRig rig(R"(
  mul.lo.u32 %r1, %r10, 3;
  mul.lo.u32 %r2, %r10, 3;
  ret;
)",
            p);
  ASSERT_TRUE(rig.run());
  auto t = times(rig.of_warp(0));
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[1] - t[0], 6u);
  expect_accounted(rig);
}

TEST(SmIssue, TwoPipelinesIssueBackToBackDespiteTwoPasses) {
  SmParams p = small_params();
  p.simd_width = 16;
  p.units[static_cast<int>(UnitKind::kSp)] = 2;
  SmRig rig(R"(
  mov.u32 %r1, 1;
  mov.u32 %r2, 2;
  mov.u32 %r3, 3;
  mov.u32 %r4, 4;
  ret;
)",
            p);
  ASSERT_TRUE(rig.run());
  auto t = times(rig.of_op(ptx::Opcode::kMov));
  ASSERT_EQ(t.size(), 4u);
  for (size_t i = 1; i < t.size(); ++i) EXPECT_EQ(t[i] - t[i - 1], 1u);
  EXPECT_EQ(rig.stall(StallKind::kStructural), 0u);
}

TEST(SmIssue, TwoLevelSwapsOutAWarpThatIssuedALoad) {
  SmParams p = small_params();
  p.scheduler = sched::scheduler_params("two_level", {{"active_set", std::int64_t{1}}});
  SmRig rig(kLoadUse, p, /*threads=*/64, kGlobals);
  rig.run_until(200);  // no responses yet
  // Warp 0's load sent it to the pending FIFO, so warp 1 entered and issued its own load.
  ASSERT_EQ(rig.port.sent.size(), 2u);
  auto lds = rig.of_op(ptx::Opcode::kLd);
  ASSERT_EQ(lds.size(), 2u);
  EXPECT_EQ(lds[0].warp, 0);
  EXPECT_EQ(lds[1].warp, 1);
  rig.auto_latency = 1;
  ASSERT_TRUE(rig.run());
  EXPECT_EQ(rig.of_op(ptx::Opcode::kAdd).size(), 2u);
  expect_accounted(rig);
}

}  // namespace
}  // namespace simtsync::sm
