#include "stats/exec_report.h"

#include <fmt/format.h>

#include <vector>

namespace simtsync::stats {
namespace {

struct Counter {
  const char* name;
  const char* description;
  std::uint64_t func::ExecStats::*field;
};

constexpr Counter kCounters[] = {
    {"warp_instructions", "warp-level instructions executed", &func::ExecStats::warp_instructions},
    {"thread_instructions", "thread instructions (active threads summed over warp instructions)",
     &func::ExecStats::thread_instructions},
    {"branches", "branch instructions executed by warps", &func::ExecStats::branches},
    {"divergent_branches", "branches whose active threads split between both paths",
     &func::ExecStats::divergent_branches},
    {"loads", "warp-level load instructions", &func::ExecStats::loads},
    {"stores", "warp-level store instructions", &func::ExecStats::stores},
    {"atomics", "warp-level atomic and reduction instructions", &func::ExecStats::atomics},
    {"shared_accesses", "warp-level memory instructions to shared memory",
     &func::ExecStats::shared_accesses},
    {"local_accesses", "warp-level memory instructions to local memory",
     &func::ExecStats::local_accesses},
    {"barriers", "warp arrivals at CTA barriers (bar/barrier)", &func::ExecStats::barriers},
    {"fences", "memory fences (membar/fence)", &func::ExecStats::fences},
    {"calls", "function calls by warps", &func::ExecStats::calls},
    {"sfu_ops", "transcendental (SFU) warp instructions", &func::ExecStats::sfu_ops},
    {"warp_ops", "cross-lane warp instructions (vote, shfl, activemask, match)",
     &func::ExecStats::warp_ops},
    {"cas_attempts", "thread-level compare-and-swap attempts (lock acquire attempts)",
     &func::ExecStats::cas_attempts},
    {"cas_failures", "compare-and-swap attempts that did not swap (failed lock attempts)",
     &func::ExecStats::cas_failures},
    {"lock_bit_loads", "thread-level LDSLK executions (shared-memory lock-bit acquire attempts)",
     &func::ExecStats::lock_bit_loads},
    {"lock_bit_acquired", "LDSLK executions that took their lock bit",
     &func::ExecStats::lock_bit_acquired},
    {"lock_bit_stores", "thread-level STSUL executions (store and free a lock bit)",
     &func::ExecStats::lock_bit_stores},
};

double simd_efficiency(const func::ExecStats& s, unsigned warp_size) {
  return s.warp_instructions ? static_cast<double>(s.thread_instructions) /
                                   (static_cast<double>(s.warp_instructions) * warp_size)
                             : 0.0;
}

}  // namespace

nlohmann::json exec_stats_json(const func::ExecStats& s, unsigned warp_size) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& c : kCounters) j[c.name] = s.*c.field;
  j["simd_efficiency"] = simd_efficiency(s, warp_size);
  return j;
}

std::string exec_stats_table(const func::ExecStats& s, unsigned warp_size) {
  std::string out;
  for (const auto& c : kCounters)
    out += fmt::format("  {:<22} {:>16}  {}\n", c.name, s.*c.field, c.description);
  out += fmt::format("  {:<22} {:>16.4f}  {}\n", "simd_efficiency", simd_efficiency(s, warp_size),
                     "thread_instructions / (warp_instructions x warp size)");
  return out;
}

}  // namespace simtsync::stats
