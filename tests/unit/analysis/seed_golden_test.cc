// Golden tests for the SIMT-deadlock analyses on the seeds' examples (tests/golden/): each
// NAME.cu states the expected verdict, NAME.ptx is its nvcc -O3 output, NAME.expected.txt the
// report (Algorithm 1 and 2). Regenerate with SIMTSYNC_UPDATE_GOLDEN=1 and review the diff.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "analysis/deadlock_analysis.h"
#include "ptx/parser.h"

namespace simtsync::analysis {
namespace {

struct Verdicts {
  std::string text;
  int flagged = 0;
};

// As `simtsync analyze` reports a module: kernels and uncalled functions, calls inlined.
Verdicts analyse(const ptx::Module& m, DeadlockOptions o = {}) {
  Verdicts v;
  AnalysisOptions ao;
  ao.detect = o;
  for (const ptx::Function& f : m.functions) {
    if (f.is_declaration) continue;
    if (!f.is_entry) {
      bool called = false;
      for (const auto& g : m.functions)
        for (const auto& in : g.insts)
          for (const auto& op : in.operands)
            called |= in.opcode == ptx::Opcode::kCall && op.kind == ptx::Operand::Kind::kSymbol &&
                      op.name == f.name;
      if (called) continue;
    }
    const FunctionAnalysis a(m, f, ao);
    v.text += format_deadlock(a.report());
    v.flagged += a.deadlock().num_flagged();
  }
  return v;
}

std::string dir() {
  return std::string(SIMTSYNC_SOURCE_DIR) + "/tests/golden/";
}

class SeedGolden : public ::testing::TestWithParam<const char*> {};

TEST_P(SeedGolden, MatchesExpected) {
  const std::string name = GetParam();
  const ptx::Module m = ptx::load_module_file(dir() + name + ".ptx");
  // Paths in reports are the file names only, so the text does not depend on the checkout.
  const std::string actual = analyse(m).text;
  const std::string golden = dir() + name + ".expected.txt";
  if (std::getenv("SIMTSYNC_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(golden) << actual;
    GTEST_SKIP() << "updated " << golden;
  }
  std::ifstream in(golden);
  ASSERT_TRUE(in) << "missing " << golden << " (run with SIMTSYNC_UPDATE_GOLDEN=1)";
  std::stringstream expected;
  expected << in.rdbuf();
  EXPECT_EQ(actual, expected.str());
}

INSTANTIATE_TEST_SUITE_P(Seeds, SeedGolden,
                         ::testing::Values("seed003_fig1_spinlock", "seed003_fig3_simt_lock",
                                           "seed003_fig4_nested", "seed004_ex5_lock",
                                           "seed004_ex7_radiosity", "seed004_ex8_semaphore",
                                           "issue13_nested_lock", "issue13_spin_O0G",
                                           "issue13_single_lane", "issue13_cta_uniform",
                                           "issue50_tree_build", "issue50_idioms"));

// The verdicts the seeds give, independent of the exact report text.
TEST(SeedVerdicts, AsPublished) {
  auto flagged = [](const char* n) {
    return analyse(ptx::load_module_file(dir() + n + ".ptx")).flagged;
  };
  EXPECT_EQ(flagged("seed003_fig1_spinlock"), 1);   // seed 003 sec. III-A: detected
  EXPECT_EQ(flagged("seed003_fig3_simt_lock"), 0);  // seed 003 sec. III-A: not detected
  EXPECT_EQ(flagged("seed003_fig4_nested"), 1);     // the inner wait loop
  EXPECT_EQ(flagged("seed004_ex5_lock"), 0);        // seed 004 Example 5 works on SIMT
  EXPECT_GE(flagged("seed004_ex7_radiosity"), 1);   // the LOCK() spin loop (A)
  EXPECT_EQ(flagged("seed004_ex8_semaphore"), 1);   // the semaphore wait loop
}

TEST(SeedVerdicts, Fig1SafePdomFollowsTheRelease) {
  const ptx::Module m = ptx::load_module_file(dir() + "seed003_fig1_spinlock.ptx");
  const ptx::Function& f = m.functions.front();
  const Cfg cfg(f);
  const DomTree dom = DomTree::dominators(cfg), pdom = DomTree::post_dominators(cfg);
  const LoopInfo loops = LoopInfo::compute(cfg, dom);
  const SimtDeadlock dl = SimtDeadlock::compute({&cfg, &dom, &pdom, &loops, &m});
  const SafePdom safe = SafePdom::compute(cfg, pdom, loops, dl);
  ASSERT_EQ(dl.verdicts().size(), 1u);
  ASSERT_EQ(dl.verdicts()[0].redefs.size(), 1u);
  const int w = dl.verdicts()[0].redefs[0].inst;
  EXPECT_EQ(f.insts[static_cast<size_t>(w)].opcode, ptx::Opcode::kAtom);
  ASSERT_TRUE(safe.safe(0).has_value());
  EXPECT_EQ(safe.safe(0)->inst, w + 1);  // the instruction right after atomicExch
}

TEST(SeedVerdicts, AwareModeIgnoresParallelWrites) {
  const ptx::Module m = ptx::load_module_file(dir() + "seed004_ex7_radiosity.ptx");
  DeadlockOptions o;
  o.parallel = false;
  const Verdicts v = analyse(m, o);
  EXPECT_NE(v.text.find("parallel blocks ignored"), std::string::npos);
  EXPECT_EQ(v.text.find("(parallel)"), std::string::npos);
}

}  // namespace
}  // namespace simtsync::analysis
