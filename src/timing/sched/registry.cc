#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/error.h"
#include "timing/sched/i_warp_scheduler.h"

namespace simtsync::sched {

#define SCHEDULER(name, factory, declare, desc)                                     \
  std::unique_ptr<IWarpScheduler> factory(const PolicyContext&,                     \
                                          const config::PluginParams&);             \
  void declare(config::PluginDecl&);
#include "timing/sched/schedulers.def"
#undef SCHEDULER

namespace {

using Factory = std::unique_ptr<IWarpScheduler> (*)(const PolicyContext&,
                                                    const config::PluginParams&);
struct Row {
  const char* name;
  Factory make;
  config::DeclareFn declare;
  const char* description;
};

constexpr Row kRows[] = {
#define SCHEDULER(name, factory, declare, desc) {name, factory, declare, desc},
#include "timing/sched/schedulers.def"
#undef SCHEDULER
};

const Row& row(const std::string& impl) {
  for (const Row& r : kRows)
    if (impl == r.name) return r;
  throw usage_error(fmt::format("key '{}.impl': unknown warp scheduler '{}' (known: {})",
                                kSchedulerPrefix, impl, fmt::join(scheduler_names(), ", ")));
}

}  // namespace

SchedulerParams scheduler_params(const config::Config& c) {
  const std::string& impl = c.get_string(std::string(kSchedulerPrefix) + ".impl");
  const Row& r = row(impl);
  return {impl, config::PluginParams::from(c, kSchedulerPrefix, r.declare, impl)};
}

SchedulerParams scheduler_params(const std::string& impl,
                                 const std::vector<std::pair<std::string, config::Value>>& sets) {
  const Row& r = row(impl);
  config::Schema schema;
  config::PluginDecl d(&schema, kSchedulerPrefix, impl);
  r.declare(d);
  const config::Config defaults = config::Config::defaults(schema);
  SchedulerParams p{impl, config::PluginParams::from(defaults, kSchedulerPrefix, r.declare, impl)};
  for (const auto& [k, v] : sets) p.params.set(k, v);
  return p;
}

std::unique_ptr<IWarpScheduler> make_scheduler(const SchedulerParams& params,
                                               const PolicyContext& ctx) {
  // Keys a caller left out (a unit test that names only the policy) take their defaults.
  config::PluginParams full = params.params;
  full.fill_missing(scheduler_params(params.impl).params);
  return row(params.impl).make(ctx, full);
}

const std::vector<config::PluginInfo>& schedulers() {
  static const std::vector<config::PluginInfo> rows = [] {
    std::vector<config::PluginInfo> v;
    for (const Row& r : kRows) v.push_back({r.name, r.description, r.declare});
    return v;
  }();
  return rows;
}

std::vector<std::string> scheduler_names() {
  std::vector<std::string> v;
  for (const Row& r : kRows) v.push_back(r.name);
  return v;
}

const std::vector<config::StatDecl>& scheduler_stats(const std::string& impl) {
  static const std::vector<std::vector<config::StatDecl>> all = [] {
    std::vector<std::vector<config::StatDecl>> v;
    for (const auto& info : schedulers()) v.push_back(config::plugin_stats(info, kSchedulerPrefix));
    return v;
  }();
  const auto& rows = schedulers();
  for (size_t i = 0; i < rows.size(); ++i)
    if (rows[i].name == impl) return all[i];
  row(impl);  // throws
  return all.front();
}

}  // namespace simtsync::sched
