#include "energy/energy_counts.h"

#include <stdexcept>
#include <string>

namespace simtsync::energy {

std::vector<std::string_view> event_sources(const EventDecl& e) {
  std::vector<std::string_view> out;
  std::string_view rest = e.from;
  while (!rest.empty()) {
    const std::size_t plus = rest.find(" + ");
    out.push_back(rest.substr(0, plus));
    rest = plus == std::string_view::npos ? std::string_view{} : rest.substr(plus + 3);
  }
  return out;
}

namespace {

// The unsigned value at a dotted path, or nullptr where the JSON has no such member.
const nlohmann::json* at_path(const nlohmann::json& j, std::string_view path) {
  const nlohmann::json* cur = &j;
  while (!path.empty()) {
    const std::size_t dot = path.find('.');
    const std::string key(path.substr(0, dot));
    if (!cur->is_object()) return nullptr;
    const auto it = cur->find(key);
    if (it == cur->end()) return nullptr;
    cur = &*it;
    path = dot == std::string_view::npos ? std::string_view{} : path.substr(dot + 1);
  }
  return cur;
}

}  // namespace

EnergyCounts counts_from(const nlohmann::json& gpu_stats) {
  EnergyCounts c;
  for (int i = 0; i < kEventCount; ++i) {
    for (std::string_view path : event_sources(kEvents[i])) {
      const nlohmann::json* v = at_path(gpu_stats, path);
      if (v == nullptr && path.starts_with("memory.")) continue;  // mem.model simple
      if (v == nullptr || !v->is_number_unsigned())
        throw std::logic_error("energy event " + std::string(kEvents[i].name) + " reads " +
                               std::string(path) + ", which stats.gpu does not hold as a count");
      c.n[i] += v->get<std::uint64_t>();
    }
  }
  return c;
}

}  // namespace simtsync::energy
