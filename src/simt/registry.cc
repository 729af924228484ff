#include "simt/registry.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

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
  // Keys the caller left out (a test naming just the unit) take their declared defaults.
  params.fill_missing(table().defaults(impl));
  return UnitChoice{impl, table().row(impl).make, std::move(params), &table().stats(impl)};
}

UnitChoice reconvergence_choice(const config::Config& c) {
  auto [impl, params] = table().selected(c);
  return reconvergence_choice(impl, std::move(params));
}

const std::vector<config::PluginInfo>& reconvergence_units() { return table().infos(); }

const std::vector<config::StatDecl>& reconvergence_stats(const std::string& impl) {
  return table().stats(impl);
}

void put_counters(std::span<std::uint64_t> out, std::span<const std::uint64_t> counters) {
  if (out.size() != counters.size())
    throw std::logic_error(fmt::format(
        "internal error: a reconvergence unit keeps {} counters but declares {} statistics",
        counters.size(), out.size()));
  std::copy(counters.begin(), counters.end(), out.begin());
}

}  // namespace simtsync::simt
