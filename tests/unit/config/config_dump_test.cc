#include <gtest/gtest.h>

#include "config/config.h"
#include "config_test_util.h"

namespace simtsync::config {
namespace {

using testing::TempYaml;

// Loading the dump gives the same value for every key, for every shipped config.
TEST(Dump, RoundTripsEveryShippedConfig) {
  for (const std::string& name : shipped_config_names()) {
    Config c = Config::load(gpu_schema(), name,
                            {{"gpu.core_clock_mhz", "1234.5678"}, {"sm.warp_scheduler.impl", "two_level"}});
    TempYaml f(c.dump_yaml(), name + "_resolved");
    Config back = Config::load(gpu_schema(), f.path());
    EXPECT_EQ(back.to_json(), c.to_json()) << name;
    for (const KeyInfo& k : gpu_schema().keys())
      EXPECT_EQ(back.origin(k.key).rfind(f.path() + ":", 0), 0u) << name << " " << k.key;
  }
}

TEST(Dump, IsNestedAndDescribesEveryKey) {
  Config c = Config::load(gpu_schema(), "gtx480", {{"sm.num_schedulers", "1"}});
  std::string y = c.dump_yaml();
  EXPECT_NE(y.find("sm:\n"), std::string::npos);
  EXPECT_NE(y.find("\n  warp_scheduler:\n"), std::string::npos);
  EXPECT_NE(y.find("    impl: gto\n"), std::string::npos);
  EXPECT_NE(y.find("value from --set sm.num_schedulers=1"), std::string::npos);
  for (const KeyInfo& k : gpu_schema().keys())
    EXPECT_NE(y.find("# " + k.description + "\n"), std::string::npos) << k.key;
  // Each group appears once even though keys of a group are registered apart.
  EXPECT_EQ(y.find("\nsm:\n"), y.rfind("\nsm:\n"));
}

TEST(ToJson, IsNestedAndTyped) {
  Config c = Config::load(gpu_schema(), "fx5800");
  nlohmann::json j = c.to_json();
  EXPECT_EQ(j["gpu"]["num_sms"], 30);
  EXPECT_EQ(j["sm"]["warp_scheduler"]["impl"], "lrr");
  EXPECT_TRUE(j["gpu"]["core_clock_mhz"].is_number_float());
  EXPECT_TRUE(j["sm"]["icache"]["perfect"].is_boolean());
}

}  // namespace
}  // namespace simtsync::config
