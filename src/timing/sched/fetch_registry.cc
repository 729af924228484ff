#include <fmt/format.h>

#include "common/error.h"
#include "timing/sched/i_fetch_policy.h"

namespace simtsync::sched {

#define FETCH_POLICY(name, factory, declare, desc)                                          \
  std::unique_ptr<IFetchPolicy> factory(const PolicyContext&, const config::PluginParams&); \
  void declare(config::PluginDecl&);
#include "timing/sched/fetch_policies.def"
#undef FETCH_POLICY

namespace {

using Factory = std::unique_ptr<IFetchPolicy> (*)(const PolicyContext&,
                                                  const config::PluginParams&);
struct Row {
  const char* name;
  Factory make;
  config::DeclareFn declare;
  const char* description;
};

constexpr Row kRows[] = {
#define FETCH_POLICY(name, factory, declare, desc) {name, factory, declare, desc},
#include "timing/sched/fetch_policies.def"
#undef FETCH_POLICY
};

const Row& row(const std::string& impl) {
  for (const Row& r : kRows)
    if (impl == r.name) return r;
  throw usage_error(fmt::format("key '{}.impl': unknown fetch policy '{}'", kFetchPrefix, impl));
}

}  // namespace

FetchParams fetch_params(const config::Config& c) {
  const std::string& impl = c.get_string(std::string(kFetchPrefix) + ".impl");
  return {impl, config::PluginParams::from(c, kFetchPrefix, row(impl).declare, impl)};
}

FetchParams fetch_params(const std::string& impl) {
  const Row& r = row(impl);
  config::Schema schema;
  config::PluginDecl d(&schema, kFetchPrefix, impl);
  r.declare(d);
  return {impl, config::PluginParams::from(config::Config::defaults(schema), kFetchPrefix,
                                           r.declare, impl)};
}

std::unique_ptr<IFetchPolicy> make_fetch_policy(const FetchParams& p, const PolicyContext& ctx) {
  config::PluginParams full = p.params;
  full.fill_missing(fetch_params(p.impl).params);
  return row(p.impl).make(ctx, full);
}

const std::vector<config::PluginInfo>& fetch_policies() {
  static const std::vector<config::PluginInfo> rows = [] {
    std::vector<config::PluginInfo> v;
    for (const Row& r : kRows) v.push_back({r.name, r.description, r.declare});
    return v;
  }();
  return rows;
}

const std::vector<config::StatDecl>& fetch_policy_stats(const std::string& impl) {
  static const std::vector<std::vector<config::StatDecl>> all = [] {
    std::vector<std::vector<config::StatDecl>> v;
    for (const auto& info : fetch_policies()) v.push_back(config::plugin_stats(info, kFetchPrefix));
    return v;
  }();
  const auto& rows = fetch_policies();
  for (size_t i = 0; i < rows.size(); ++i)
    if (rows[i].name == impl) return all[i];
  row(impl);  // throws
  return all.front();
}

}  // namespace simtsync::sched
