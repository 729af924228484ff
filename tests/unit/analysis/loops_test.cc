#include "analysis/loops.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "function_builder.h"

namespace simtsync::analysis {
namespace {

using test::build_function;
using V = std::vector<NodeId>;
using Edges = std::vector<Edge>;

// The loops as the analysis built them before issue 46: one explicit body per loop, nesting by
// scanning earlier loops. LoopInfo must give exactly this.
struct RefLoop {
  NodeId header;
  V latches, blocks;
  Edges exits;
  int parent = -1, depth = 1;
};

V ref_body(const Cfg& cfg, const DomTree& dom, NodeId h, const V& latches) {
  std::vector<char> in(static_cast<size_t>(cfg.size()), 0);
  in[static_cast<size_t>(h)] = 1;
  V body{h}, work;
  for (NodeId l : latches)
    if (!in[static_cast<size_t>(l)]) {
      in[static_cast<size_t>(l)] = 1;
      body.push_back(l);
      work.push_back(l);
    }
  while (!work.empty()) {
    const NodeId v = work.back();
    work.pop_back();
    for (NodeId p : cfg.preds(v)) {
      if (in[static_cast<size_t>(p)] || !dom.contains(p)) continue;
      in[static_cast<size_t>(p)] = 1;
      body.push_back(p);
      work.push_back(p);
    }
  }
  std::sort(body.begin(), body.end());
  return body;
}

std::vector<RefLoop> ref_loops(const Cfg& cfg, const DomTree& dom, bool split,
                               std::vector<int>& innermost) {
  std::vector<RefLoop> out;
  auto add = [&](NodeId h, V ls, V body) {
    RefLoop l{h, std::move(ls), std::move(body), {}};
    for (NodeId b : l.blocks)
      for (NodeId s : cfg.succs(b))
        if (!std::binary_search(l.blocks.begin(), l.blocks.end(), s) && !cfg.is_virtual_edge(b, s))
          l.exits.emplace_back(b, s);
    std::sort(l.exits.begin(), l.exits.end());
    out.push_back(std::move(l));
  };
  for (NodeId h : dom.preorder()) {
    V latches;
    for (NodeId p : cfg.preds(h))
      if (dom.contains(p) && dom.dominates(h, p)) latches.push_back(p);
    if (latches.empty()) continue;
    std::sort(latches.begin(), latches.end());
    V merged = ref_body(cfg, dom, h, latches);
    if (!split || latches.size() < 2) {
      add(h, latches, merged);
      continue;
    }
    std::vector<V> bodies;
    for (NodeId t : latches) bodies.push_back(ref_body(cfg, dom, h, {t}));
    auto nested = [&](const V& b) {
      for (const auto& o : bodies)
        if (o.size() > b.size() && std::includes(o.begin(), o.end(), b.begin(), b.end()))
          return true;
      return false;
    };
    std::vector<V> inner;
    for (const auto& b : bodies)
      if (b.size() < merged.size() && nested(b) &&
          std::find(inner.begin(), inner.end(), b) == inner.end())
        inner.push_back(b);
    std::stable_sort(inner.begin(), inner.end(),
                     [](const auto& a, const auto& b) { return a.size() > b.size(); });
    add(h, latches, merged);
    for (const auto& b : inner) {
      V ls;
      for (size_t k = 0; k < latches.size(); ++k)
        if (std::includes(b.begin(), b.end(), bodies[k].begin(), bodies[k].end()))
          ls.push_back(latches[k]);
      add(h, ls, b);
    }
  }
  innermost.assign(static_cast<size_t>(cfg.size()), -1);
  for (size_t id = 0; id < out.size(); ++id) {
    RefLoop& l = out[id];
    for (int p = static_cast<int>(id) - 1; p >= 0; --p) {
      const RefLoop& o = out[static_cast<size_t>(p)];
      if (!std::binary_search(o.blocks.begin(), o.blocks.end(), l.header)) continue;
      if (o.header == l.header &&
          !std::includes(o.blocks.begin(), o.blocks.end(), l.blocks.begin(), l.blocks.end()))
        continue;
      l.parent = p;
      break;
    }
    if (l.parent >= 0) l.depth = out[static_cast<size_t>(l.parent)].depth + 1;
    for (NodeId b : l.blocks) innermost[static_cast<size_t>(b)] = static_cast<int>(id);
  }
  return out;
}

// Random programs, and nested shapes with several latches per header, against the reference.
TEST(Loops, SameAsExplicitBodies) {
  std::mt19937 rng(46);
  std::vector<std::vector<std::string>> programs;
  for (int iter = 0; iter < 400; ++iter) programs.push_back(test::random_program(rng));
  programs.push_back({"H:", "nop", "@p bra H", "@p bra H", "I:", "@p bra I", "@p bra H", "ret"});
  programs.push_back({"O:", "S:", "@p bra S", "@p bra X", "@p bra O", "X:", "@p bra O", "ret"});
  for (const auto& prog : programs) {
    const auto f = build_function(prog);
    const Cfg cfg(f);
    const DomTree dom = DomTree::dominators(cfg);
    for (bool split : {false, true}) {
      std::vector<int> innermost;
      const std::vector<RefLoop> want = ref_loops(cfg, dom, split, innermost);
      const LoopInfo li = LoopInfo::compute(cfg, dom, LoopOptions{split});
      ASSERT_EQ(li.loops().size(), want.size());
      for (const Loop& l : li.loops()) {
        const RefLoop& r = want[static_cast<size_t>(l.id)];
        EXPECT_EQ(l.header, r.header);
        EXPECT_EQ(l.latches, r.latches);
        EXPECT_EQ(li.blocks(l.id), r.blocks);
        EXPECT_EQ(l.exit_edges, r.exits);
        EXPECT_EQ(l.parent, r.parent);
        EXPECT_EQ(l.depth, r.depth);
        for (NodeId n = 0; n < cfg.size(); ++n)
          EXPECT_EQ(li.contains(l.id, n), std::binary_search(r.blocks.begin(), r.blocks.end(), n));
      }
      for (NodeId n = 0; n < cfg.size(); ++n) {
        EXPECT_EQ(li.loop_of(n), innermost[static_cast<size_t>(n)]);
        std::vector<int> holding;
        li.for_each_loop_containing(n, [&](int id) { holding.push_back(id); });
        std::sort(holding.begin(), holding.end());
        std::vector<int> ref;
        for (size_t id = 0; id < want.size(); ++id)
          if (std::binary_search(want[id].blocks.begin(), want[id].blocks.end(), n))
            ref.push_back(static_cast<int>(id));
        EXPECT_EQ(holding, ref);
      }
    }
  }
}

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
  EXPECT_EQ(li.blocks(l.id), (V{1, 2}));
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
  EXPECT_EQ(li.blocks(0), V{1});
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
  EXPECT_EQ(li.blocks(outer.id), (V{1, 2, 3, 4}));
  EXPECT_EQ(outer.latches, V{4});
  EXPECT_EQ(outer.children, std::vector<int>{1});
  EXPECT_EQ(outer.exit_edges, (Edges{{4, 5}}));
  EXPECT_EQ(inner.header, 2);
  EXPECT_EQ(li.blocks(inner.id), (V{2, 3}));
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
  EXPECT_EQ(li.blocks(0), V{1});
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
      for (NodeId b : li.blocks(l.id)) EXPECT_TRUE(dom.dominates(l.header, b));
      for (NodeId t : l.latches) EXPECT_TRUE(li.contains(l.id, t));
      for (const Edge& e : l.exit_edges) {
        EXPECT_TRUE(li.contains(l.id, e.first));
        EXPECT_FALSE(li.contains(l.id, e.second));
      }
      if (l.parent >= 0) {
        const Loop& p = li.loop(l.parent);
        EXPECT_LT(l.parent, l.id);
        for (NodeId b : li.blocks(l.id)) EXPECT_TRUE(li.contains(p.id, b));
      }
    }
  }
}

}  // namespace
}  // namespace simtsync::analysis
