// The reconvergence units of reconvergence.def, chosen by sm.reconvergence.impl.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "config/plugin.h"
#include "simt/i_reconvergence.h"

namespace simtsync::simt {

inline constexpr const char* kConfigPrefix = "sm.reconvergence";

using Factory = std::unique_ptr<IReconvergence> (*)(Pc start, LaneMask threads,
                                                    const config::PluginParams& params);

// What a launch needs to give each warp its unit: the factory, the unit's parameters and the
// statistics it declares (null or empty: none; the executor then never asks it for counters).
struct UnitChoice {
  std::string impl = "ipdom_stack";
  Factory make = nullptr;
  config::PluginParams params;
  const std::vector<config::StatDecl>* stats = nullptr;
  std::unique_ptr<IReconvergence> create(Pc start, LaneMask threads) const {
    return make(start, threads, params);
  }
  // The unit reconverges at BranchOutcome::safe_rpc, so decoding must run the SIMT-deadlock
  // analysis (func::DecodeOptions): a split-table unit with `delayed` set, which aware
  // declares true by default.
  bool reads_safe_reconvergence() const {
    return params.has("delayed") ? params.get_bool("delayed") : impl == "aware";
  }
};

// The unit named `impl` with its parameters; throws a usage error naming the key when unknown.
UnitChoice reconvergence_choice(const std::string& impl, config::PluginParams params = {});
// The unit a resolved config selects (reads sm.reconvergence.impl and the unit's keys).
UnitChoice reconvergence_choice(const config::Config& c);
// The rows of reconvergence.def (names, descriptions, declare functions).
const std::vector<config::PluginInfo>& reconvergence_units();
// The statistics unit `impl` declares, in declaration order (its collect() writes them so).
const std::vector<config::StatDecl>& reconvergence_stats(const std::string& impl);

}  // namespace simtsync::simt
