#include "analysis/dominators.h"

#include <gtest/gtest.h>

#include <random>

#include "function_builder.h"

namespace simtsync::analysis {
namespace {

using test::build_function;
using V = std::vector<NodeId>;

TEST(DomTree, Diamond) {
  const auto f = build_function({"A:", "@p bra C", "B:", "bra D", "C:", "nop", "D:", "ret"});
  const Cfg cfg(f);
  const DomTree dom = DomTree::dominators(cfg);
  const DomTree pdom = DomTree::post_dominators(cfg);
  EXPECT_EQ(dom.root(), cfg.entry());
  EXPECT_EQ(dom.idom(cfg.entry()), kNoNode);
  EXPECT_EQ(dom.idom(0), cfg.entry());
  EXPECT_EQ(dom.idom(1), 0);
  EXPECT_EQ(dom.idom(2), 0);
  EXPECT_EQ(dom.idom(3), 0);
  EXPECT_EQ(V(dom.children(0).begin(), dom.children(0).end()), (V{1, 2, 3}));
  EXPECT_TRUE(dom.dominates(0, 3));
  EXPECT_TRUE(dom.dominates(3, 3));
  EXPECT_FALSE(dom.strictly_dominates(3, 3));
  EXPECT_FALSE(dom.dominates(1, 3));
  EXPECT_EQ(dom.nearest_common_dominator(1, 2), 0);
  EXPECT_EQ(dom.depth(cfg.entry()), 0);
  EXPECT_EQ(dom.depth(3), 2);

  EXPECT_EQ(pdom.root(), cfg.exit());
  EXPECT_EQ(pdom.direction(), Direction::kBackward);
  EXPECT_EQ(pdom.idom(0), 3);
  EXPECT_EQ(pdom.idom(1), 3);
  EXPECT_EQ(pdom.idom(2), 3);
  EXPECT_EQ(pdom.idom(3), cfg.exit());
  EXPECT_EQ(pdom.idom(cfg.entry()), 0);
  EXPECT_TRUE(pdom.dominates(3, 0));
  EXPECT_EQ(pdom.nearest_common_dominator(1, 2), 3);
}

TEST(DomTree, NumberingMatchesTreeShape) {
  const auto f = build_function({"A:", "@p bra C", "B:", "bra D", "C:", "nop", "D:", "ret"});
  const Cfg cfg(f);
  const DomTree dom = DomTree::dominators(cfg);
  ASSERT_EQ(dom.preorder().size(), 6u);  // four blocks, ENTRY and EXIT
  for (size_t i = 0; i < dom.preorder().size(); ++i)
    EXPECT_EQ(dom.dfs_in(dom.preorder()[i]), static_cast<int>(i));
  EXPECT_EQ(dom.rpo().front(), cfg.entry());
  EXPECT_EQ(dom.dfs_out(cfg.entry()), 5);
}

TEST(DomTree, UnreachableBlockOnlyInPostDominatorTree) {
  const auto f = build_function({"bra X", "nop", "X:", "ret"});
  const Cfg cfg(f);
  const DomTree dom = DomTree::dominators(cfg);
  const DomTree pdom = DomTree::post_dominators(cfg);
  EXPECT_FALSE(dom.contains(1));
  EXPECT_EQ(dom.idom(1), kNoNode);
  EXPECT_EQ(dom.depth(1), -1);
  EXPECT_FALSE(dom.dominates(0, 1));
  EXPECT_EQ(dom.nearest_common_dominator(0, 1), kNoNode);
  EXPECT_EQ(dom.idom(2), 0);  // the unreachable predecessor does not matter
  EXPECT_TRUE(pdom.contains(1));
  EXPECT_EQ(pdom.idom(1), 2);
}

TEST(DomTree, InfiniteLoopHasPostDominators) {
  const auto f = build_function({"nop", "H:", "@p bra E", "nop", "E:", "nop", "bra H"});
  const Cfg cfg(f);
  const DomTree pdom = DomTree::post_dominators(cfg);
  for (NodeId n = 0; n < cfg.size(); ++n) EXPECT_TRUE(pdom.contains(n)) << n;
  EXPECT_EQ(pdom.idom(1), 3);
  EXPECT_EQ(pdom.idom(2), 3);
  EXPECT_EQ(pdom.idom(3), cfg.exit());
}

// Reference: dominator sets by the textbook data-flow iteration.
std::vector<std::vector<char>> naive_dominators(const GraphView& g) {
  const auto n = static_cast<size_t>(g.size());
  std::vector<char> reach(n, 0);
  std::vector<NodeId> work{g.root};
  reach[static_cast<size_t>(g.root)] = 1;
  while (!work.empty()) {
    const NodeId v = work.back();
    work.pop_back();
    for (NodeId w : (*g.succs)[static_cast<size_t>(v)])
      if (!reach[static_cast<size_t>(w)]) {
        reach[static_cast<size_t>(w)] = 1;
        work.push_back(w);
      }
  }
  std::vector<std::vector<char>> dom(n, std::vector<char>(n, 1));
  for (size_t v = 0; v < n; ++v)
    if (!reach[v]) dom[v].assign(n, 0);
  dom[static_cast<size_t>(g.root)].assign(n, 0);
  dom[static_cast<size_t>(g.root)][static_cast<size_t>(g.root)] = 1;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t v = 0; v < n; ++v) {
      if (!reach[v] || static_cast<NodeId>(v) == g.root) continue;
      std::vector<char> d(n, 1);
      for (NodeId p : (*g.preds)[v])
        if (reach[static_cast<size_t>(p)])
          for (size_t k = 0; k < n; ++k) d[k] = d[k] && dom[static_cast<size_t>(p)][k];
      d[v] = 1;
      if (d != dom[v]) {
        dom[v] = d;
        changed = true;
      }
    }
  }
  return dom;  // dom[b][a]: a dominates b
}

TEST(DomTree, MatchesNaiveDataFlowBothDirectionsOnRandomGraphs) {
  std::mt19937 rng(12345);
  for (int iter = 0; iter < 400; ++iter) {
    const auto f = build_function(test::random_program(rng));
    const Cfg cfg(f);
    for (Direction d : {Direction::kForward, Direction::kBackward}) {
      const DomTree t = DomTree::compute(cfg.view(d), d);
      const auto ref = naive_dominators(cfg.view(d));
      for (NodeId b = 0; b < cfg.size(); ++b)
        for (NodeId a = 0; a < cfg.size(); ++a)
          ASSERT_EQ(t.dominates(a, b), ref[static_cast<size_t>(b)][static_cast<size_t>(a)] != 0)
              << "iter " << iter << " a " << a << " b " << b;
      if (d == Direction::kBackward) {
        for (NodeId n = 0; n < cfg.size(); ++n) ASSERT_TRUE(t.contains(n)) << iter;
      }
    }
  }
}

}  // namespace
}  // namespace simtsync::analysis
