#include "config/schema.h"

#include <gtest/gtest.h>

#include <set>

#include "config/config.h"
#include "config_test_util.h"
#include "timing/sched/i_warp_scheduler.h"

namespace simtsync::config {
namespace {

TEST(Schema, RegistrationOrderAndLookup) {
  Schema s;
  s.add_int("a.count", 3, 1, 8, "a count")
      .add_float("a.rate", 0.5, 0, 1, "a rate")
      .add_bool("b.flag", true, "a flag")
      .add_choice("b.kind", "x", {"x", "y"}, "a kind", "somewhere");
  ASSERT_EQ(s.keys().size(), 4u);
  EXPECT_EQ(s.keys()[0].key, "a.count");
  EXPECT_EQ(s.keys()[3].key, "b.kind");
  EXPECT_EQ(s.find("a.rate")->type, Type::kFloat);
  EXPECT_EQ(s.find("b.flag")->default_value, "true");
  EXPECT_EQ(s.find("b.kind")->source, "somewhere");
  EXPECT_EQ(s.find("a"), nullptr);
  EXPECT_TRUE(s.is_group("a"));
  EXPECT_FALSE(s.is_group("a.count"));
  EXPECT_FALSE(s.is_group("c"));
  EXPECT_EQ(s.index_of("b.flag"), 2);
  EXPECT_EQ(s.closest("a.cuont"), "a.count");
  EXPECT_EQ(s.closest("zzzzzzzzzzzz"), "");
}

TEST(Schema, ACustomSchemaLoadsAndValidatesFiles) {
  Schema s;
  s.add_int("a.count", 3, 1, 8, "a count").add_choice("b.kind", "x", {"x", "y"}, "a kind");
  EXPECT_EQ(Config::defaults(s).get_int("a.count"), 3);
  testing::TempYaml f("a: {count: 5}\n");
  Config c = Config::load(s, f.path(), {{"b.kind", "y"}});
  EXPECT_EQ(c.get_int("a.count"), 5);
  EXPECT_EQ(c.get_string("b.kind"), "y");
  EXPECT_NE(testing::usage_message([&] { Config::load(s, f.path(), {{"a.count", "9"}}); })
                .find("'a.count'"),
            std::string::npos);
}

TEST(SchemaDeathTest, SchemaBugsStopAtStartUp) {
  EXPECT_DEATH(Schema().add_int("a.b", 9, 0, 8, "d"), "default out of range");
  EXPECT_DEATH(Schema().add_int("a.b", 1, 0, 8, ""), "no description");
  EXPECT_DEATH(Schema().add_int("a.b", 1, 0, 8, "d").add_int("a.b", 1, 0, 8, "d"), "twice");
  EXPECT_DEATH(Schema().add_int("a.b", 1, 0, 8, "d").add_int("a.b.c", 1, 0, 8, "d"), "clashes");
  EXPECT_DEATH(Schema().add_choice("a.b", "z", {"x"}, "d"), "not among the choices");
  EXPECT_DEATH(Schema().add_int("A.b", 1, 0, 8, "d"), "dotted name");
}

TEST(GpuSchema, EveryKeyIsDescribedAndSourced) {
  std::set<std::string> seen;
  for (const KeyInfo& k : gpu_schema().keys()) {
    EXPECT_TRUE(seen.insert(k.key).second) << k.key;
    EXPECT_GE(k.description.size(), 10u) << k.key;
    EXPECT_FALSE(k.source.empty()) << k.key << " has no source for its default";
  }
}

TEST(GpuSchema, HasTheKeysTheTimingModelReads) {
  for (const char* key : {"gpu.num_sms",
                          "gpu.core_clock_mhz",
                          "gpu.warp_size",
                          "sm.max_threads",
                          "sm.max_warps",
                          "sm.max_ctas",
                          "sm.registers",
                          "sm.shared_memory_bytes",
                          "sm.num_schedulers",
                          "sm.simd_width",
                          "sm.ibuffer_slots",
                          "sm.fetch_width",
                          "sm.fetch_decode",
                          "sm.fetch_empty_only",
                          "sm.fetch_past_control",
                          "sm.warp_scheduler.impl",
                          "sm.warp_scheduler.rotation_period",
                          "sm.warp_scheduler.active_set",
                          "sm.fetch_policy.impl",
                          "sm.reconvergence.impl",
                          "sm.icache.size_bytes",
                          "sm.icache.line_bytes",
                          "sm.icache.assoc",
                          "sm.icache.hit_latency",
                          "sm.icache.miss_latency",
                          "sm.units.sp",
                          "sm.units.sfu",
                          "sm.units.ldst",
                          "sm.units.dp",
                          "sm.latency.int",
                          "sm.latency.imul",
                          "sm.latency.idiv",
                          "sm.latency.fp",
                          "sm.latency.fp_div",
                          "sm.latency.dp",
                          "sm.latency.sfu",
                          "sm.latency.ctrl",
                          "sm.latency.ldst_issue",
                          "sm.ii.int",
                          "sm.ii.imul",
                          "sm.ii.idiv",
                          "sm.ii.fp",
                          "sm.ii.fp_div",
                          "sm.ii.dp",
                          "sm.ii.sfu",
                          "mem.model",
                          "mem.simple.latency",
                          "mem.simple.atomic_latency",
                          "mem.simple.bytes_per_cycle",
                          "mem.simple.queue_depth",
                          "sm.shared.latency",
                          "sm.shared.banks",
                          "compile.registers_per_thread",
                          "watchdog.max_cycles",
                          "watchdog.no_completion_window",
                          "watchdog.quiet_steps",
                          "watchdog.max_steps"}) {
    EXPECT_NE(gpu_schema().find(key), nullptr) << key;
  }
  // The choices are the rows of schedulers.def, in order.
  EXPECT_EQ(gpu_schema().find("sm.warp_scheduler.impl")->choices, sched::scheduler_names());
}

TEST(GpuSchema, DefaultsAreAValidConfig) {
  Config c = Config::defaults(gpu_schema());
  EXPECT_EQ(c.get_int("gpu.warp_size"), 32);
  EXPECT_EQ(c.get_int("sm.ibuffer_slots"), 2);
  EXPECT_EQ(c.get_int("watchdog.quiet_steps"), 1000000);
  EXPECT_EQ(c.get_string("mem.model"), "hierarchy");
  EXPECT_FALSE(c.get_bool("sm.icache.perfect"));
  EXPECT_EQ(c.origin("gpu.num_sms"), "default");
}

}  // namespace
}  // namespace simtsync::config
