#include "analysis/loops.h"

#include <gtest/gtest.h>

#include "function_builder.h"

namespace simtsync::analysis {
namespace {

using test::build_function;
using V = std::vector<NodeId>;
using Edges = std::vector<Edge>;

LoopInfo loops_of(const Cfg& cfg) {
  return LoopInfo::compute(cfg, DomTree::dominators(cfg));
}

TEST(Loops, WhileLoop) {
  const auto f = build_function({"nop", "H:", "@!p bra X", "nop", "bra H", "X:", "ret"});
  const Cfg cfg(f);
  const LoopInfo li = loops_of(cfg);
  ASSERT_EQ(li.loops().size(), 1u);
  const Loop& l = li.loop(0);
  EXPECT_EQ(l.header, 1);
  EXPECT_EQ(l.latches, V{2});
  EXPECT_EQ(l.blocks, (V{1, 2}));
  EXPECT_EQ(l.exit_edges, (Edges{{1, 3}}));
  EXPECT_EQ(l.exit_blocks, V{3});
  EXPECT_EQ(l.exiting_blocks, V{1});
  EXPECT_EQ(l.exiting_branches, std::vector<int>{1});
  EXPECT_EQ(l.parent, -1);
  EXPECT_EQ(l.depth, 1);
  EXPECT_EQ(li.loop_of(0), -1);
  EXPECT_EQ(li.loop_of(2), 0);
  EXPECT_EQ(li.loop_with_header(1), 0);
  EXPECT_TRUE(li.irreducible_edges().empty());
}

TEST(Loops, SpinLockSelfLoop) {
  const auto f = build_function({"nop", "L:", "nop", "@p bra L", "nop", "ret"});
  const Cfg cfg(f);
  const LoopInfo li = loops_of(cfg);
  ASSERT_EQ(li.loops().size(), 1u);
  EXPECT_EQ(li.loop(0).header, 1);
  EXPECT_EQ(li.loop(0).latches, V{1});
  EXPECT_EQ(li.loop(0).blocks, V{1});
  EXPECT_EQ(li.loop(0).exit_blocks, V{2});
  EXPECT_EQ(li.loop(0).exiting_branches, std::vector<int>{2});
}

TEST(Loops, NestedLoops) {
  const auto f = build_function(
      {"nop", "O:", "nop", "I:", "nop", "@p bra IX", "nop", "bra I", "IX:", "@p bra O", "ret"});
  const Cfg cfg(f);
  const LoopInfo li = loops_of(cfg);
  ASSERT_EQ(li.loops().size(), 2u);
  const Loop& outer = li.loop(0);
  const Loop& inner = li.loop(1);
  EXPECT_EQ(outer.header, 1);
  EXPECT_EQ(outer.blocks, (V{1, 2, 3, 4}));
  EXPECT_EQ(outer.latches, V{4});
  EXPECT_EQ(outer.children, std::vector<int>{1});
  EXPECT_EQ(outer.exit_edges, (Edges{{4, 5}}));
  EXPECT_EQ(inner.header, 2);
  EXPECT_EQ(inner.blocks, (V{2, 3}));
  EXPECT_EQ(inner.latches, V{3});
  EXPECT_EQ(inner.parent, 0);
  EXPECT_EQ(inner.depth, 2);
  EXPECT_EQ(inner.exit_edges, (Edges{{2, 4}}));
  EXPECT_EQ(li.loop_of(3), 1);
  EXPECT_EQ(li.loop_of(4), 0);
  EXPECT_EQ(li.depth_of(2), 2);
  EXPECT_EQ(li.depth_of(5), 0);
}

TEST(Loops, TwoBackEdgesToOneHeaderMakeOneLoop) {
  const auto f = build_function({"H:", "@p bra H", "@p bra H", "ret"});
  const Cfg cfg(f);
  const LoopInfo li = loops_of(cfg);
  ASSERT_EQ(li.loops().size(), 1u);
  EXPECT_EQ(li.loop(0).latches, (V{0, 1}));
  EXPECT_EQ(li.loop(0).exit_blocks, V{2});
  EXPECT_EQ(li.loop(0).exiting_branches, (std::vector<int>{1}));
}

TEST(Loops, ReturnInsideLoopIsAnExitToTheVirtualExit) {
  const auto f = build_function({"H:", "@p ret", "nop", "@p bra H", "ret"});
  const Cfg cfg(f);
  const LoopInfo li = loops_of(cfg);
  ASSERT_EQ(li.loops().size(), 1u);
  EXPECT_EQ(li.loop(0).exit_edges, (Edges{{0, cfg.exit()}, {1, 2}}));
  EXPECT_EQ(li.loop(0).exiting_branches, (std::vector<int>{0, 2}));
}

TEST(Loops, InfiniteLoopHasNoExits) {
  const auto f = build_function({"nop", "L:", "bra L"});
  const Cfg cfg(f);
  const LoopInfo li = loops_of(cfg);
  ASSERT_EQ(li.loops().size(), 1u);
  EXPECT_EQ(li.loop(0).blocks, V{1});
  EXPECT_TRUE(li.loop(0).exit_edges.empty());
}

TEST(Loops, IrreducibleCycleIsReportedNotALoop) {
  // ENTRY branches into both A and B, which jump to each other.
  const auto f =
      build_function({"@p bra B", "A:", "nop", "@p bra B", "ret", "B:", "@p bra A", "ret"});
  const Cfg cfg(f);
  const LoopInfo li = loops_of(cfg);
  EXPECT_TRUE(li.loops().empty());
  EXPECT_EQ(li.irreducible_edges().size(), 1u);
}

TEST(Loops, UnreachableLoopIsIgnored) {
  const auto f = build_function({"ret", "U:", "bra U"});
  const Cfg cfg(f);
  EXPECT_TRUE(loops_of(cfg).loops().empty());
}

TEST(Loops, InvariantsOnRandomGraphs) {
  std::mt19937 rng(4242);
  for (int iter = 0; iter < 300; ++iter) {
    const auto f = build_function(test::random_program(rng));
    const Cfg cfg(f);
    const DomTree dom = DomTree::dominators(cfg);
    const LoopInfo li = LoopInfo::compute(cfg, dom);
    for (const Loop& l : li.loops()) {
      for (NodeId b : l.blocks) EXPECT_TRUE(dom.dominates(l.header, b));
      for (NodeId t : l.latches) EXPECT_TRUE(l.contains(t));
      for (const Edge& e : l.exit_edges) {
        EXPECT_TRUE(l.contains(e.first));
        EXPECT_FALSE(l.contains(e.second));
      }
      if (l.parent >= 0) {
        const Loop& p = li.loop(l.parent);
        EXPECT_LT(l.parent, l.id);
        for (NodeId b : l.blocks) EXPECT_TRUE(p.contains(b));
      }
    }
  }
}

}  // namespace
}  // namespace simtsync::analysis
