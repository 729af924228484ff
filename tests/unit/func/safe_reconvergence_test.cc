// The decoder gives each branch that leaves a loop which can SIMT-deadlock the loop's safe
// post-dominator (seed 003 Algorithm 2) as its alternative reconvergence PC, and every other
// branch its immediate post-dominator.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "analysis/budget.h"
#include "func/global_memory.h"
#include "func/program.h"
#include "ptx/parser.h"

namespace simtsync::func {
namespace {

std::string read(const std::string& rel) {
  std::ifstream f(std::string(SIMTSYNC_SOURCE_DIR) + "/" + rel);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

TEST(SafeReconvergence, Seed003Fig1SpinExitReconvergesAfterTheRelease) {
  // while (atomicCAS(lock, 0, 1) != 0); critical section; atomicExch(lock, 0);
  ptx::Module m = ptx::parse_module(read("tests/golden/seed003_fig1_spinlock.ptx"), "fig1.ptx");
  GlobalMemory mem;
  Program prog(m, mem);
  const DecodedFunction& k = prog.functions().front();
  const ExecInst* spin = nullptr;
  const ExecInst* exch = nullptr;
  for (const ExecInst& e : k.code) {
    if (e.op == ptx::Opcode::kBra) spin = &e;
    if (e.op == ptx::Opcode::kAtom) exch = &e;  // the last atom is the release
  }
  ASSERT_TRUE(spin && exch);
  EXPECT_EQ(spin->reconv_pc, spin->pc + kInstSize);       // IPDOM: right after the loop
  EXPECT_EQ(spin->safe_reconv_pc, exch->pc + kInstSize);  // after atomicExch (Fig. 1)
}

TEST(SafeReconvergence, BranchesOutsideFlaggedLoopsKeepTheirIpdom) {
  ptx::Module m = ptx::parse_module(read("workloads/vecadd/vecadd.ptx"), "vecadd.ptx");
  GlobalMemory mem;
  Program prog(m, mem);
  int branches = 0;
  for (const DecodedFunction& f : prog.functions())
    for (const ExecInst& e : f.code)
      if (e.op == ptx::Opcode::kBra) {
        ++branches;
        EXPECT_EQ(e.safe_reconv_pc, e.reconv_pc);
      }
  EXPECT_GT(branches, 0);
}

// Issue 46: decoding for a unit that does not read safe points runs no analysis (the watchdog's
// question is answered on demand), and a function's results are found again by its content.
TEST(SafeReconvergence, OnlyWhatTheUnitNeedsOncePerFunctionContent) {
  ptx::Module m = ptx::parse_module(read("tests/golden/seed003_fig1_spinlock.ptx"), "fig1.ptx");
  auto branch_and_release = [](const Program& p) {
    const ExecInst* spin = nullptr;
    const ExecInst* exch = nullptr;
    for (const ExecInst& e : p.functions().front().code) {
      if (e.op == ptx::Opcode::kBra) spin = &e;
      if (e.op == ptx::Opcode::kAtom) exch = &e;
    }
    return std::make_pair(spin, exch);
  };
  auto cache = std::make_shared<AnalysisCache>();
  DecodeOptions plain;
  plain.safe_reconvergence = false;
  plain.cache = cache;
  GlobalMemory mem;
  const Program a(m, mem, plain);
  EXPECT_EQ(cache->size(), 0u);  // nothing analysed while decoding
  const auto [spin, exch] = branch_and_release(a);
  ASSERT_TRUE(spin && exch);
  EXPECT_EQ(spin->safe_reconv_pc, spin->reconv_pc);
  EXPECT_TRUE(a.deadlock_flagged(*spin));  // analysed now, for the watchdog
  EXPECT_FALSE(a.deadlock_flagged(*exch));
  EXPECT_EQ(cache->size(), 1u);
  DecodeOptions delayed;
  delayed.cache = cache;
  GlobalMemory mem2;
  const Program b(m, mem2, delayed);  // the same function: found, not analysed again
  EXPECT_EQ(cache->size(), 1u);
  EXPECT_EQ(cache->hits(), 1u);
  const auto [spin_b, exch_b] = branch_and_release(b);
  EXPECT_EQ(spin_b->safe_reconv_pc, exch_b->pc + kInstSize);
}

TEST(SafeReconvergence, TheBudgetRefusesOnlyWhenTheAnalysisIsNeeded) {
  ptx::Module m = ptx::parse_module(read("tests/golden/seed003_fig1_spinlock.ptx"), "fig1.ptx");
  DecodeOptions o;
  o.analysis_budget = 1;
  GlobalMemory mem;
  EXPECT_THROW({ const Program p(m, mem, o); }, analysis::AnalysisTooLarge);
  o.safe_reconvergence = false;
  GlobalMemory mem2;
  const Program p(m, mem2, o);  // loads: nothing needs the analysis yet
  for (const ExecInst& e : p.functions().front().code) {
    if (e.op == ptx::Opcode::kBra) {
      EXPECT_THROW(p.deadlock_flagged(e), analysis::AnalysisTooLarge);
    }
  }
}

}  // namespace
}  // namespace simtsync::func
