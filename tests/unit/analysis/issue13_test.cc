// Issue 13: SIMT-deadlock analysis on code nobody here wrote. Loops sharing a header, calls
// (-O0 -G), the uniformity analysis, SSDE's fixed point, and a run of the nested-lock kernel in
// the functional simulator before and after SSDE. Inputs are the issue13_* files of
// tests/golden/ (their reports are compared by seed_golden_test.cc) and inline PTX.
#include <gtest/gtest.h>

#include <numeric>
#include <string>

#include "analysis/deadlock_analysis.h"
#include "func/device.h"
#include "ptx/parser.h"
#include "ptx/printer.h"
#include "transform/ssde.h"

namespace simtsync::analysis {
namespace {

std::string golden(const std::string& name) {
  return std::string(SIMTSYNC_SOURCE_DIR) + "/tests/golden/" + name;
}

const ptx::Function& kernel(const ptx::Module& m) {
  for (const auto& f : m.functions)
    if (f.is_entry) return f;
  ADD_FAILURE() << "no kernel";
  return m.functions.front();
}

struct Counts {
  int loops = 0, flagged = 0, busy = 0, seed = 0;
};

Counts counts(const ptx::Module& m, const AnalysisOptions& o = {}) {
  Counts c;
  for (const auto& f : m.functions) {
    if (!f.is_entry) continue;
    const FunctionAnalysis a(m, f, o);
    c.loops += static_cast<int>(a.loops().loops().size());
    for (const auto& v : a.deadlock().verdicts()) {
      c.flagged += v.flagged;
      c.busy += v.busy_wait;
      c.seed += v.seed_flagged;
    }
  }
  return c;
}

TEST(Issue13, NestedLockSpinOnTheOuterHeaderIsFlagged) {
  const auto m = ptx::load_module_file(golden("issue13_nested_lock.ptx"));
  AnalysisOptions merged;
  merged.split_loops = false;
  EXPECT_EQ(counts(m, merged).flagged, 0);  // the miss the issue reports
  const FunctionAnalysis a(m, kernel(m));
  ASSERT_EQ(a.loops().loops().size(), 2u);
  const Loop& outer = a.loops().loop(0);
  const Loop& spin = a.loops().loop(1);
  EXPECT_EQ(outer.header, spin.header);
  EXPECT_EQ(spin.parent, 0);
  EXPECT_EQ(a.loops().blocks(spin.id).size(), 1u);  // the self-loop
  EXPECT_FALSE(a.deadlock().verdicts()[0].flagged);
  EXPECT_TRUE(a.deadlock().verdicts()[1].flagged);
  EXPECT_TRUE(a.deadlock().verdicts()[1].divergent_exit);
}

TEST(Issue13, SpinLockAtO0WithBuiltinCallsIsFlagged) {
  const auto m = ptx::load_module_file(golden("issue13_spin_O0G.ptx"));
  AnalysisOptions intra;
  intra.inline_calls = false;
  EXPECT_EQ(counts(m, intra).flagged, 0);  // intra-procedural: nothing to see
  const FunctionAnalysis a(m, kernel(m));
  EXPECT_GT(a.inlined_calls(), 0);
  EXPECT_TRUE(a.calls_not_analysed().empty());
  EXPECT_EQ(a.deadlock().num_flagged(), 1);
  // The atomics are real instructions of the analysed body now.
  int atoms = 0;
  for (const auto& in : a.function().insts) atoms += in.opcode == ptx::Opcode::kAtom;
  EXPECT_EQ(atoms, 2);
}

TEST(Issue13, SingleLaneAndCtaUniformWaitsAreBusyWaits) {
  for (const char* name : {"issue13_single_lane.ptx", "issue13_cta_uniform.ptx"}) {
    SCOPED_TRACE(name);
    const auto m = ptx::load_module_file(golden(name));
    const Counts c = counts(m);
    EXPECT_EQ(c.seed, 1);  // the published algorithm flags it
    EXPECT_EQ(c.flagged, 0);
    EXPECT_EQ(c.busy, 1);
    AnalysisOptions seed;
    seed.detect.uniformity = false;
    EXPECT_EQ(counts(m, seed).flagged, 1);
  }
}

TEST(Issue13, DivergentSpinInsideALaneTestStillDeadlocks) {
  // Lanes 0-15 wait for a flag that lanes 16-31 set after the if: the exit is uniform among
  // the spinning lanes, but the others wait at the if's reconvergence point.
  const char* text = R"(
.version 7.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 p)
{
  .reg .pred %p<3>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  setp.gt.u32 %p1, %r1, 15;
  @%p1 bra DONE;
SPIN:
  ld.volatile.global.u32 %r2, [%rd2];
  setp.eq.s32 %p2, %r2, 0;
  @%p2 bra SPIN;
DONE:
  st.volatile.global.u32 [%rd2], 1;
  ret;
}
)";
  const auto m = ptx::parse_module(text, "inline.ptx");
  const Counts c = counts(m);
  EXPECT_EQ(c.flagged, 1);
  EXPECT_EQ(c.busy, 0);
}

