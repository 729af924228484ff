#include "timing/gpu/cta_dispatcher.h"

#include <fmt/format.h>

#include "common/error.h"

namespace simtsync::gpu {

#define CTA_DISPATCHER(name, factory, declare, desc)                                \
  std::unique_ptr<ICtaDispatcher> factory(const config::PluginParams&);             \
  void declare(config::PluginDecl&);
#include "timing/gpu/cta_dispatchers.def"
#undef CTA_DISPATCHER

namespace {

struct Row {
  const char* name;
  std::unique_ptr<ICtaDispatcher> (*make)(const config::PluginParams&);
  config::DeclareFn declare;
  const char* description;
};

constexpr Row kRows[] = {
#define CTA_DISPATCHER(name, factory, declare, desc) {name, factory, declare, desc},
#include "timing/gpu/cta_dispatchers.def"
#undef CTA_DISPATCHER
};

const Row& row(const std::string& impl) {
  for (const Row& r : kRows)
    if (impl == r.name) return r;
  throw usage_error(fmt::format("key '{}.impl': unknown CTA dispatcher '{}'", kDispatchPrefix, impl));
}

}  // namespace

DispatchParams dispatch_params(const config::Config& c) {
  const std::string& impl = c.get_string(std::string(kDispatchPrefix) + ".impl");
  return {impl, config::PluginParams::from(c, kDispatchPrefix, row(impl).declare, impl)};
}

std::unique_ptr<ICtaDispatcher> make_cta_dispatcher(const DispatchParams& p) {
  return row(p.impl).make(p.params);
}

const std::vector<config::PluginInfo>& cta_dispatchers() {
  static const std::vector<config::PluginInfo> rows = [] {
    std::vector<config::PluginInfo> v;
    for (const Row& r : kRows) v.push_back({r.name, r.description, r.declare});
    return v;
  }();
  return rows;
}

}  // namespace simtsync::gpu
