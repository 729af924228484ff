#include "analysis/printer.h"

#include <gtest/gtest.h>

#include "function_builder.h"

namespace simtsync::analysis {
namespace {

TEST(Printer, AllResultsOfASpinLockInALoop) {
  const auto f = test::build_function(
      {"nop", "L:", "nop", "@p bra L", "nop", "@p bra X", "U:", "bra U", "X:", "ret"});
  const Cfg cfg(f);
  const DomTree dom = DomTree::dominators(cfg);
  const DomTree pdom = DomTree::post_dominators(cfg);
  EXPECT_EQ(format_cfg(cfg),
            "BB0 [0,1) -> L\n"
            "L [1,3) -> L BB2\n"
            "BB2 [3,5) -> X U\n"
            "U [5,6) -> U EXIT(virtual)\n"
            "X [6,7) -> EXIT\n"
            "ENTRY -> BB0\n"
            "EXIT ->\n");
  EXPECT_EQ(format_dom_tree(cfg, dom),
            "BB0 idom ENTRY\n"
            "L idom BB0\n"
            "BB2 idom L\n"
            "U idom BB2\n"
            "X idom BB2\n"
            "ENTRY idom -\n"
            "EXIT idom BB2\n");
  EXPECT_EQ(format_dom_tree(cfg, pdom),
            "BB0 idom L\n"
            "L idom BB2\n"
            "BB2 idom EXIT\n"
            "U idom EXIT\n"
            "X idom EXIT\n"
            "ENTRY idom BB0\n"
            "EXIT idom -\n");
  EXPECT_EQ(format_loops(cfg, LoopInfo::compute(cfg, dom)),
            "loop 0 header L depth 1 parent -\n"
            "  blocks L\n"
            "  latches L\n"
            "  exits BB2\n"
            "  exiting branches 0x10\n"
            "loop 1 header U depth 1 parent -\n"
            "  blocks U\n"
            "  latches U\n"
            "  exits\n"
            "  exiting branches\n");
  EXPECT_EQ(format_reconvergence(cfg, ReconvergenceTable::compute(cfg, pdom)),
            "pc 0x10 (inst 2, L) -> BB2 pc 0x18\n"
            "pc 0x20 (inst 4, BB2) -> EXIT pc EXIT\n"
            "pc 0x28 (inst 5, U) -> EXIT pc EXIT\n");
}

}  // namespace
}  // namespace simtsync::analysis