TEST(Issue13, LaneZeroRegionMakesBranchesUniform) {
  const auto m = ptx::load_module_file(golden("issue13_single_lane.ptx"));
  const FunctionAnalysis a(m, kernel(m));
  const auto& u = a.deadlock().uniformity();
  const Loop& l = a.loops().loop(0);
  EXPECT_TRUE(u.single_lane(l.header));
  for (int b : l.exiting_branches) EXPECT_FALSE(u.divergent_branch(b));
  // The CAS result itself is divergent in general; only the region makes the branch uniform.
  bool cas = false;
  for (NodeId b : a.loops().blocks(l.id))
    for (int i = a.cfg().block(b).begin; i < a.cfg().block(b).end; ++i)
      if (a.function().insts[static_cast<size_t>(i)].opcode == ptx::Opcode::kAtom)
        cas = u.divergent_result(i);
  EXPECT_TRUE(cas);
}

TEST(Issue13, SsdeReachesAFixedPointOnTheIssueCases) {
  for (const char* name :
       {"issue13_nested_lock.ptx", "issue13_single_lane.ptx", "issue13_cta_uniform.ptx",
        "seed003_fig4_nested.ptx", "seed004_ex7_radiosity.ptx", "seed004_ex8_semaphore.ptx"}) {
    SCOPED_TRACE(name);
    const auto m = ptx::load_module_file(golden(name));
    const transform::SsdeResult r = transform::ssde(m);
    EXPECT_TRUE(r.unfixed.empty()) << r.unfixed.front();
    EXPECT_EQ(counts(r.module).flagged, 0);
  }
  // Warp-uniform busy-waits are not transformed.
  EXPECT_FALSE(transform::ssde(ptx::load_module_file(golden("issue13_cta_uniform.ptx"))).changed());
}

TEST(Issue13, SsdeNamesWhatItCannotFix) {
  // The loop lives in acquire() and its release in release(): SSDE transforms one function at
  // a time, so it must say so instead of claiming success.
  const auto m = ptx::load_module_file(golden("issue13_spin_O0G.ptx"));
  const transform::SsdeResult r = transform::ssde(m);
  ASSERT_EQ(r.unfixed.size(), 1u);
  EXPECT_NE(r.unfixed[0].find("called function"), std::string::npos) << r.unfixed[0];
}

// The nested-lock transfer in the functional simulator (IPDOM stack): it livelocks as
// compiled and finishes, with the right balances, after SSDE.
struct TransferRun {
  bool completed = false;
  std::string why;  // the watchdog's reason when it stopped the kernel
  std::vector<int> balance;
};

TransferRun run_transfer(const ptx::Module& m) {
  // Lanes t and t+8 of a warp share their first lock (the SIMT deadlock); first locks are
  // accounts 0-7 and second locks 8-15, so no cycle of lanes can livelock the try-lock in
  // lockstep (a hazard of the kernel, not of SSDE).
  constexpr int kThreads = 64, kAccounts = 16;
  func::DeviceOptions o;
  o.watchdog.quiet_steps = 20000;
  o.watchdog.max_steps = 2'000'000;
  func::Device dev(o);
  std::vector<int> from(kThreads), to(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    from[t] = t % 8;
    to[t] = 8 + (t * 3 + 1) % 8;
  }
  const Addr locks = dev.upload(std::vector<int>(kAccounts, 0));
  const Addr bal = dev.upload(std::vector<int>(kAccounts, 100));
  const Addr df = dev.upload(from), dt = dev.upload(to);
  const int mod = dev.load_module(m);
  func::KernelArgs args;
  args.add(locks).add(bal).add(df).add(dt).add(kThreads);
  const auto res = dev.launch(mod, kernel(m).name, Dim3{1, 1, 1}, Dim3{kThreads, 1, 1}, args);
  TransferRun r;
  r.completed = res.completed;
  r.why = res.watchdog_reason + "\n" + res.watchdog_report;
  r.balance = dev.download<int>(bal, kAccounts);
  std::vector<int> expect(kAccounts, 100);
  for (int t = 0; t < kThreads; ++t) {
    --expect[static_cast<size_t>(from[t])];
    ++expect[static_cast<size_t>(to[t])];
  }
  if (r.completed) {
    EXPECT_EQ(r.balance, expect);
  }
  return r;
}

TEST(Issue13, NestedLockFinishesInTheSimulatorAfterSsde) {
  const auto m = ptx::load_module_file(golden("issue13_nested_lock.ptx"));
  EXPECT_FALSE(run_transfer(m).completed);
  const transform::SsdeResult r = transform::ssde(m);
  ASSERT_TRUE(r.changed());
  const TransferRun after = run_transfer(r.module);
  EXPECT_TRUE(after.completed) << after.why;
}

// The ground truth of tests/golden/synclib/ (deadlock_truth.txt), checked in the functional
// simulator: the SIMT-safe kernels finish, the listed ones are stopped by the watchdog.
struct SyncLibCase {
  const char* file;
  bool deadlocks;
  unsigned ctas;
  std::vector<std::uint64_t> buffers;  // ints per buffer argument, zero-filled
  std::vector<int> scalars;            // int arguments after the buffers
  int iota = -1;                       // this buffer holds 0, 1, 2, ... (keys, items)
};

