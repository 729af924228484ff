#include <map>
#include <string>

#include "common/error.h"
#include "timing/sched/ddos.h"
#include "timing/sched/i_warp_scheduler.h"
#include "timing/sched/sleep_filter.h"

namespace simtsync::sched {

#define SCHEDULER(name, factory, declare, desc)                                                   \
  std::unique_ptr<IWarpScheduler> factory(const PolicyContext&, const config::PluginParams&); \
  void declare(config::PluginDecl&);
#include "timing/sched/schedulers.def"
#undef SCHEDULER

namespace {

using Factory = std::unique_ptr<IWarpScheduler> (*)(const PolicyContext&,
                                                    const config::PluginParams&);

const config::PluginTable<Factory>& table() {
  static const config::PluginTable<Factory> t(kSchedulerPrefix, "warp scheduler", {
#define SCHEDULER(name, factory, declare, desc) {name, factory, declare, desc},
#include "timing/sched/schedulers.def"
#undef SCHEDULER
  });
  return t;
}

// An unknown name: the table throws the usage error naming the choices.
[[noreturn]] const config::PluginParams& table_defaults_of_unknown(const std::string& impl) {
  table().row(impl);
  throw usage_error("unknown warp scheduler " + impl);
}

// Every policy's declared defaults, built once: make_scheduler runs for every scheduler of every
// SM, and running BOWS's declare function each time (DDOS's keys and every base policy's) was
// 8% of a 30-CTA run's host instructions (issue 48). An unknown name is not here: the table
// reports it.
const config::PluginParams& defaults(const std::string& impl) {
  static const std::map<std::string, config::PluginParams> d = [] {
    std::map<std::string, config::PluginParams> m;
    for (const auto& r : table().infos()) m.emplace(r.name, table().defaults(r.name));
    return m;
  }();
  const auto it = d.find(impl);
  return it != d.end() ? it->second : table_defaults_of_unknown(impl);
}

}  // namespace

const std::vector<RecordSummary>& record_summaries() {
  static const std::vector<RecordSummary> s = {
      {"ddos_branch", "ddos", &spin::summary_values},
  };
  return s;
}

SchedulerParams scheduler_params(const config::Config& c) {
  auto [impl, params] = table().selected(c);
  return {impl, std::move(params)};
}

SchedulerParams scheduler_params(const std::string& impl,
                                 const std::vector<std::pair<std::string, config::Value>>& sets) {
  SchedulerParams p{impl, defaults(impl)};
  for (const auto& [k, v] : sets) p.params.set(k, v);
  return p;
}

std::unique_ptr<IWarpScheduler> make_scheduler(const SchedulerParams& params,
                                               const PolicyContext& ctx) {
  // Keys a caller left out (a unit test that names only the policy) take their defaults.
  config::PluginParams full = params.params;
  full.fill_missing(defaults(params.impl));
  auto policy = table().row(params.impl).make(ctx, full);
  if (params.core_clock_mhz <= 0) return policy;
  return with_nanosleep(std::move(policy), ctx, params.core_clock_mhz);
}

const std::vector<config::PluginInfo>& schedulers() { return table().infos(); }

std::vector<std::string> scheduler_names() {
  std::vector<std::string> v;
  for (const auto& r : table().infos()) v.push_back(r.name);
  return v;
}

const std::vector<config::StatDecl>& scheduler_stats(const std::string& impl) {
  return table().stats(impl);
}

}  // namespace simtsync::sched
