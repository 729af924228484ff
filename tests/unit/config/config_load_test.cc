#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "config/config.h"
#include "config/embedded.h"
#include "config_test_util.h"

namespace simtsync::config {
namespace {

using testing::expect_mentions;
using testing::TempYaml;
using testing::usage_message;

Config load_text(const std::string& yaml,
                 const std::vector<std::pair<std::string, std::string>>& sets = {}) {
  TempYaml f(yaml);
  return Config::load(gpu_schema(), f.path(), sets);
}

std::string load_error(const std::string& yaml, const std::vector<std::string>& pieces) {
  TempYaml f(yaml);
  std::string msg = usage_message([&] { Config::load(gpu_schema(), f.path()); });
  expect_mentions(msg, pieces);
  expect_mentions(msg, {f.file_name()});
  return msg;
}

TEST(ShippedConfigs, AllLoad) {
  EXPECT_EQ(shipped_config_names(),
            (std::vector<std::string>{"fx5800", "gtx1080ti", "gtx480", "h100", "qv100",
                                      "tesla_c2050", "tiny"}));
  for (const std::string& name : shipped_config_names()) {
    Config c = Config::load(gpu_schema(), name);
    EXPECT_EQ(c.name(), name);
  }
}

TEST(ShippedConfigs, CarryTheSeedNumbers) {
  Config gtx480 = Config::load(gpu_schema(), "gtx480");
  EXPECT_EQ(gtx480.get_int("gpu.num_sms"), 15);
  EXPECT_EQ(gtx480.get_int("sm.max_threads"), 1536);
  EXPECT_EQ(gtx480.get_int("sm.registers"), 32768);
  EXPECT_EQ(gtx480.get_int("sm.num_schedulers"), 2);
  EXPECT_DOUBLE_EQ(gtx480.get_float("gpu.core_clock_mhz"), 700);
  EXPECT_EQ(gtx480.origin("gpu.num_sms"), "gtx480.yaml:4");
  Config pascal = Config::load(gpu_schema(), "gtx1080ti");
  EXPECT_EQ(pascal.get_int("gpu.num_sms"), 28);
  EXPECT_EQ(pascal.get_int("sm.num_schedulers"), 4);
  EXPECT_EQ(pascal.get_int("sm.registers"), 65536);
  Config fx = Config::load(gpu_schema(), "fx5800");
  EXPECT_EQ(fx.get_int("gpu.num_sms"), 30);
  EXPECT_EQ(fx.get_int("sm.simd_width"), 8);
  EXPECT_EQ(fx.get_string("sm.warp_scheduler.impl"), "lrr");
  EXPECT_EQ(Config::load(gpu_schema(), "tesla_c2050").get_string("sm.warp_scheduler.impl"), "glrr");
  Config v100 = Config::load(gpu_schema(), "qv100");
  EXPECT_EQ(v100.get_int("gpu.num_sms"), 80);
  EXPECT_EQ(v100.get_int("sm.max_ctas"), 32);
  EXPECT_LE(Config::load(gpu_schema(), "tiny").get_int("gpu.num_sms"), 2);
}

// Every number in a shipped config carries a "# source:" comment, and the binary embeds the
// files as they are on disk.
TEST(ShippedConfigs, EveryNumberHasASourceAndTheEmbeddedCopyIsCurrent) {
  const std::regex number_line(R"(^\s*[a-z_]+:\s*-?[0-9][0-9_.eE+-]*\s*(#.*)?$)");
  for (const auto& [name, text] : embedded_configs()) {
    std::ifstream in(std::string(SIMTSYNC_SOURCE_DIR) + "/configs/" + name + ".yaml");
    std::stringstream disk;
    disk << in.rdbuf();
    EXPECT_EQ(disk.str(), std::string(text)) << name << ": rebuild to re-embed";
    std::istringstream lines{std::string(text)};
    int n = 0;
    for (std::string line; std::getline(lines, line);) {
      ++n;
      if (std::regex_match(line, number_line)) {
        EXPECT_NE(line.find("# source:"), std::string::npos) << name << ".yaml:" << n << ": " << line;
      }
    }
  }
}

TEST(LoadErrors, UnknownKeyNamesKeyFileAndLine) {
  std::string msg = load_error("gpu:\n  num_sms: 4\nsm:\n  num_schedulerz: 2\n",
                               {"unknown key 'sm.num_schedulerz'", ":4", "sm.num_schedulers"});
  load_error("gpu:\n  bogus_group:\n    x: 1\n", {"unknown key 'gpu.bogus_group'", ":2"});
  load_error("sm.warp_scheduler.implementation: gto\n", {"sm.warp_scheduler.implementation"});
}

TEST(LoadErrors, WrongTypeNamesKey) {
  load_error("sm:\n  num_schedulers: two\n", {"'sm.num_schedulers'", "expects an integer", ":2"});
  load_error("sm:\n  num_schedulers: \"2\"\n", {"'sm.num_schedulers'", "quoted"});
  load_error("sm:\n  num_schedulers: 1.5\n", {"'sm.num_schedulers'", "expects an integer"});
  load_error("gpu:\n  core_clock_mhz: fast\n", {"'gpu.core_clock_mhz'", "expects a number"});
  load_error("sm:\n  icache:\n    perfect: maybe\n", {"'sm.icache.perfect'", "boolean"});
  load_error("sm:\n  num_schedulers: {a: 1}\n", {"'sm.num_schedulers'", "got a map"});
  load_error("sm:\n  num_schedulers: [1, 2]\n", {"'sm.num_schedulers'", "list"});
  load_error("sm:\n  num_schedulers:\n", {"'sm.num_schedulers'", "no value"});
  load_error("sm: 4\n", {"'sm' is a group"});
  load_error("- 1\n- 2\n", {"top level must be a map"});
}

TEST(LoadErrors, OutOfRangeNamesKey) {
  load_error("sm:\n  num_schedulers: 0\n", {"'sm.num_schedulers'", "out of range [1, 16]", ":2"});
  load_error("gpu:\n  num_sms: 100000\n", {"'gpu.num_sms'", "out of range"});
  load_error("watchdog:\n  max_cycles: -1\n", {"'watchdog.max_cycles'", "out of range [0, no limit]"});
  load_error("mem:\n  simple:\n    bytes_per_cycle: 0\n", {"'mem.simple.bytes_per_cycle'"});
}

TEST(LoadErrors, ChoicesEnforced) {
  load_error("sm:\n  warp_scheduler:\n    impl: fifo\n",
             {"'sm.warp_scheduler.impl'", "'fifo' is not one of: lrr, gto, glrr, two_level"});
  std::string msg = usage_message([] {
    Config::load(gpu_schema(), "gtx480", {{"sm.reconvergence.impl", "nosuch_unit"}});
  });
  expect_mentions(
      msg, {"--set sm.reconvergence.impl=nosuch_unit", "'sm.reconvergence.impl'", "ipdom_stack"});
}

TEST(LoadErrors, RelationsBetweenKeysNameTheKeys) {
  std::string msg = usage_message([] {
    Config::load(gpu_schema(), "gtx480", {{"sm.max_threads", "2048"}});
  });
  expect_mentions(msg, {"'sm.max_threads'", "sm.max_warps = 48 (gtx480.yaml:", "--set"});
  load_error("sm:\n  icache:\n    size_bytes: 1000\n", {"sm.icache.size_bytes"});
}

TEST(LoadErrors, DuplicateSyntaxAndMissingFiles) {
  load_error("sm:\n  num_schedulers: 2\nsm.num_schedulers: 4\n", {"'sm.num_schedulers' is given twice", ":3"});
  load_error("sm:\n  num_schedulers: [2\n", {"YAML syntax error"});
  expect_mentions(usage_message([] { Config::load(gpu_schema(), "/nonexistent/x.yaml"); }),
                  {"/nonexistent/x.yaml"});
  expect_mentions(usage_message([] { Config::load(gpu_schema(), "gtx9000"); }),
                  {"unknown config 'gtx9000'", "gtx480", "qv100"});
}

TEST(Load, MissingKeysTakeDefaultsAndTheNameIsTheStem) {
  TempYaml f("gpu:\n  num_sms: 3\n", "my_gpu");
  Config c = Config::load(gpu_schema(), f.path());
  EXPECT_EQ(c.get_int("gpu.num_sms"), 3);
  EXPECT_EQ(c.get_int("sm.max_warps"), 48);
  EXPECT_EQ(c.origin("sm.max_warps"), "default");
  EXPECT_EQ(c.name(), std::filesystem::path(f.path()).stem().string());
  Config empty = load_text("{}\n");
  EXPECT_EQ(empty.get_int("gpu.num_sms"), 15);
  Config dotted = load_text("sm.warp_scheduler.impl: lrr\nwatchdog: {max_cycles: 5_000_000}\n");
  EXPECT_EQ(dotted.get_string("sm.warp_scheduler.impl"), "lrr");
  EXPECT_EQ(dotted.get_int("watchdog.max_cycles"), 5000000);
}

// Issue 45: an empty file used to mean every default, silently; `{}` says so explicitly.
TEST(LoadErrors, EmptyFileNamesTheFile) {
  for (const char* text : {"", "\n\n", "# only a comment\n", "---\n"})
    load_error(text,
               {"config error: ", "the file is empty (no keys); write {} to take every default"});
}

// Issue 45: integer keys take decimal integers only; 1e3 was taken where 0x10 and 1.5 were not.
TEST(Sets, IntegerKeysTakeDecimalIntegersOnly) {
  for (const char* bad : {"1e3", "1E3", "5e6", "0x10", "1.5", "1.0", "010x", "", "1e3.0", "inf"})
    expect_mentions(usage_message([&] {
                      Config::load(gpu_schema(), "gtx480", {{"gpu.num_sms", bad}});
                    }),
                    {"key 'gpu.num_sms'", "expects an integer (decimal digits)",
                     std::string("got '") + bad + "'"});
  load_error("watchdog:\n  max_cycles: 5e6\n",
             {"key 'watchdog.max_cycles'", ":2", "expects an integer (decimal digits), got '5e6'"});
  Config c = Config::load(gpu_schema(), "gtx480", {{"gpu.num_sms", "+12"}});
  EXPECT_EQ(c.get_int("gpu.num_sms"), 12);
  EXPECT_EQ(Config::load(gpu_schema(), "gtx480", {{"gpu.num_sms", "1_0"}}).get_int("gpu.num_sms"),
            10);
}

TEST(Sets, OverridesApplyInOrderAndAreValidated) {
  Config c = Config::load(gpu_schema(), "gtx480",
                          {{"sm.warp_scheduler.impl", "lrr"},
                           {"sm.warp_scheduler.rotation_period", "50000"},
                           {"gpu.num_sms", "4"},
                           {"gpu.num_sms", "6"},
                           {"sm.icache.perfect", "true"},
                           {"gpu.core_clock_mhz", "1400.5"}});
  EXPECT_EQ(c.get_string("sm.warp_scheduler.impl"), "lrr");
  EXPECT_EQ(c.get_int("sm.warp_scheduler.rotation_period"), 50000);
  EXPECT_EQ(c.get_int("gpu.num_sms"), 6);
  EXPECT_TRUE(c.get_bool("sm.icache.perfect"));
  EXPECT_DOUBLE_EQ(c.get_float("gpu.core_clock_mhz"), 1400.5);
  EXPECT_EQ(c.origin("gpu.num_sms"), "--set gpu.num_sms=6");
  expect_mentions(usage_message([] { Config::load(gpu_schema(), "gtx480", {{"sm.num_sm", "3"}}); }),
                  {"unknown key 'sm.num_sm'", "gpu.num_sms"});
  expect_mentions(
      usage_message([] { Config::load(gpu_schema(), "gtx480", {{"sm.num_schedulers", "x"}}); }),
      {"'sm.num_schedulers'", "expects an integer"});
  expect_mentions(
      usage_message([] { Config::load(gpu_schema(), "tiny", {{"sm.num_schedulers", "99"}}); }),
      {"'sm.num_schedulers'", "out of range"});
}

TEST(ConfigDeathTest, ReadingAKeyWrongIsABug) {
  Config c = Config::load(gpu_schema(), "tiny");
  EXPECT_DEATH(c.get_int("no.such.key"), "not in the schema");
  EXPECT_DEATH(c.get_float("gpu.num_sms"), "wrong type");
}

}  // namespace
}  // namespace simtsync::config