bool completes(const SyncLibCase& c) {
  const auto m = ptx::load_module_file(golden(std::string("synclib/") + c.file));
  func::DeviceOptions o;
  o.watchdog.quiet_steps = 20000;
  o.watchdog.max_steps = 5'000'000;
  func::Device dev(o);
  func::KernelArgs args;
  for (size_t k = 0; k < c.buffers.size(); ++k) {
    std::vector<int> v(c.buffers[k], 0);
    if (static_cast<int>(k) == c.iota) std::iota(v.begin(), v.end(), 0);
    args.add(dev.upload(v));
  }
  for (int s : c.scalars) args.add(s);
  const int mod = dev.load_module(m);
  return dev.launch(mod, kernel(m).name, Dim3{c.ctas, 1, 1}, Dim3{64, 1, 1}, args).completed;
}

TEST(Issue13, SyncLibGroundTruthHoldsInTheSimulator) {
  const SyncLibCase cases[] = {
      {"grid_barrier.ptx", false, 4, {1, 1, 256}, {3}},
      {"seqlock.ptx", false, 3, {1, 2, 192}, {5}},
      {"work_queue.ptx", false, 2, {1, 1, 1, 10, 320}, {10, 4}, 3},
      {"mutex_mimd.ptx", true, 1, {4, 8, 64}, {64, 4}, 2},
      {"lane_flag.ptx", true, 1, {2, 2, 64}, {}},
      {"tree_barrier.ptx", false, 4, {4, 256}, {3}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.file);
    EXPECT_EQ(completes(c), !c.deadlocks);
  }
}

TEST(Issue13, OldSsdeOutputReflaggedNowClean) {
  // SSDE before issue 13 transformed the tree barrier's busy-waits; the current analysis flags
  // its switch loops again. Now the busy-waits are left alone, and SSDE applied to the old
  // output still ends clean (or would name what it cannot fix).
  const auto old = ptx::load_module_file(golden("synclib/tree_barrier.old_ssde"));
  EXPECT_GE(counts(old).flagged, 1);
  const auto m = ptx::load_module_file(golden("synclib/tree_barrier.ptx"));
  const transform::SsdeResult r = transform::ssde(m);
  EXPECT_FALSE(r.changed());
  EXPECT_TRUE(r.unfixed.empty());
  EXPECT_EQ(counts(r.module).flagged, 0);
  EXPECT_EQ(counts(m).busy, 2);
  const transform::SsdeResult again = transform::ssde(old);
  EXPECT_EQ(counts(again.module).flagged, static_cast<int>(again.unfixed.size()));
  EXPECT_TRUE(again.unfixed.empty());
}

TEST(Issue13, OnlyNestedBodiesOfASharedHeaderAreSplit) {
  // Two latches whose bodies share only the header (a `continue` in each arm): one loop.
  const char* arms = R"(
.version 7.0
.target sm_75
.address_size 64
.visible .entry k()
{
  .reg .pred %p<3>;
  .reg .b32 %r<2>;
  mov.u32 %r1, 0;
H:
  add.s32 %r1, %r1, 1;
  setp.lt.s32 %p1, %r1, 10;
  @%p1 bra A;
  setp.lt.s32 %p2, %r1, 20;
  @%p2 bra H;
  bra X;
A:
  bra H;
X:
  ret;
}
)";
  // A self-loop on the header of an enclosing loop: two loops, the self-loop inside.
  const char* nested = R"(
.version 7.0
.target sm_75
.address_size 64
.visible .entry k()
{
  .reg .pred %p<3>;
  .reg .b32 %r<3>;
  mov.u32 %r1, 0;
  mov.u32 %r2, 0;
H:
  add.s32 %r1, %r1, 1;
  setp.lt.s32 %p1, %r1, 10;
  @%p1 bra H;
  add.s32 %r2, %r2, 1;
  setp.lt.s32 %p2, %r2, 5;
  @%p2 bra H;
  ret;
}
)";
  auto loops_of = [](const char* text, bool split) {
    const auto m = ptx::parse_module(text, "inline.ptx");
    const Cfg cfg(m.functions.front());
    const DomTree dom = DomTree::dominators(cfg);
    return LoopInfo::compute(cfg, dom, LoopOptions{split});
  };
  EXPECT_EQ(loops_of(arms, true).loops().size(), 1u);
  const LoopInfo n = loops_of(nested, true);
  ASSERT_EQ(n.loops().size(), 2u);
  EXPECT_EQ(n.loop(1).parent, 0);
  EXPECT_EQ(n.blocks(1).size(), 1u);
  EXPECT_EQ(n.loop(1).exiting_branches.size(), 1u);
  EXPECT_EQ(loops_of(nested, false).loops().size(), 1u);  // the published LSet
}

}  // namespace
}  // namespace simtsync::analysis
