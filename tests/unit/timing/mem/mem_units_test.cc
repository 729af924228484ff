// The memory-side unit family (i_mem_unit.h, mem_units.def): the table, the schema it adds, the
// declared statistics and ratios, and a hierarchy built from a config's choices.
#include <gtest/gtest.h>

#include <string>

#include "config/config.h"
#include "config/schema.h"
#include "stats/declared.h"
#include "timing/mem/mem_unit_registry.h"
#include "timing/mem/memory_hierarchy.h"

namespace simtsync::mem {
namespace {

TEST(MemUnits, TableRowsDeclareKeysUnderTheirOwnGroup) {
  std::vector<std::string> names;
  for (const auto& r : mem_units()) names.push_back(r.name);
  ASSERT_GE(names.size(), 2u);
  EXPECT_EQ(names[0], "atomic");
  EXPECT_EQ(names[1], "lock_queue");
  const config::Schema& s = config::gpu_schema();
  for (const auto& r : mem_units()) {
    config::PluginDecl d(nullptr, mem_unit_prefix(r.name), r.name);
    r.declare(d);
    EXPECT_FALSE(d.keys().empty()) << r.name;
    for (const auto& k : d.keys())
      EXPECT_NE(s.find("mem." + r.name + "." + k), nullptr) << r.name << "." << k;
  }
  // The keys sit where they always did: after the L2's, before DRAM's.
  EXPECT_LT(s.index_of("mem.l2.input_queue"), s.index_of("mem.atomic.queue"));
  EXPECT_LT(s.index_of("mem.atomic.l2_access"), s.index_of("mem.lock_queue.mode"));
  EXPECT_LT(s.index_of("mem.lock_queue.backoff"), s.index_of("mem.dram.banks"));
}

TEST(MemUnits, RatiosAreComputedFromTheSummedCounters) {
  const auto& decl = mem_unit_stats("atomic");
  const auto& ratios = mem_unit_ratios("atomic");
  ASSERT_EQ(ratios.size(), 1u);
  std::vector<std::uint64_t> v(decl.size(), 0);
  for (size_t i = 0; i < decl.size(); ++i) {
    if (decl[i].name == "packets") v[i] = 4;
    if (decl[i].name == "queue_wait_cycles") v[i] = 10;
  }
  const nlohmann::json j = stats::plugin_json(decl, ratios, v);
  EXPECT_EQ(j["packets"], 4u);
  EXPECT_DOUBLE_EQ(j["avg_queue_wait"].get<double>(), 2.5);
  v.assign(decl.size(), 0);
  EXPECT_DOUBLE_EQ(stats::plugin_json(decl, ratios, v)["avg_queue_wait"].get<double>(), 0.0);
}

TEST(MemUnits, ConfigPlacesOnlyTheUnitsItsKeysSelect) {
  auto build = [](const std::vector<std::pair<std::string, std::string>>& sets) {
    const config::Config c = config::Config::load(config::gpu_schema(), "gtx480", sets);
    HierarchyParams p;
    p.num_sms = 2;
    p.map.partitions = 2;
    p.map.slices_per_partition = 2;
    p.units = mem_unit_choices(c);
    MemoryHierarchy h(p, [](const MemRequest&, std::uint64_t lanes, bool) { return lanes; });
    return std::pair{h.lock_queuing(), h.stats()};
  };
  auto names = [](const HierarchyStats& s) {
    std::string out;
    for (const auto& u : s.units) out += u.name + " ";
    return out;
  };
  auto [lq_off, plain] = build({});
  EXPECT_FALSE(lq_off);
  EXPECT_EQ(names(plain), "atomic ");
  EXPECT_EQ(unit_stat(plain, "lock_queue", "parked"), 0u);  // not placed: 0
  auto [lq_on, queued] =
      build({{"mem.lock_queue.mode", "ideal"}, {"mem.example_throttle.placement", "partition"}});
  EXPECT_TRUE(lq_on);
  EXPECT_EQ(names(queued), "atomic lock_queue example_throttle ");
  for (const auto& u : queued.units) EXPECT_EQ(u.values.size(), mem_unit_stats(u.name).size());
}

}  // namespace
}  // namespace simtsync::mem
