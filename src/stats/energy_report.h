// Output form of the energy estimate (stats.gpu.energy): components, totals, power, the events
// charged and their coefficients' units; JSON and text rows.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "energy/energy_model.h"

namespace simtsync::gpu {
struct TimingTotals;
}

namespace simtsync::stats {

// The estimate for every launch run on a timing GPU, as stats.gpu.energy: the events read from
// `gpu_stats` (stats.gpu without `energy`), the coefficients and clock from `t`.
nlohmann::json energy_json(const nlohmann::json& gpu_stats, const gpu::TimingTotals& t);
nlohmann::json energy_json(const energy::EnergyCounts& c, const energy::EnergyReport& r,
                           bool memory_counted);
// Rows of the text table (from energy_json's object).
std::string energy_rows(const nlohmann::json& e);

}  // namespace simtsync::stats
