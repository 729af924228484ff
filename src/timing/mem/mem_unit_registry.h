// The memory-side units of mem_units.def (i_mem_unit.h): their rows, their keys in the schema,
// the choice a resolved config makes and their declared statistics.
#pragma once

#include <string>
#include <vector>

#include "config/config.h"
#include "config/plugin.h"
#include "config/schema.h"
#include "timing/mem/i_mem_unit.h"

namespace simtsync::mem {

// "mem.NAME": where a unit's keys live.
std::string mem_unit_prefix(const std::string& name);
// The rows of mem_units.def (names, descriptions, declare functions), in table order.
const std::vector<config::PluginInfo>& mem_units();
// Adds every unit's keys to `s`, in table order.
void declare_mem_units(config::Schema& s);
// Every unit with its keys read from a resolved config (a unit its keys leave out is still
// listed: its factory decides), or with its declared defaults.
std::vector<MemUnitChoice> mem_unit_choices(const config::Config& c);
std::vector<MemUnitChoice> default_mem_unit_choices();
// A unit's declared statistics and ratios (an unknown name: internal error).
const std::vector<config::StatDecl>& mem_unit_stats(const std::string& name);
const std::vector<config::RatioDecl>& mem_unit_ratios(const std::string& name);

}  // namespace simtsync::mem
