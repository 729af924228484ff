// Names, descriptions and derived values of the functional model's counters, and their text
// and JSON forms. Model code only increments counters (func::ExecStats); this is where they
// become statistics.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "func/exec_stats.h"

namespace simtsync::stats {

// {"name": value, ...} including derived values (simd_efficiency, ...), and the reconvergence
// unit's declared statistics as "reconvergence": {"unit": NAME, "stats": {"name": value, ...}}
// (absent for a unit that declares none).
nlohmann::json exec_stats_json(const func::ExecStats& s, unsigned warp_size);
// One row per statistic: name, value, description; the unit's rows named UNIT.NAME.
std::string exec_stats_table(const func::ExecStats& s, unsigned warp_size);

}  // namespace simtsync::stats
