// The events the energy model charges (energy_events.def), read after a run from the declared
// statistics of the timing JSON (stats.gpu): SM issue, schedulers, I-caches, shared memory,
// caches, crossbar, atomic unit, DRAM. Nothing is counted here and no counter is declared a
// second time: each event names the statistics it is read from.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

namespace simtsync::energy {

enum class Event : std::uint8_t {
#define ENERGY_EVENT(id, name, from, description) id,
#include "energy/energy_events.def"
#undef ENERGY_EVENT
  kCount
};
inline constexpr int kEventCount = static_cast<int>(Event::kCount);

struct EventDecl {
  std::string_view name;
  std::string_view from;  // statistics paths in stats.gpu, "a + b" for a sum
  std::string_view description;
};
inline constexpr EventDecl kEvents[] = {
#define ENERGY_EVENT(id, name, from, description) {name, from, description},
#include "energy/energy_events.def"
#undef ENERGY_EVENT
};

struct EnergyCounts {
  std::array<std::uint64_t, kEventCount> n{};
  std::uint64_t& operator[](Event e) { return n[static_cast<int>(e)]; }
  std::uint64_t operator[](Event e) const { return n[static_cast<int>(e)]; }
};

// The events of a run from its timing statistics (stats.gpu, without `energy`). A path outside
// `memory.` that the JSON lacks throws std::logic_error (a bug, not bad input): an event must
// not read as 0 because a statistic was renamed.
EnergyCounts counts_from(const nlohmann::json& gpu_stats);

// The paths of an event's `from`, in order.
std::vector<std::string_view> event_sources(const EventDecl& e);

}  // namespace simtsync::energy
