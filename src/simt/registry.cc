#include "simt/registry.h"

#include <fmt/format.h>

#include "common/error.h"

namespace simtsync::simt {

#define RECONVERGENCE(name, factory, declare, desc)                                     \
  std::unique_ptr<IReconvergence> factory(Pc, LaneMask, const config::PluginParams&); \
  void declare(config::PluginDecl&);
#include "simt/reconvergence.def"
#undef RECONVERGENCE

namespace {

struct Row {
  const char* name;
  Factory make;
  config::DeclareFn declare;
  const char* description;
};

constexpr Row kRows[] = {
#define RECONVERGENCE(name, factory, declare, desc) {name, factory, declare, desc},
#include "simt/reconvergence.def"
#undef RECONVERGENCE
};

}  // namespace

UnitChoice reconvergence_choice(const std::string& impl, config::PluginParams params) {
  for (const Row& r : kRows)
    if (impl == r.name) return UnitChoice{impl, r.make, std::move(params)};
  throw usage_error(fmt::format("key '{}.impl': unknown reconvergence unit '{}'", kConfigPrefix, impl));
}

UnitChoice reconvergence_choice(const config::Config& c) {
  const std::string& impl = c.get_string(std::string(kConfigPrefix) + ".impl");
  for (const Row& r : kRows)
    if (impl == r.name)
      return reconvergence_choice(impl,
                                  config::PluginParams::from(c, kConfigPrefix, r.declare, impl));
  return reconvergence_choice(impl);
}

const std::vector<config::PluginInfo>& reconvergence_units() {
  static const std::vector<config::PluginInfo> rows = [] {
    std::vector<config::PluginInfo> v;
    for (const Row& r : kRows) v.push_back({r.name, r.description, r.declare});
    return v;
  }();
  return rows;
}

}  // namespace simtsync::simt
