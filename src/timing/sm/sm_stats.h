// Counters of one SM (plain data; names and descriptions live in src/stats/).
#pragma once

#include <cstdint>
#include <vector>

namespace simtsync::sm {

// Why a scheduler issued nothing in a cycle (seed 002 sec. 2 stall categories). A cycle is
// charged to the most advanced reason among the scheduler's warps, in this priority order:
// structural (an instruction was ready but its unit or the LD/ST queue was busy), data (waiting
// on the scoreboard or a fence), barrier (waiting at bar.sync), control (I-buffer empty after a
// control transfer), fetch (I-buffer empty otherwise: I-cache miss, fetch bandwidth), exit
// (warps finished, waiting for their CTA), idle (no warps).
enum class StallKind : std::uint8_t {
  kIssued,
  kStructural,
  kData,
  kBarrier,
  kControl,
  kFetch,
  kExit,
  kIdle,
  kCount
};
inline constexpr const char* kStallNames[] = {"issued",  "structural", "data", "barrier",
                                              "control", "fetch",      "exit", "idle"};

struct SchedStats {
  std::uint64_t cycles[static_cast<int>(StallKind::kCount)] = {};
  std::uint64_t issued = 0;
};

struct SmStats {
  std::uint64_t active_cycles = 0;  // cycles with at least one CTA resident
  std::uint64_t warp_instructions = 0;
  std::uint64_t thread_instructions = 0;
  std::uint64_t unit_busy[4] = {};        // per UnitKind: pipeline-cycles occupied
  std::uint64_t ibuffer_fills = 0;        // instructions fetched into I-buffers
  std::uint64_t ibuffer_flushes = 0;      // control transfers that emptied an I-buffer
  std::uint64_t icache_stall_cycles = 0;  // warp-cycles waiting for an I-cache fill
  std::uint64_t shared_conflict_cycles = 0;
  std::uint64_t memory_refusals = 0;  // LD/ST unit found the memory port full
  std::uint64_t ctas_completed = 0;
  std::vector<SchedStats> sched;
};

}  // namespace simtsync::sm
