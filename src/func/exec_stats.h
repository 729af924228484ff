// Counters the functional model increments, declared once in kExecStatFields (summing, text,
// JSON and CSV follow from it; derived values such as SIMD efficiency live in stats/), and the
// reconvergence unit's counters, declared by the unit (UnitCounters).
#pragma once

#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "common/stat_table.h"
#include "config/plugin.h"

namespace simtsync::func {

// The statistics the selected reconvergence unit declares (sm.reconvergence.impl; its declare
// function, config::PluginDecl::stat): its counters in declaration order, summed over warps and
// launches as declared. Empty (no unit, no values) for a unit that declares none.
struct UnitCounters {
  std::string unit;
  const std::vector<config::StatDecl>* decl = nullptr;  // the registry's, lives for ever
  std::vector<std::uint64_t> values;

  // The counter named `name`; 0 when the unit does not declare it.
  std::uint64_t get(std::string_view name) const {
    for (size_t i = 0; decl && i < decl->size() && i < values.size(); ++i)
      if ((*decl)[i].name == name) return values[i];
    return 0;
  }
};

// Sums `from` into `into` as the declarations say; `into` takes the unit of `from` when it has
// none yet (every launch of a run uses one unit).
inline void accumulate(UnitCounters& into, const UnitCounters& from) {
  if (from.values.empty()) return;
  if (into.values.empty()) into.unit = from.unit, into.decl = from.decl;
  config::accumulate(into.values, from.values, *into.decl);
}

struct ExecStats {
  std::uint64_t warp_instructions = 0;
  std::uint64_t thread_instructions = 0;  // active threads summed over warp instructions
  std::uint64_t branches = 0;
  std::uint64_t divergent_branches = 0;
  std::uint64_t loads = 0;    // warp-level memory instructions by kind
  std::uint64_t stores = 0;
  std::uint64_t atomics = 0;
  std::uint64_t shared_accesses = 0;
  std::uint64_t local_accesses = 0;
  std::uint64_t barriers = 0;
  std::uint64_t fences = 0;
  std::uint64_t calls = 0;
  std::uint64_t sfu_ops = 0;
  std::uint64_t warp_ops = 0;  // vote/shfl/activemask/match
  std::uint64_t cas_attempts = 0;  // thread-level atomicCAS executions
  std::uint64_t cas_failures = 0;  // ... that did not swap
  std::uint64_t lock_bit_loads = 0;     // thread-level LDSLK (simtsync_ldslk) executions
  std::uint64_t lock_bit_acquired = 0;  // ... that took the lock bit
  std::uint64_t lock_bit_stores = 0;    // thread-level STSUL (simtsync_stsul) executions
  // Lock instructions (seed 004 ch. 4, simtsync_lock/simtsync_unlock).
  std::uint64_t lock_instructions = 0;    // warp-level lock issues, first tries and retries
  std::uint64_t lock_retries = 0;         // ... that were retries from a lock-retry entry
  std::uint64_t lock_requests = 0;        // thread-level lock requests performed at memory
  std::uint64_t lock_acquired = 0;        // ... that took the lock
  std::uint64_t unlock_instructions = 0;  // warp-level unlock issues
  std::uint64_t unlock_requests = 0;      // thread-level unlock requests performed at memory
  // The reconvergence unit's own statistics (UnitCounters): not in kExecStatFields.
  UnitCounters reconvergence;
};

#define S(f, d) SIMTSYNC_STAT(ExecStats, f, d)
inline constexpr StatField<ExecStats> kExecStatFields[] = {
    S(warp_instructions, "warp-level instructions executed"),
    S(thread_instructions, "thread instructions (active threads summed over warp instructions)"),
    S(branches, "branch instructions executed by warps"),
    S(divergent_branches, "branches whose active threads split between both paths"),
    S(loads, "warp-level load instructions"),
    S(stores, "warp-level store instructions"),
    S(atomics, "warp-level atomic and reduction instructions"),
    S(shared_accesses, "warp-level memory instructions to shared memory"),
    S(local_accesses, "warp-level memory instructions to local memory"),
    S(barriers, "warp arrivals at CTA barriers (bar/barrier)"),
    S(fences, "memory fences (membar/fence)"),
    S(calls, "function calls by warps"),
    S(sfu_ops, "transcendental (SFU) warp instructions"),
    S(warp_ops, "cross-lane warp instructions (vote, shfl, activemask, match)"),
    S(cas_attempts, "thread-level compare-and-swap attempts (lock acquire attempts)"),
    S(cas_failures, "compare-and-swap attempts that did not swap (failed lock attempts)"),
    S(lock_bit_loads, "thread-level LDSLK executions (shared-memory lock-bit acquire attempts)"),
    S(lock_bit_acquired, "LDSLK executions that took their lock bit"),
    S(lock_bit_stores, "thread-level STSUL executions (store and free a lock bit)"),
    S(lock_instructions, "warp-level lock instructions issued (first tries and retries)"),
    S(lock_retries, "warp-level lock instructions issued again from a lock-retry entry"),
    S(lock_requests, "thread-level lock requests performed at memory (compare-and-swap writes)"),
    S(lock_acquired, "thread-level lock requests that took the lock"),
    S(unlock_instructions, "warp-level unlock instructions issued"),
    S(unlock_requests, "thread-level unlock requests performed at memory (exchange writes)"),
};
#undef S

inline void accumulate(ExecStats& into, const ExecStats& from) {
  simtsync::accumulate<ExecStats>(into, from, kExecStatFields);
  accumulate(into.reconvergence, from.reconvergence);
}

}  // namespace simtsync::func
