#include "stats/declared.h"

namespace simtsync::stats {

std::string table_row(const std::string& name, const std::string& value,
                      const std::string& description) {
  return fmt::format("  {:<{}} {:>16}  {}\n", name, kTableNameWidth, value, description);
}

std::string show_value(double v, StatShow how) {
  switch (how) {
    case StatShow::kCount:
      return fmt::format("{:.0f}", v);
    case StatShow::kFixed1:
      return fmt::format("{:.1f}", v);
    case StatShow::kPercent:
      return fmt::format("{:.1f}%", 100 * v);
    case StatShow::kFixed3:
    case StatShow::kHidden:
      break;
  }
  return fmt::format("{:.3f}", v);
}

nlohmann::json plugin_json(const std::vector<config::StatDecl>& decl,
                           const std::vector<std::uint64_t>& values) {
  nlohmann::json j = nlohmann::json::object();
  for (size_t i = 0; i < decl.size() && i < values.size(); ++i) j[decl[i].name] = values[i];
  return j;
}

nlohmann::json plugin_json(const std::vector<config::StatDecl>& decl,
                           const std::vector<config::RatioDecl>& ratios,
                           const std::vector<std::uint64_t>& values) {
  nlohmann::json j = plugin_json(decl, values);
  for (const auto& r : ratios) {
    const double num = j.value(r.numerator, 0.0), den = j.value(r.denominator, 0.0);
    j[r.name] = den != 0 ? num / den : 0.0;
  }
  return j;
}

std::string plugin_rows(const std::string& prefix, const std::vector<config::StatDecl>& decl,
                        const std::vector<std::uint64_t>& values) {
  std::string out;
  for (size_t i = 0; i < decl.size() && i < values.size(); ++i)
    out += table_row(prefix + decl[i].name, fmt::format("{}", values[i]), decl[i].description);
  return out;
}

}  // namespace simtsync::stats
