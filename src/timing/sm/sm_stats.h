// Counters of one SM (plain data), declared once in the tables at the end: summing over SMs
// and launches, the text table, JSON and CSV follow from them (src/stats/).
#pragma once

#include <cstdint>
#include <iterator>
#include <vector>

#include "common/stat_table.h"

namespace simtsync::sm {

// Why a scheduler issued nothing in a cycle (seed 002 sec. 2 stall categories). A cycle is
// charged to the most advanced reason among the scheduler's warps, in this priority order:
// structural (an instruction was ready but its unit or the LD/ST queue was busy), data (waiting
// on the scoreboard or a fence), barrier (waiting at bar.sync), control (I-buffer empty after a
// control transfer), fetch (I-buffer empty otherwise: I-cache miss, fetch bandwidth), held (the
// policy offered none of its live warps), exit (warps finished, waiting for their CTA), idle
// (no warps).
enum class StallKind : std::uint8_t {
  kIssued,
  kStructural,
  kData,
  kBarrier,
  kControl,
  kFetch,
  kHeld,
  kExit,
  kIdle,
  kCount
};
inline constexpr const char* kStallNames[] = {"issued", "structural", "data", "barrier", "control",
                                              "fetch",  "held",       "exit", "idle"};

struct SchedStats {
  std::uint64_t cycles[static_cast<int>(StallKind::kCount)] = {};
  std::uint64_t issued = 0;
  std::vector<std::uint64_t> policy;  // the issue policy's declared statistics, in order
};

struct SmStats {
  std::uint64_t active_cycles = 0;  // cycles with at least one CTA resident
  std::uint64_t warp_instructions = 0;
  std::uint64_t thread_instructions = 0;
  std::uint64_t unit_busy[4] = {};        // per UnitKind: pipeline-cycles occupied
  // Activity for the energy model (src/energy): warp instructions and their active lanes per op
  // class (OpClass order), and register-file operand accesses. One access is one register of
  // one warp: a bank row holds a register for all lanes, so it is read (written) whole whatever
  // the active mask; lane-proportional energy is charged per active lane instead (op_lanes).
  std::uint64_t op_warps[9] = {}, op_lanes[9] = {};
  std::uint64_t rf_reads = 0, rf_writes = 0;
  std::uint64_t ibuffer_fills = 0;        // instructions fetched into I-buffers
  std::uint64_t ibuffer_flushes = 0;      // control transfers that emptied an I-buffer
  std::uint64_t icache_stall_cycles = 0;  // warp-cycles waiting for an I-cache fill
  std::uint64_t shared_conflict_cycles = 0;
  // sm.shared.atomics = lock_loop: micro-operations of shared atomics' retry loops (LDSLK,
  // modify, STSUL, branch; the atomic itself counts once in warp_instructions) and the rounds.
  std::uint64_t atomic_uops = 0, atomic_rounds = 0;
  std::uint64_t memory_refusals = 0;  // LD/ST unit found the memory port full
  std::uint64_t ctas_completed = 0;
  std::vector<SchedStats> sched;
  std::vector<std::uint64_t> fetch_policy;  // the fetch policy's declared statistics
  // Warp-phases (stats.warp_phases): phases ended (exit phases among them), RTRU summed in
  // millionths (so it sums like the other counters) with its maximum, warp-cycles spent
  // waiting at barriers and at the exit point for the critical warp, warp-cycles of every phase
  // (N * maxT), and consecutive phases of a CTA whose critical warp changed.
  std::uint64_t warp_phases = 0, exit_phases = 0, rtru_ppm_sum = 0, rtru_ppm_max = 0,
                barrier_wait_cycles = 0, exit_wait_cycles = 0, phase_warp_cycles = 0,
                critical_pairs = 0, critical_changes = 0;
};

inline constexpr const char* kUnitNames[] = {"sp", "sfu", "dp", "ldst"};
// OpClass order (sm_params.h).
inline constexpr const char* kOpClassNames[] = {"int", "imul", "idiv", "fp", "fpdiv",
                                                "dp",  "sfu",  "ctrl", "mem"};

inline constexpr StatField<SmStats> kSmStatFields[] = {
    SIMTSYNC_STAT(SmStats, active_cycles, "cycles with at least one CTA resident"),
    SIMTSYNC_STAT(SmStats, warp_instructions, "warp instructions issued"),
    SIMTSYNC_STAT(SmStats, thread_instructions, "thread instructions issued (active threads)"),
    SIMTSYNC_STAT_ARRAY_SHOWN(SmStats, unit_busy, kUnitNames,
                              "pipeline-cycles the unit class was occupied"),
    SIMTSYNC_STAT_ARRAY(SmStats, op_warps, kOpClassNames, "warp instructions issued by op class"),
    SIMTSYNC_STAT_ARRAY(SmStats, op_lanes, kOpClassNames,
                        "active lanes of the warp instructions issued, by op class"),
    SIMTSYNC_STAT(SmStats, rf_reads, "register operands read, one per warp access"),
    SIMTSYNC_STAT(SmStats, rf_writes, "register operands written, one per warp access"),
    SIMTSYNC_STAT_SHOWN(SmStats, ibuffer_fills, "instructions fetched into I-buffers"),
    SIMTSYNC_STAT_SHOWN(SmStats, ibuffer_flushes, "I-buffers emptied by control transfers"),
    SIMTSYNC_STAT(SmStats, icache_stall_cycles, "warp-cycles waiting for an I-cache fill"),
    SIMTSYNC_STAT(SmStats, shared_conflict_cycles, "shared-memory bank-conflict cycles"),
    SIMTSYNC_STAT(SmStats, atomic_uops,
                  "shared-atomic micro-operations issued (sm.shared.atomics=lock_loop)"),
    SIMTSYNC_STAT(SmStats, atomic_rounds,
                  "shared-atomic LDSLK/STSUL rounds (sm.shared.atomics=lock_loop)"),
    SIMTSYNC_STAT(SmStats, memory_refusals, "times the LD/ST unit found the memory port full"),
    SIMTSYNC_STAT(SmStats, ctas_completed, "CTAs completed"),
    SIMTSYNC_STAT(SmStats, warp_phases, "warp-phases ended (stats.warp_phases)"),
    SIMTSYNC_STAT(SmStats, exit_phases, "warp-phases that ended at the CTA's exit"),
    SIMTSYNC_STAT(SmStats, rtru_ppm_sum, "RTRU of every warp-phase summed, in millionths"),
    SIMTSYNC_STAT(SmStats, barrier_wait_cycles,
                  "warp-cycles waiting at a barrier for the phase's critical warp"),
    SIMTSYNC_STAT(SmStats, exit_wait_cycles,
                  "warp-cycles finished, waiting at the exit point for the CTA's last warp"),
    SIMTSYNC_STAT(SmStats, phase_warp_cycles, "warp-cycles of every warp-phase (N * maxT)"),
    SIMTSYNC_STAT(SmStats, critical_pairs, "consecutive warp-phases of a CTA"),
    SIMTSYNC_STAT(SmStats, critical_changes,
                  "consecutive warp-phases of a CTA with different critical warps"),
    SIMTSYNC_STAT_MAX(SmStats, rtru_ppm_max, "largest RTRU of a warp-phase, in millionths"),
};

// stats.gpu.warp_phases (seed 002 sec. 3), from the SM counters summed over the SMs: RTRU (Eq. 1)
// averaged over every phase, exit phases included; the warp-cycles lost waiting for a phase's
// critical warp as a share of the warp-cycles of every phase (seed 002's barrier-intensity
// measure, exit points included, as in its Fig. 1); how often the critical warp changes from one
// phase of a CTA to the next (Fig. 6).
inline constexpr StatDerived<SmStats> kWarpPhaseDerived[] = {
    {"mean_rtru", "RTRU averaged over warp-phases (seed 002 Eq. 1)",
     [](const SmStats& s) { return stat_ratio(s.rtru_ppm_sum, s.warp_phases) / 1e6; },
     StatShow::kFixed3},
    {"max_rtru", "largest RTRU of a warp-phase",
     [](const SmStats& s) { return static_cast<double>(s.rtru_ppm_max) / 1e6; }, StatShow::kFixed3},
    {"barrier_wait_fraction",
     "share of warp time waiting at barriers and exit points (seed 002 Fig. 1)",
     [](const SmStats& s) {
       return stat_ratio(s.barrier_wait_cycles + s.exit_wait_cycles, s.phase_warp_cycles);
     },
     StatShow::kFixed3},
    {"barrier_only_wait_fraction", "share of warp time waiting at barriers (exit points not)",
     [](const SmStats& s) { return stat_ratio(s.barrier_wait_cycles, s.phase_warp_cycles); }},
    {"critical_change_rate", "consecutive phases of a CTA whose critical warp changed (Fig. 6)",
     [](const SmStats& s) { return stat_ratio(s.critical_changes, s.critical_pairs); },
     StatShow::kPercent},
};

inline constexpr StatField<SchedStats> kSchedStatFields[] = {
    SIMTSYNC_STAT(SchedStats, issued, "instructions issued by the scheduler"),
    SIMTSYNC_STAT_ARRAY(SchedStats, cycles, kStallNames,
                        "scheduler cycles by outcome (issued or the stall reason)"),
};

}  // namespace simtsync::sm
