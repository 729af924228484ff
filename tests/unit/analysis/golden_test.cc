// Golden tests: every analysis result of each workload kernel, printed, compared with a file in
// tests/unit/analysis/golden/. Regenerate with SIMTSYNC_UPDATE_GOLDEN=1 and review the diff.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "analysis/printer.h"
#include "ptx/parser.h"

namespace simtsync::analysis {
namespace {

std::string describe_module(const ptx::Module& m) {
  std::string out;
  for (const ptx::Function& f : m.functions) {
    if (f.is_declaration) continue;
    const Cfg cfg(f);
    const DomTree dom = DomTree::dominators(cfg);
    const DomTree pdom = DomTree::post_dominators(cfg);
    out += "function " + f.name + "\n";
    out += "-- cfg\n" + format_cfg(cfg);
    out += "-- dominators\n" + format_dom_tree(cfg, dom);
    out += "-- post-dominators\n" + format_dom_tree(cfg, pdom);
    out += "-- loops\n" + format_loops(cfg, LoopInfo::compute(cfg, dom));
    out += "-- reconvergence\n" + format_reconvergence(cfg, ReconvergenceTable::compute(cfg, pdom));
  }
  return out;
}

class Golden : public ::testing::TestWithParam<const char*> {};

TEST_P(Golden, MatchesFile) {
  const std::string root = SIMTSYNC_SOURCE_DIR;
  const std::string name = GetParam();
  const std::string actual =
      describe_module(ptx::load_module_file(root + "/workloads/" + name + "/" + name + ".ptx"));
  const std::string golden = root + "/tests/unit/analysis/golden/" + name + ".txt";
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

INSTANTIATE_TEST_SUITE_P(Workloads, Golden,
                         ::testing::Values("vecadd", "ht", "naive_lock", "recursion"));

}  // namespace
}  // namespace simtsync::analysis
