#include "timing/sched/i_fetch_policy.h"

namespace simtsync::sched {

#define FETCH_POLICY(name, factory, declare, desc)                                          \
  std::unique_ptr<IFetchPolicy> factory(const PolicyContext&, const config::PluginParams&); \
  void declare(config::PluginDecl&);
#include "timing/sched/fetch_policies.def"
#undef FETCH_POLICY

namespace {

using MakeFn = std::unique_ptr<IFetchPolicy> (*)(const PolicyContext&, const config::PluginParams&);

const config::PluginTable<MakeFn>& fetch_table() {
  // clang-format off
  static const config::PluginTable<MakeFn> t(kFetchPrefix, "fetch policy", {
#define FETCH_POLICY(name, factory, declare, desc) {name, factory, declare, desc},
#include "timing/sched/fetch_policies.def"
#undef FETCH_POLICY
  });
  // clang-format on
  return t;
}

}  // namespace

FetchParams fetch_params(const config::Config& c) {
  auto [impl, params] = fetch_table().selected(c);
  return {impl, std::move(params)};
}

FetchParams fetch_params(const std::string& impl) {
  return {impl, fetch_table().defaults(impl)};
}

std::unique_ptr<IFetchPolicy> make_fetch_policy(const FetchParams& p, const PolicyContext& ctx) {
  config::PluginParams full = p.params;
  full.fill_missing(fetch_table().defaults(p.impl));
  return fetch_table().row(p.impl).make(ctx, full);
}

const std::vector<config::PluginInfo>& fetch_policies() {
  return fetch_table().infos();
}

const std::vector<config::StatDecl>& fetch_policy_stats(const std::string& impl) {
  return fetch_table().stats(impl);
}

}  // namespace simtsync::sched
