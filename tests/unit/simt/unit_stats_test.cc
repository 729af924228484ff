// A reconvergence unit's statistics are declared once, in its declare function: every unit keeps
// exactly the counters it declares, the executor sums them over finished warps as declared, and
// the output (JSON, text) shows the selected unit's counters under "reconvergence" and nothing
// for a unit that declares none.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "config/config.h"
#include "func/device.h"
#include "parity_branch_kernel.h"
#include "ptx/parser.h"
#include "simt/registry.h"
#include "stats/exec_report.h"

namespace simtsync::simt {
namespace {

UnitChoice unit(const std::string& impl) {
  return reconvergence_choice(
      config::Config::load(config::gpu_schema(), "gtx480", {{"sm.reconvergence.impl", impl}}));
}

TEST(UnitStats, EveryUnitCollectsExactlyWhatItDeclares) {
  for (const auto& row : reconvergence_units()) {
    SCOPED_TRACE(row.name);
    const UnitChoice u = unit(row.name);
    ASSERT_NE(u.stats, nullptr);
    EXPECT_EQ(u.stats, &reconvergence_stats(row.name));
    std::set<std::string> names;
    for (const auto& d : *u.stats) EXPECT_TRUE(names.insert(d.name).second) << d.name;
    const auto made = u.create(0, 0xf);
    std::vector<std::uint64_t> v(u.stats->size(), 0);
    EXPECT_NO_THROW(made->collect(v));
    if (!v.empty()) {
      // A count that differs from the declarations is a bug the unit reports.
      std::vector<std::uint64_t> w(v.size() + 1, 0);
      EXPECT_THROW(made->collect(w), std::logic_error);
    }
  }
  // The stack declares nothing; lock_stack keeps lock_entry_pushes, the try-lock and the
  // finite-stack counters.
  EXPECT_TRUE(reconvergence_stats("ipdom_stack").empty());
  ASSERT_EQ(reconvergence_stats("lock_stack").size(), 11u);
  EXPECT_EQ(reconvergence_stats("lock_stack")[0].name, "lock_entry_pushes");
  EXPECT_EQ(reconvergence_stats("lock_stack")[3].name, "try_lock_acquired");
  EXPECT_EQ(reconvergence_stats("lock_stack")[6].name, "stack_spills");
}

func::LaunchResult run(const std::string& impl) {
  return test_kernels::run_parity_branch(reconvergence_choice(impl));
}

TEST(UnitStats, TheExecutorSumsTheCountersOfFinishedWarps) {
  const func::LaunchResult r = run("multipath");
  const func::UnitCounters& u = r.stats.reconvergence;
  EXPECT_EQ(u.unit, "multipath");
  ASSERT_EQ(u.values.size(), reconvergence_stats("multipath").size());
  EXPECT_EQ(u.get("splits"), 4u);  // two per divergent branch, one branch per warp
  EXPECT_EQ(u.get("reconverged"), 2u);
  EXPECT_EQ(u.get("timeouts"), 0u);
  std::uint64_t sampled = 0;
  for (const char* b : {"0", "1", "2", "3_4", "5_8", "9_16", "17_up"})
    sampled += u.get(std::string("st_occ_") + b);
  EXPECT_GT(sampled, 0u);
  EXPECT_EQ(u.get("no_such_statistic"), 0u);

  const nlohmann::json j = stats::exec_stats_json(r.stats, 32);
  EXPECT_EQ(j["reconvergence"]["unit"], "multipath");
  EXPECT_EQ(j["reconvergence"]["stats"]["splits"], 4u);
  EXPECT_EQ(j["reconvergence"]["stats"].size(), u.values.size());
  EXPECT_FALSE(j.contains("unit_splits"));
  const std::string table = stats::exec_stats_table(r.stats, 32);
  EXPECT_NE(table.find("multipath.splits"), std::string::npos) << table;
  EXPECT_NE(table.find("multipath.rt_occ_17_up"), std::string::npos) << table;
}

TEST(UnitStats, AUnitWithoutStatisticsShowsNone) {
  const func::LaunchResult r = run("ipdom_stack");
  EXPECT_TRUE(r.stats.reconvergence.values.empty());
  EXPECT_FALSE(stats::exec_stats_json(r.stats, 32).contains("reconvergence"));
  EXPECT_EQ(stats::exec_stats_table(r.stats, 32).find("ipdom_stack."), std::string::npos);
}

TEST(UnitStats, LaunchTotalsSumPerDeclaration) {
  func::ExecStats a = run("its").stats, b = run("its").stats;
  const std::uint64_t splits = a.reconvergence.get("splits");
  EXPECT_GT(splits, 0u);
  func::ExecStats total;
  func::accumulate(total, a);
  func::accumulate(total, b);
  EXPECT_EQ(total.reconvergence.unit, "its");
  EXPECT_EQ(total.reconvergence.get("splits"), 2 * splits);
}

}  // namespace
}  // namespace simtsync::simt
