// Counters the functional model increments, declared once in kExecStatFields (summing, text,
// JSON and CSV follow from it; derived values such as SIMD efficiency live in stats/).
#pragma once

#include <cstdint>
#include <iterator>

#include "common/stat_table.h"

namespace simtsync::func {

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
  std::uint64_t lock_entry_pushes = 0;    // lock (L) entries pushed on the stack
  std::uint64_t unlock_instructions = 0;  // warp-level unlock issues
  std::uint64_t unlock_requests = 0;      // thread-level unlock requests performed at memory
  // Split and reconvergence tables (multipath, aware: simt::UnitStats).
  std::uint64_t unit_splits = 0;
  std::uint64_t unit_reconverged = 0;
  std::uint64_t unit_fifo_switches = 0;
  std::uint64_t unit_delayed = 0;
  std::uint64_t unit_timeouts = 0;
  std::uint64_t unit_st_spills = 0;
  std::uint64_t unit_st_fills = 0;
  std::uint64_t unit_rt_spills = 0;
  std::uint64_t unit_rt_fills = 0;
  std::uint64_t unit_table_bytes = 0;
  std::uint64_t unit_st_occ_0 = 0, unit_st_occ_1 = 0, unit_st_occ_2 = 0, unit_st_occ_3_4 = 0,
                unit_st_occ_5_8 = 0, unit_st_occ_9_16 = 0, unit_st_occ_17_up = 0;
  std::uint64_t unit_rt_occ_0 = 0, unit_rt_occ_1 = 0, unit_rt_occ_2 = 0, unit_rt_occ_3_4 = 0,
                unit_rt_occ_5_8 = 0, unit_rt_occ_9_16 = 0, unit_rt_occ_17_up = 0;
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
    S(lock_entry_pushes, "lock (L) entries pushed on the reconvergence stack"),
    S(unlock_instructions, "warp-level unlock instructions issued"),
    S(unlock_requests, "thread-level unlock requests performed at memory (exchange writes)"),
    S(unit_splits, "warp splits created by divergent branches (split-table units)"),
    S(unit_reconverged, "reconvergence-table entries whose threads all arrived"),
    S(unit_fifo_switches, "times the running warp split changed to another split"),
    S(unit_delayed, "divergent branches reconverging at a delayed (safe) point, not the IPDOM"),
    S(unit_timeouts, "waiting threads split off a reconvergence point by the timeout"),
    S(unit_st_spills, "split-table entries spilled to memory (virtualized tables)"),
    S(unit_st_fills, "split-table entries filled from memory"),
    S(unit_rt_spills, "reconvergence-table entries spilled to memory"),
    S(unit_rt_fills, "reconvergence-table entries filled from memory"),
    S(unit_table_bytes, "bytes of table spill and fill traffic (12 per ST, 16 per RT entry)"),
    S(unit_st_occ_0, "instructions executed with 0 valid split-table entries"),
    S(unit_st_occ_1, "instructions executed with 1 valid split-table entry"),
    S(unit_st_occ_2, "instructions executed with 2 valid split-table entries"),
    S(unit_st_occ_3_4, "instructions executed with 3-4 valid split-table entries"),
    S(unit_st_occ_5_8, "instructions executed with 5-8 valid split-table entries"),
    S(unit_st_occ_9_16, "instructions executed with 9-16 valid split-table entries"),
    S(unit_st_occ_17_up, "instructions executed with 17 or more valid split-table entries"),
    S(unit_rt_occ_0, "instructions executed with 0 valid reconvergence-table entries"),
    S(unit_rt_occ_1, "instructions executed with 1 valid reconvergence-table entry"),
    S(unit_rt_occ_2, "instructions executed with 2 valid reconvergence-table entries"),
    S(unit_rt_occ_3_4, "instructions executed with 3-4 valid reconvergence-table entries"),
    S(unit_rt_occ_5_8, "instructions executed with 5-8 valid reconvergence-table entries"),
    S(unit_rt_occ_9_16, "instructions executed with 9-16 valid reconvergence-table entries"),
    S(unit_rt_occ_17_up, "instructions executed with 17 or more valid reconvergence-table entries"),
};
#undef S

// Adds a unit's table counters (simt::UnitStats, passed as its fields to keep func/ free of
// simt/ in this header's users).
template <class U>
void add_unit_stats(ExecStats& s, const U& u) {
  s.unit_splits += u.splits;
  s.unit_reconverged += u.reconverged;
  s.unit_fifo_switches += u.fifo_switches;
  s.unit_delayed += u.delayed;
  s.unit_timeouts += u.timeouts;
  s.unit_st_spills += u.st_spills;
  s.unit_st_fills += u.st_fills;
  s.unit_rt_spills += u.rt_spills;
  s.unit_rt_fills += u.rt_fills;
  s.unit_table_bytes += u.table_bytes;
  std::uint64_t* st[] = {&s.unit_st_occ_0,    &s.unit_st_occ_1,   &s.unit_st_occ_2,
                         &s.unit_st_occ_3_4,  &s.unit_st_occ_5_8, &s.unit_st_occ_9_16,
                         &s.unit_st_occ_17_up};
  std::uint64_t* rt[] = {&s.unit_rt_occ_0,    &s.unit_rt_occ_1,   &s.unit_rt_occ_2,
                         &s.unit_rt_occ_3_4,  &s.unit_rt_occ_5_8, &s.unit_rt_occ_9_16,
                         &s.unit_rt_occ_17_up};
  for (int b = 0; b < 7; ++b) *st[b] += u.st_occupancy[b], *rt[b] += u.rt_occupancy[b];
}

inline void accumulate(ExecStats& into, const ExecStats& from) {
  simtsync::accumulate<ExecStats>(into, from, kExecStatFields);
}

}  // namespace simtsync::func
