#include "analysis/cfg.h"

#include <gtest/gtest.h>

#include "function_builder.h"

namespace simtsync::analysis {
namespace {

using test::build_function;
using V = std::vector<NodeId>;

TEST(Cfg, DiamondEdgesTakenTargetFirst) {
  const auto f =
      build_function({"A:", "nop", "@p bra C", "B:", "nop", "bra D", "C:", "nop", "D:", "ret"});
  const Cfg cfg(f);
  ASSERT_EQ(cfg.num_blocks(), 4);
  EXPECT_EQ(cfg.succs(cfg.entry()), V{0});
  EXPECT_EQ(cfg.succs(0), (V{2, 1}));
  EXPECT_EQ(cfg.succs(1), V{3});
  EXPECT_EQ(cfg.succs(2), V{3});
  EXPECT_EQ(cfg.succs(3), V{cfg.exit()});
  EXPECT_EQ(cfg.preds(3), (V{1, 2}));
  EXPECT_TRUE(cfg.virtual_exit_sources().empty());
  EXPECT_EQ(cfg.first_pc(3), 5 * kInstSize);
  EXPECT_EQ(cfg.first_pc(cfg.exit()), kExitPc);
  EXPECT_EQ(cfg.name(2), "C");
  EXPECT_EQ(cfg.name(cfg.exit()), "EXIT");
  EXPECT_EQ(cfg.terminator(0), 1);
}

TEST(Cfg, SeveralReturnsAndFallOffTheEnd) {
  const auto f = build_function({"@p bra B", "ret", "B:", "@p bra C", "exit", "C:", "nop"});
  const Cfg cfg(f);
  ASSERT_EQ(cfg.num_blocks(), 5);
  EXPECT_EQ(cfg.preds(cfg.exit()), (V{1, 3, 4}));
}

TEST(Cfg, GuardedReturnAndTrapAlsoFallThrough) {
  const auto f = build_function({"@p ret", "@!p trap", "nop", "ret"});
  const Cfg cfg(f);
  ASSERT_EQ(cfg.num_blocks(), 3);
  EXPECT_EQ(cfg.succs(0), (V{cfg.exit(), 1}));
  EXPECT_EQ(cfg.succs(1), (V{cfg.exit(), 2}));
}

TEST(Cfg, CallIsNotAnEdge) {
  const auto f = build_function({"nop", "call", "nop", "ret"});
  const Cfg cfg(f);
  ASSERT_EQ(cfg.num_blocks(), 1);
  EXPECT_EQ(cfg.succs(0), V{cfg.exit()});
}

TEST(Cfg, BranchToNextBlockHasOneEdge) {
  const auto f = build_function({"@p bra N", "N:", "ret"});
  const Cfg cfg(f);
  EXPECT_EQ(cfg.succs(0), V{1});
}

TEST(Cfg, IndirectBranchWithAndWithoutVisibleTargets) {
  const auto f = build_function({"brx B C", "A:", "ret", "B:", "ret", "C:", "ret"});
  const Cfg cfg(f);
  EXPECT_EQ(cfg.succs(0), (V{2, 3}));
  const auto g = build_function({"brx", "A:", "ret", "nop", "B:", "ret"});
  const Cfg cg(g);
  EXPECT_EQ(cg.succs(0), (V{1, 3}));  // every labelled block
}

TEST(Cfg, InfiniteSelfLoopGetsVirtualExitEdge) {
  const auto f = build_function({"nop", "L:", "bra L"});
  const Cfg cfg(f);
  EXPECT_EQ(cfg.virtual_exit_sources(), V{1});
  EXPECT_EQ(cfg.succs(1), (V{1, cfg.exit()}));
  EXPECT_TRUE(cfg.is_virtual_edge(1, cfg.exit()));
  EXPECT_FALSE(cfg.is_virtual_edge(1, 1));
}

TEST(Cfg, InfiniteLoopVirtualEdgeLeavesFromItsLastBlock) {
  // H -> {E, B}, B -> E, E -> H: one sink SCC {H, B, E}; the edge leaves from E.
  const auto f = build_function({"nop", "H:", "@p bra E", "nop", "E:", "nop", "bra H"});
  const Cfg cfg(f);
  EXPECT_EQ(cfg.virtual_exit_sources(), V{3});
}

TEST(Cfg, TwoSeparateInfiniteLoopsGetOneEdgeEach) {
  const auto f = build_function({"@p bra B", "A:", "bra A", "B:", "nop", "C:", "bra B"});
  const Cfg cfg(f);
  EXPECT_EQ(cfg.virtual_exit_sources(), (V{1, 3}));
}

TEST(Cfg, LoopThatCanLeaveNeedsNoVirtualEdge) {
  const auto f = build_function({"L:", "@p bra L", "ret"});
  const Cfg cfg(f);
  EXPECT_TRUE(cfg.virtual_exit_sources().empty());
}

TEST(Cfg, UnreachableBlocks) {
  const auto f = build_function({"bra X", "nop", "X:", "ret", "U:", "bra U"});
  const Cfg cfg(f);
  EXPECT_TRUE(cfg.reachable(0));
  EXPECT_FALSE(cfg.reachable(1));
  EXPECT_TRUE(cfg.reachable(2));
  EXPECT_FALSE(cfg.reachable(3));
  EXPECT_EQ(cfg.virtual_exit_sources(), V{3});
  EXPECT_TRUE(cfg.reachable(cfg.exit()));
}

TEST(Cfg, EmptyFunction) {
  const auto f = build_function({});
  const Cfg cfg(f);
  EXPECT_EQ(cfg.num_blocks(), 0);
  EXPECT_EQ(cfg.succs(cfg.entry()), V{cfg.exit()});
}

}  // namespace
}  // namespace simtsync::analysis
