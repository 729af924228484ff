// The decoder gives each branch that leaves a loop which can SIMT-deadlock the loop's safe
// post-dominator (seed 003 Algorithm 2) as its alternative reconvergence PC, and every other
// branch its immediate post-dominator.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

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

}  // namespace
}  // namespace simtsync::func
