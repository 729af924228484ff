// The test-only reconvergence unit example_depth (src/simt/impl/example_depth.cc): the IPDOM
// stack, unchanged, with a key of its own (sm.reconvergence.deep_threshold) and three declared
// statistics, one of which sums as a maximum over warps.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "config/config.h"
#include "func/device.h"
#include "parity_branch_kernel.h"
#include "ptx/parser.h"
#include "simt/registry.h"
#include "test_pcs.h"

namespace simtsync::simt {
namespace {

using test_pcs::P;

UnitChoice example(const std::string& deep_threshold = "") {
  std::vector<std::pair<std::string, std::string>> sets{{"sm.reconvergence.impl", "example_depth"}};
  if (!deep_threshold.empty()) sets.emplace_back("sm.reconvergence.deep_threshold", deep_threshold);
  return reconvergence_choice(config::Config::load(config::gpu_schema(), "gtx480", sets));
}

std::uint64_t stat(const IReconvergence& u, const std::string& name) {
  const auto& decl = reconvergence_stats("example_depth");
  std::vector<std::uint64_t> v(decl.size());
  u.collect(v);
  for (size_t i = 0; i < decl.size(); ++i)
    if (decl[i].name == name) return v[i];
  ADD_FAILURE() << "example_depth declares no statistic " << name;
  return 0;
}

TEST(ExampleDepth, DeclaresItsKeyAndStatistics) {
  EXPECT_EQ(example().params.get_int("deep_threshold"), 3);  // the declared default
  EXPECT_EQ(example("2").params.get_int("deep_threshold"), 2);
  const auto& decl = reconvergence_stats("example_depth");
  ASSERT_EQ(decl.size(), 3u);
  EXPECT_EQ(decl[0].name, "divergent_branches");
  EXPECT_EQ(decl[1].name, "deep_branches");
  EXPECT_EQ(decl[2].name, "max_depth");
  EXPECT_EQ(decl[2].sum, StatSum::kMax);
}

// An if/else whose not-taken path holds a second if/else: the stack grows 1 -> 3 -> 5.
TEST(ExampleDepth, CountsDivergentBranchesAndTheDeepestStack) {
  const auto s = example("2").create(P(0), 0b1111);
  EXPECT_EQ(s->name(), "example_depth");
  s->branch(0b1111, P(1), P(1), P(1));  // uniform: not counted
  s->branch(0b0011, P(8), P(2), P(9));  // divergent at depth 1: below the threshold
  EXPECT_EQ(s->entries().size(), 3u);
  EXPECT_EQ(s->active(), 0b1100u);
  s->branch(0b0100, P(5), P(3), P(7));  // divergent at depth 3: deep
  EXPECT_EQ(s->entries().size(), 5u);
  EXPECT_EQ(stat(*s, "divergent_branches"), 2u);
  EXPECT_EQ(stat(*s, "deep_branches"), 1u);
  EXPECT_EQ(stat(*s, "max_depth"), 5u);
  // The stack underneath behaves as ipdom_stack: the same entries after the same outcomes.
  const auto ref = reconvergence_choice("ipdom_stack").create(P(0), 0b1111);
  ref->branch(0b1111, P(1), P(1), P(1));
  ref->branch(0b0011, P(8), P(2), P(9));
  ref->branch(0b0100, P(5), P(3), P(7));
  ASSERT_EQ(ref->entries().size(), s->entries().size());
  for (size_t i = 0; i < ref->entries().size(); ++i) {
    EXPECT_EQ(ref->entries()[i].pc, s->entries()[i].pc);
    EXPECT_EQ(ref->entries()[i].mask, s->entries()[i].mask);
  }
}

// Two warps, each splitting once at a branch on the thread's parity (stack depth 3).
TEST(ExampleDepth, TheExecutorAddsOrMaxesAsDeclared) {
  for (const char* threshold : {"1", "3"}) {
    SCOPED_TRACE(threshold);
    const func::LaunchResult r = test_kernels::run_parity_branch(example(threshold));
    ASSERT_TRUE(r.completed) << r.watchdog_report;
    const func::UnitCounters& u = r.stats.reconvergence;
    EXPECT_EQ(u.unit, "example_depth");
    EXPECT_EQ(u.get("divergent_branches"), 2u);  // added over the two warps
    EXPECT_EQ(u.get("divergent_branches"), r.stats.divergent_branches);
    EXPECT_EQ(u.get("deep_branches"), std::string(threshold) == "1" ? 2u : 0u);
    EXPECT_EQ(u.get("max_depth"), 3u);  // the maximum over the warps, not their sum
  }
}

}  // namespace
}  // namespace simtsync::simt
