// The events the energy model charges, gathered after a run from the components' declared
// statistics (SM, scheduler, I-cache, shared memory, caches, crossbar, atomic unit, DRAM) and
// the functional counters. Nothing is counted here: the counters are incremented where the
// event happens (src/timing, src/func) and only read.
#pragma once

#include <cstdint>
#include <iterator>

#include "common/stat_table.h"

namespace simtsync::gpu {
struct TimingTotals;
}

namespace simtsync::energy {

struct EnergyCounts {
  // Instructions: active lanes per op kind, and warp instructions by kind.
  std::uint64_t int_lanes = 0, imul_lanes = 0, fp32_lanes = 0, fp64_lanes = 0, sfu_lanes = 0;
  std::uint64_t lanes = 0;  // every issued instruction's active lanes (thread instructions)
  std::uint64_t warp_instructions = 0;
  std::uint64_t int_warps = 0, fp32_warps = 0, fp64_warps = 0, sfu_warps = 0;
  std::uint64_t branch_warps = 0;  // control, barrier, fence, vote and other non-datapath ops
  std::uint64_t mem_warps = 0;     // entered the LD/ST unit
  std::uint64_t loads = 0, stores = 0, atomics = 0;  // warp-level, every space
  std::uint64_t rf_reads = 0, rf_writes = 0;         // per warp register access
  std::uint64_t icache_accesses = 0, icache_misses = 0, ibuffer_fills = 0;
  std::uint64_t sched_cycles = 0;  // scheduler-cycles with live warps (issued or stalled)
  std::uint64_t shared_accesses = 0, shared_conflict_cycles = 0;
  std::uint64_t l1_accesses = 0, l1_hits = 0, l1_misses = 0;
  std::uint64_t const_accesses = 0, const_hits = 0, const_misses = 0;
  std::uint64_t l2_accesses = 0, l2_hits = 0, l2_misses = 0, l2_writebacks = 0;
  std::uint64_t flits = 0;  // request and reply crossbars
  std::uint64_t atomic_ops = 0;
  std::uint64_t dram_activates = 0, dram_precharges = 0, dram_reads = 0, dram_writes = 0;
  std::uint64_t dram_read_bytes = 0, dram_write_bytes = 0;
  std::uint64_t cycles = 0;                                // core cycles, all launches
  std::uint64_t sm_active_cycles = 0, sm_idle_cycles = 0;  // summed over SMs
  std::uint64_t num_sms = 0;
};

#define E(f, d) SIMTSYNC_STAT(EnergyCounts, f, d)
inline constexpr StatField<EnergyCounts> kEnergyCountFields[] = {
    E(int_lanes, "active lanes of integer add/logic/shift/compare/move instructions"),
    E(imul_lanes, "active lanes of integer multiply and divide instructions"),
    E(fp32_lanes, "active lanes of single-precision instructions"),
    E(fp64_lanes, "active lanes of double-precision instructions"),
    E(sfu_lanes, "active lanes of SFU (transcendental) instructions"),
    E(lanes, "active lanes of every issued instruction"),
    E(warp_instructions, "warp instructions issued"),
    E(int_warps, "integer warp instructions (add, multiply, divide)"),
    E(fp32_warps, "single-precision warp instructions"),
    E(fp64_warps, "double-precision warp instructions"),
    E(sfu_warps, "SFU warp instructions"),
    E(branch_warps, "control warp instructions (branch, barrier, fence, vote, misc)"),
    E(mem_warps, "memory warp instructions (LD/ST unit)"),
    E(loads, "warp-level loads, every space"),
    E(stores, "warp-level stores, every space"),
    E(atomics, "warp-level atomics and reductions, every space"),
    E(rf_reads, "register-file reads, one per register per warp"),
    E(rf_writes, "register-file writes, one per register per warp"),
    E(icache_accesses, "I-cache lookups"),
    E(icache_misses, "I-cache misses"),
    E(ibuffer_fills, "instructions written into I-buffers"),
    E(sched_cycles, "scheduler-cycles with live warps"),
    E(shared_accesses, "warp accesses to shared memory"),
    E(shared_conflict_cycles, "extra shared-memory bank passes (conflicts, lock-unit passes)"),
    E(l1_accesses, "L1 data-cache lookups"),
    E(l1_hits, "L1 data-cache hits"),
    E(l1_misses, "L1 data-cache misses"),
    E(const_accesses, "constant-cache lookups"),
    E(const_hits, "constant-cache hits"),
    E(const_misses, "constant-cache misses"),
    E(l2_accesses, "L2 lookups"),
    E(l2_hits, "L2 hits"),
    E(l2_misses, "L2 misses"),
    E(l2_writebacks, "dirty L2 lines written back"),
    E(flits, "crossbar flits, both directions"),
    E(atomic_ops, "lane operations of the L2 atomic units"),
    E(dram_activates, "DRAM row activations"),
    E(dram_precharges, "DRAM row precharges"),
    E(dram_reads, "DRAM read requests"),
    E(dram_writes, "DRAM write requests"),
    E(dram_read_bytes, "bytes read on the DRAM data bus"),
    E(dram_write_bytes, "bytes written on the DRAM data bus"),
    E(cycles, "core cycles"),
    E(sm_active_cycles, "SM-cycles with a CTA resident, all SMs"),
    E(sm_idle_cycles, "SM-cycles with no CTA resident, all SMs"),
    E(num_sms, "SMs"),
};
#undef E

// The events of every launch run on a timing GPU.
EnergyCounts counts_from(const gpu::TimingTotals& t);

}  // namespace simtsync::energy
