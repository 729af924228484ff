// The statistics output follows the declarations: every declared SM counter reaches the GPU
// totals (sm_total) summed as declared, the counters marked for the table (and only those) are
// table rows, and every declared hierarchy counter and derived value is in the JSON.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "stats/declared.h"
#include "stats/timing_report.h"
#include "timing/mem/mem_unit_registry.h"

namespace simtsync::stats {
namespace {

// Two SMs whose counters are all distinct: SM i's k-th counter is (k + 1) * (i + 1).
gpu::TimingTotals two_sms() {
  gpu::TimingTotals t;
  t.sm.resize(2);
  t.icache.resize(2);
  for (std::size_t i = 0; i < 2; ++i) {
    std::uint64_t k = 0;
    for (const auto& f : sm::kSmStatFields) {
      std::uint64_t* v = f.at(t.sm[i]);
      for (unsigned e = 0; e < f.count; ++e) v[e] = (++k) * (i + 1);
    }
  }
  return t;
}

TEST(StatsReport, EveryDeclaredSmCounterReachesTheTotalsAsDeclared) {
  const gpu::TimingTotals t = two_sms();
  const nlohmann::json j = timing_stats_json(t, 32)["sm_total"];
  std::uint64_t k = 0;
  for (const auto& f : sm::kSmStatFields)
    for (unsigned e = 0; e < f.count; ++e) {
      ++k;
      const std::uint64_t want = f.sum == StatSum::kMax ? 2 * k : 3 * k;
      const nlohmann::json& got = f.count == 1 ? j[f.name] : j[f.name][f.labels[e]];
      EXPECT_EQ(got, want) << f.name;
    }
}

TEST(StatsReport, SchedulerAndICacheCountersHaveGpuTotals) {
  gpu::TimingTotals t = two_sms();
  for (std::size_t i = 0; i < 2; ++i) {
    t.sm[i].sched.resize(2);
    t.sm[i].sched[1].issued = 5 * (i + 1);
    t.icache[i].misses = 7 * (i + 1);
  }
  const nlohmann::json j = timing_stats_json(t, 32);
  EXPECT_EQ(j["sched_total"]["issued"], 15u);
  EXPECT_EQ(j["icache_total"]["misses"], 21u);
}

TEST(StatsReport, OnlyTheMarkedSmCountersAreTableRows) {
  const std::string table = timing_stats_table(two_sms(), 32);
  unsigned shown = 0;
  for (const auto& f : sm::kSmStatFields)
    for (unsigned e = 0; e < f.count; ++e) {
      const std::string name =
          f.count == 1 ? std::string(f.name) : std::string(f.name) + "." + f.labels[e];
      const bool row = table.find("\n  " + name + " ") != std::string::npos;
      EXPECT_EQ(row, f.shown) << name;
      shown += f.shown;
    }
  EXPECT_GT(shown, 0u);
}

TEST(StatsReport, HierarchyJsonHasEveryDeclaredCounterAndDerivedValue) {
  mem::HierarchyStats h;
  h.latency_sum[1] = 300;
  h.transactions_served[1] = 4;
  h.l2.hits = 3;
  h.l2.misses = 1;
  h.units.push_back(
      {"atomic", std::vector<std::uint64_t>(mem::mem_unit_stats("atomic").size(), 2)});
  const nlohmann::json j = hierarchy_json(h);
  for (const auto& f : mem::kHierarchyStatFields) EXPECT_TRUE(j.contains(f.name)) << f.name;
  EXPECT_DOUBLE_EQ(j["avg_latency"]["l2_hit"].get<double>(), 75.0);
  EXPECT_DOUBLE_EQ(j["l2"]["hit_rate"].get<double>(), 0.75);
  for (const char* d : {"row_hit_rate", "bandwidth_utilization", "avg_read_latency"})
    EXPECT_TRUE(j["dram"].contains(d)) << d;
  EXPECT_TRUE(j["icnt_reply"].contains("avg_latency"));
  EXPECT_DOUBLE_EQ(j["atomic"]["avg_queue_wait"].get<double>(), 1.0);
}

// True when `table` has a row named `name`.
bool has_row(const std::string& table, const std::string& name) {
  return table.find("\n  " + name + " ") != std::string::npos;
}

TEST(StatsReport, TheMemoryModelsMarkedRowsAreTableRowsAndItsOwnJson) {
  gpu::TimingTotals t = two_sms();
  t.has_hierarchy = true;
  t.hier.units.push_back(
      {"atomic", std::vector<std::uint64_t>(mem::mem_unit_stats("atomic").size(), 2)});
  std::string table = timing_stats_table(t, 32);
  for (const auto& f : mem::kHierarchyStatFields)
    for (unsigned e = 0; e < f.count; ++e)
      EXPECT_EQ(has_row(table, "mem." + std::string(f.name) +
                                   (f.count == 1 ? "" : std::string(".") + f.labels[e])),
                f.shown)
          << f.name;
  for (const auto& d : mem::kCacheDerived)
    EXPECT_EQ(has_row(table, std::string("l2.") + d.name), d.show != StatShow::kHidden);
  for (const auto& d : mem::kDramDerived)
    EXPECT_EQ(has_row(table, std::string("dram.") + d.name), d.show != StatShow::kHidden);
  EXPECT_TRUE(has_row(table, "atomic.avg_queue_wait"));
  nlohmann::json j = timing_stats_json(t, 32);
  EXPECT_TRUE(j.contains("memory"));
  EXPECT_FALSE(j.contains("mem"));  // the simple model's counters
  t.has_hierarchy = false;
  t.mem.transactions = 9;
  table = timing_stats_table(t, 32);
  j = timing_stats_json(t, 32);
  EXPECT_FALSE(j.contains("memory"));
  EXPECT_EQ(j["mem"]["transactions"], 9u);
  for (const auto& f : mem::kSimpleMemoryStatFields)
    EXPECT_EQ(has_row(table, "mem." + std::string(f.name)), f.shown) << f.name;
  EXPECT_FALSE(has_row(table, "l2.hit_rate"));
}

TEST(StatsReport, SyncStatusIsDeclaredOncePerSmAndSummed) {
  gpu::TimingTotals t = two_sms();
  t.sync.resize(2);
  t.sync[0] = {3, 1, 2, 5, 7};
  t.sync[1] = {1, 0, 1, 1, 1};
  const nlohmann::json j = timing_stats_json(t, 32);
  EXPECT_EQ(j["sync_status"]["lock_success"], 4u);
  EXPECT_EQ(j["sync_status"]["lock_fail_inter_warp"], 3u);
  EXPECT_DOUBLE_EQ(j["sync_status"]["lock_attempts"].get<double>(), 8.0);
  EXPECT_DOUBLE_EQ(j["sync_status"]["wait_fail_rate"].get<double>(), 8.0 / 14.0);
  EXPECT_EQ(j["sm"][1]["sync_status"]["wait_success"], 1u);
  const std::string table = timing_stats_table(t, 32);
  std::string row = table_row("sync.lock_attempts", "8", "");
  row.pop_back();  // the newline after the empty description
  EXPECT_NE(table.find(row), std::string::npos) << table;
  EXPECT_FALSE(timing_stats_json(two_sms(), 32).contains("sync_status"));  // not tracked
}

TEST(StatsReport, RecordSummariesComeFromTheirDeclarations) {
  gpu::TimingTotals t = two_sms();
  auto branch = [](double annotated, double confirmed) {
    return sched::PolicyRecord{
        "ddos_branch",
        {{"annotated", annotated}, {"confirmed", confirmed}, {"first", 0}, {"last", 10}}};
  };
  t.records.push_back({"k", 0, 0, branch(1, 5)});
  t.records.push_back({"k", 0, 1, branch(1, -1)});
  t.records.push_back({"k", 0, 1, branch(0, -1)});
  const nlohmann::json j = timing_stats_json(t, 32);
  EXPECT_DOUBLE_EQ(j["ddos"]["tsdr"].get<double>(), 0.5);
  EXPECT_EQ(j["ddos"]["sibs"], 2);
  EXPECT_EQ(j["ddos"]["non_sibs"], 1);
  const std::string table = timing_stats_table(t, 32);
  EXPECT_TRUE(has_row(table, "ddos.tsdr"));
  EXPECT_TRUE(has_row(table, "ddos.sibs_confirmed"));
  EXPECT_FALSE(has_row(table, "ddos.dpr_false"));  // declared kHidden
  EXPECT_FALSE(timing_stats_json(two_sms(), 32).contains("ddos"));
}

}  // namespace
}  // namespace simtsync::stats
