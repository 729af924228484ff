// Names, descriptions and derived values of the timing model's counters, grouped as
// gpu.sm[i].sched[j].*; text table, nested JSON and flat CSV.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "timing/gpu/timing_gpu.h"

namespace simtsync::stats {

nlohmann::json timing_stats_json(const gpu::TimingTotals& t, unsigned warp_size);
// The memory hierarchy's statistics per level (the "memory" object of the JSON).
nlohmann::json hierarchy_json(const mem::HierarchyStats& h);
std::string timing_stats_table(const gpu::TimingTotals& t, unsigned warp_size);
// One "name,value" line per leaf of a JSON tree (arrays as name[i]).
std::string flatten_csv(const nlohmann::json& j);

}  // namespace simtsync::stats
