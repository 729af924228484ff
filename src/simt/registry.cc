#include "simt/registry.h"

namespace simtsync::simt {

#define RECONVERGENCE(name, factory, declare, desc)                                     \
  std::unique_ptr<IReconvergence> factory(Pc, LaneMask, const config::PluginParams&); \
  void declare(config::PluginDecl&);
#include "simt/reconvergence.def"
#undef RECONVERGENCE

namespace {

const config::PluginTable<Factory>& table() {
  static const config::PluginTable<Factory> t(kConfigPrefix, "reconvergence unit", {
#define RECONVERGENCE(name, factory, declare, desc) {name, factory, declare, desc},
#include "simt/reconvergence.def"
#undef RECONVERGENCE
  });
  return t;
}

}  // namespace

UnitChoice reconvergence_choice(const std::string& impl, config::PluginParams params) {
  return UnitChoice{impl, table().row(impl).make, std::move(params)};
}

UnitChoice reconvergence_choice(const config::Config& c) {
  auto [impl, params] = table().selected(c);
  return reconvergence_choice(impl, std::move(params));
}

const std::vector<config::PluginInfo>& reconvergence_units() { return table().infos(); }

}  // namespace simtsync::simt
