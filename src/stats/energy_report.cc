#include "stats/energy_report.h"

#include <fmt/format.h>

#include "stats/declared.h"
#include "timing/gpu/timing_gpu.h"

namespace simtsync::stats {

nlohmann::json energy_json(const nlohmann::json& gpu_stats, const gpu::TimingTotals& t) {
  const energy::EnergyCounts c = energy::counts_from(gpu_stats);
  return energy_json(c, energy::estimate(c, t.energy, t.core_clock_mhz), t.has_hierarchy);
}

nlohmann::json energy_json(const energy::EnergyCounts& c, const energy::EnergyReport& r,
                           bool memory_counted) {
  nlohmann::json j;
  j["total_j"] = r.total_j;
  j["dynamic_j"] = r.dynamic_total_j;
  j["static_j"] = r.static_total_j;
  j["sm_dynamic_j"] = r.sm_j;
  j["memory_dynamic_j"] = r.memory_j;
  j["seconds"] = r.seconds;
  j["avg_power_w"] = r.avg_power_w;
  j["nj_per_warp_instruction"] = r.nj_per_warp_instruction;
  for (int i = 0; i < static_cast<int>(energy::Dyn::kCount); ++i)
    j["dynamic"][energy::kDynNames[i]] = r.dynamic_j[i];
  for (int i = 0; i < static_cast<int>(energy::Stat::kCount); ++i)
    j["static"][energy::kStatNames[i]] = r.static_j[i];
  // mem.model simple has no caches, crossbar or DRAM to count: their energy is left out.
  j["memory_model_counted"] = memory_counted;
  // Each event with the statistics it was read from (energy_events.def): the counts are those
  // statistics' values, not counters of their own.
  for (int i = 0; i < energy::kEventCount; ++i) {
    const energy::EventDecl& ev = energy::kEvents[i];
    j["events"][std::string(ev.name)] = {{"count", c.n[i]}, {"from", std::string(ev.from)}};
  }
  return j;
}

std::string energy_rows(const nlohmann::json& e) {
  std::string out;
  auto row = [&](const std::string& name, const std::string& v, const std::string& desc) {
    out += table_row(name, v, desc);
  };
  const double total = e["total_j"].get<double>();
  auto share = [&](double x) { return total > 0 ? 100.0 * x / total : 0.0; };
  row("energy.total", fmt::format("{:.4g} J", total),
      fmt::format("dynamic {:.4g} J + static {:.4g} J (docs/energy.md)",
                  e["dynamic_j"].get<double>(), e["static_j"].get<double>()));
  row("energy.avg_power", fmt::format("{:.1f} W", e["avg_power_w"].get<double>()),
      fmt::format("over {:.4g} s at the core clock", e["seconds"].get<double>()));
  row("energy.per_warp_inst", fmt::format("{:.3f} nJ", e["nj_per_warp_instruction"].get<double>()),
      "total energy / warp instructions");
  out += "  energy by component (dynamic, then static):\n";
  auto line = [&](const char* group, const char* name) {
    const double v = e[group][name].get<double>();
    out += fmt::format("    {:<20} {:>14.4g} J  {:5.1f}%\n", name, v, share(v));
  };
  for (const char* name : energy::kDynNames) line("dynamic", name);
  for (const char* name : energy::kStatNames) line("static", name);
  if (!e["memory_model_counted"].get<bool>())
    out += "    (mem.model simple: caches, crossbar and DRAM are not counted)\n";
  return out;
}

}  // namespace simtsync::stats
