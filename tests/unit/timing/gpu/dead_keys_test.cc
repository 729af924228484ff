// No dead keys: every key of the GPU schema is read by the component that owns it when a
// simulation (timing GPU and device options) is assembled from a config. Plug-in keys are read only
// when their plug-in is selected, so the test assembles once per implementation of every family and
// fails on any key that no assembly read.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "config/config.h"
#include "sim/simulator.h"
#include "simt/registry.h"
#include "timing/gpu/cta_dispatcher.h"
#include "timing/gpu/timing_gpu.h"
#include "timing/sched/i_fetch_policy.h"
#include "timing/sched/i_warp_scheduler.h"

namespace simtsync::gpu {
namespace {

std::set<std::string> unread_after_assembly(const std::string& key, const std::string& impl) {
  const config::Config c = config::Config::load(config::gpu_schema(), "gtx480", {{key, impl}});
  c.forget_reads();
  (void)gpu_params_from(c);
  (void)sim::device_options_from(c);  // the functional mode's and the host API's keys
  const auto v = c.unread_keys();
  return {v.begin(), v.end()};
}

TEST(DeadKeys, EveryKeyIsReadBySomeAssembly) {
  std::set<std::string> never;
  bool first = true;
  auto visit = [&](const std::string& prefix, const std::vector<config::PluginInfo>& rows) {
    for (const auto& r : rows) {
      const std::set<std::string> u = unread_after_assembly(prefix + ".impl", r.name);
      if (first) {
        never = u;
        first = false;
      } else {
        std::set<std::string> both;
        for (const auto& k : never)
          if (u.count(k)) both.insert(k);
        never = both;
      }
    }
  };
  visit(sched::kSchedulerPrefix, sched::schedulers());
  visit(sched::kFetchPrefix, sched::fetch_policies());
  visit(simt::kConfigPrefix, simt::reconvergence_units());
  visit(kDispatchPrefix, cta_dispatchers());
  for (const auto& k : never) ADD_FAILURE() << "config key read by nothing: " << k;
}

TEST(DeadKeys, AnUnreadKeyIsReported) {
  // The mechanism itself: a key nobody reads after forget_reads() is listed.
  const config::Config c = config::Config::load(config::gpu_schema(), "gtx480");
  c.forget_reads();
  (void)c.get_int("gpu.num_sms");
  const auto v = c.unread_keys();
  EXPECT_EQ(std::count(v.begin(), v.end(), "gpu.num_sms"), 0);
  EXPECT_EQ(std::count(v.begin(), v.end(), "gpu.warp_size"), 1);
}

}  // namespace
}  // namespace simtsync::gpu
