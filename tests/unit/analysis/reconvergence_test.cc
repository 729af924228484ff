#include "analysis/reconvergence.h"

#include <gtest/gtest.h>

#include "function_builder.h"

namespace simtsync::analysis {
namespace {

using test::build_function;
using test::label_inst;

constexpr Pc kBase = 0x100;
Pc pc_of(int inst) {
  return kBase + kInstSize * static_cast<Pc>(inst);
}

// Seed 003 Fig. 2a: if/else in BB_A, both arms reconverge at BB_D.
TEST(Reconvergence, IfElseReconvergesAtJoin) {
  const auto f = build_function(
      {"A:", "nop", "@p bra C", "B:", "nop", "bra D", "C:", "nop", "D:", "nop", "ret"}, kBase);
  const auto t = ReconvergenceTable::compute(f);
  EXPECT_EQ(t.convention(), Convention::kIpdom);
  ASSERT_EQ(t.points().size(), 2u);  // the if and the unconditional jump over the else
  EXPECT_EQ(t.rpc_by_inst(1), pc_of(label_inst(f, "D")));
  EXPECT_EQ(t.rpc_by_pc(pc_of(1)), pc_of(label_inst(f, "D")));
  EXPECT_EQ(t.rpc_by_inst(3), pc_of(label_inst(f, "D")));
  EXPECT_EQ(t.rpc_by_inst(0), std::nullopt);  // not a branch
  EXPECT_EQ(t.rpc_by_pc(pc_of(1) + 4), std::nullopt);
  EXPECT_EQ(t.rpc_by_pc(0), std::nullopt);
  EXPECT_EQ(t.rpc_by_pc(pc_of(100)), std::nullopt);
  const ReconvergencePoint* p = t.find_by_pc(pc_of(1));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->inst, 1);
  EXPECT_EQ(p->block, 0);
  EXPECT_EQ(p->reconverge_node, 3);
}

// Seed 003 Fig. 2b: the loop branch at the end of BB_B reconverges at BB_C.
TEST(Reconvergence, LoopBranchReconvergesAtLoopExit) {
  const auto f = build_function({"A:", "nop", "B:", "nop", "@p bra B", "C:", "nop", "ret"}, kBase);
  const auto t = ReconvergenceTable::compute(f);
  EXPECT_EQ(t.rpc_by_inst(2), pc_of(label_inst(f, "C")));
}

TEST(Reconvergence, WhileLoop) {
  const auto f = build_function({"nop", "H:", "@!p bra X", "nop", "bra H", "X:", "ret"}, kBase);
  const auto t = ReconvergenceTable::compute(f);
  EXPECT_EQ(t.rpc_by_inst(1), pc_of(label_inst(f, "X")));
  EXPECT_EQ(t.rpc_by_inst(3), pc_of(label_inst(f, "H")));
}

// Seed 003 Fig. 3: the SIMT-compliant spin lock; the lock attempt reconverges inside the loop.
TEST(Reconvergence, SimtCompliantSpinLock) {
  const auto f = build_function(
      {"nop", "H:", "@p bra LATCH", "nop", "nop", "LATCH:", "@!p bra H", "ret"}, kBase);
  const auto t = ReconvergenceTable::compute(f);
  EXPECT_EQ(t.rpc_by_inst(1), pc_of(label_inst(f, "LATCH")));
  EXPECT_EQ(t.rpc_by_inst(4), pc_of(5));
}

TEST(Reconvergence, ArmsThatReturnReconvergeAtExit) {
  const auto f = build_function({"@p bra B", "ret", "B:", "@p bra C", "exit", "C:", "nop"}, kBase);
  const auto t = ReconvergenceTable::compute(f);
  EXPECT_EQ(t.rpc_by_inst(0), kExitPc);
  EXPECT_EQ(t.rpc_by_inst(2), kExitPc);
}

TEST(Reconvergence, GuardedReturnIsADivergencePoint) {
  const auto f = build_function({"@p ret", "nop", "ret"}, kBase);
  const auto t = ReconvergenceTable::compute(f);
  EXPECT_EQ(t.rpc_by_inst(0), kExitPc);
  EXPECT_EQ(t.rpc_by_inst(2), std::nullopt);  // unguarded ret diverges nobody
}

TEST(Reconvergence, BranchInsideInfiniteLoopReconvergesAtItsJoin) {
  const auto f = build_function({"nop", "H:", "@p bra E", "nop", "E:", "nop", "bra H"}, kBase);
  const auto t = ReconvergenceTable::compute(f);
  EXPECT_EQ(t.rpc_by_inst(1), pc_of(label_inst(f, "E")));
  // The virtual exit edge leaves from E (the loop's last block), so the never-divergent back
  // jump "reconverges" at EXIT; choosing E rather than the header H is what keeps the divergent
  // branch in H reconverging inside the loop.
  EXPECT_EQ(t.rpc_by_inst(4), kExitPc);
  const auto g = build_function({"@p bra L", "ret", "L:", "bra L"}, kBase);
  const auto u = ReconvergenceTable::compute(g);
  EXPECT_EQ(u.rpc_by_inst(0), kExitPc);
  EXPECT_EQ(u.rpc_by_inst(2), kExitPc);  // `L: bra L` never leaves
}

TEST(Reconvergence, IndirectBranch) {
  const auto f = build_function({"brx A B", "A:", "nop", "bra J", "B:", "nop", "J:", "ret"}, kBase);
  const auto t = ReconvergenceTable::compute(f);
  EXPECT_EQ(t.rpc_by_inst(0), pc_of(label_inst(f, "J")));
}

TEST(Reconvergence, RpcPostDominatesBothSuccessorsOnRandomGraphs) {
  std::mt19937 rng(777);
  for (int iter = 0; iter < 300; ++iter) {
    const auto f = build_function(test::random_program(rng), kBase);
    const Cfg cfg(f);
    const DomTree pdom = DomTree::post_dominators(cfg);
    const auto t = ReconvergenceTable::compute(cfg, pdom);
    for (const auto& p : t.points()) {
      for (NodeId s : cfg.succs(p.block)) EXPECT_TRUE(pdom.dominates(p.reconverge_node, s));
      EXPECT_EQ(p.reconverge_pc, cfg.first_pc(p.reconverge_node));
      EXPECT_EQ(t.rpc_by_pc(p.pc), p.reconverge_pc);
    }
  }
}

}  // namespace
}  // namespace simtsync::analysis
