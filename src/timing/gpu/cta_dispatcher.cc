#include "timing/gpu/cta_dispatcher.h"

namespace simtsync::gpu {

#define CTA_DISPATCHER(name, factory, declare, desc)                    \
  std::unique_ptr<ICtaDispatcher> factory(const config::PluginParams&); \
  void declare(config::PluginDecl&);
#include "timing/gpu/cta_dispatchers.def"
#undef CTA_DISPATCHER

namespace {

using Factory = std::unique_ptr<ICtaDispatcher> (*)(const config::PluginParams&);

const config::PluginTable<Factory>& table() {
  static const config::PluginTable<Factory> t(kDispatchPrefix, "CTA dispatcher", {
#define CTA_DISPATCHER(name, factory, declare, desc) {name, factory, declare, desc},
#include "timing/gpu/cta_dispatchers.def"
#undef CTA_DISPATCHER
  });
  return t;
}

}  // namespace

DispatchParams dispatch_params(const config::Config& c) {
  auto [impl, params] = table().selected(c);
  return {impl, std::move(params)};
}

std::unique_ptr<ICtaDispatcher> make_cta_dispatcher(const DispatchParams& p) {
  return table().row(p.impl).make(p.params);
}

const std::vector<config::PluginInfo>& cta_dispatchers() { return table().infos(); }

}  // namespace simtsync::gpu
