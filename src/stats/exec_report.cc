#include "stats/exec_report.h"

#include <fmt/format.h>

#include <vector>

#include "stats/declared.h"

namespace simtsync::stats {
namespace {

double simd_efficiency(const func::ExecStats& s, unsigned warp_size) {
  return s.warp_instructions ? static_cast<double>(s.thread_instructions) /
                                   (static_cast<double>(s.warp_instructions) * warp_size)
                             : 0.0;
}

}  // namespace

nlohmann::json exec_stats_json(const func::ExecStats& s, unsigned warp_size) {
  nlohmann::json j = to_json<func::ExecStats>(s, func::kExecStatFields);
  j["simd_efficiency"] = simd_efficiency(s, warp_size);
  const func::UnitCounters& u = s.reconvergence;
  if (!u.values.empty())
    j["reconvergence"] = {{"unit", u.unit}, {"stats", plugin_json(*u.decl, u.values)}};
  return j;
}

std::string exec_stats_table(const func::ExecStats& s, unsigned warp_size) {
  std::string out = table_rows<func::ExecStats>(s, func::kExecStatFields);
  out += table_row("simd_efficiency", fmt::format("{:.4f}", simd_efficiency(s, warp_size)),
                   "thread_instructions / (warp_instructions x warp size)");
  const func::UnitCounters& u = s.reconvergence;
  if (!u.values.empty()) out += plugin_rows(u.unit + ".", *u.decl, u.values);
  return out;
}

}  // namespace simtsync::stats
