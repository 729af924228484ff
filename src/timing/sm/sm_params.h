// Parameters of one SM, filled from the typed config (config keys in parentheses).
#pragma once

#include <cstdint>
#include <string>

#include "timing/sched/i_fetch_policy.h"
#include "timing/sched/i_warp_scheduler.h"

namespace simtsync::sm {

// Execution-unit classes; each has a pool of pipelines shared by the SM's schedulers.
enum class UnitKind : std::uint8_t { kSp, kSfu, kDp, kLdst, kCount };

// Latency classes of instructions (sm.latency.*, sm.ii.*).
enum class OpClass : std::uint8_t {
  kInt,
  kImul,
  kIdiv,
  kFp,
  kFpDiv,
  kDp,
  kSfu,
  kCtrl,
  kMem,
  kCount
};

struct SmParams {
  unsigned warp_size = 32;
  unsigned max_threads = 1536;      // sm.max_threads
  unsigned max_warps = 48;          // sm.max_warps
  unsigned max_ctas = 8;            // sm.max_ctas
  unsigned registers = 32768;       // sm.registers
  unsigned shared_bytes = 49152;    // sm.shared_memory_bytes
  unsigned num_schedulers = 2;      // sm.num_schedulers
  unsigned simd_width = 32;         // sm.simd_width
  unsigned ibuffer_slots = 2;       // sm.ibuffer_slots
  unsigned fetch_width = 1;         // sm.fetch_width
  unsigned fetch_decode = 1;        // sm.fetch_decode: instructions decoded per warp fetch
  bool fetch_empty_only = false;    // sm.fetch_empty_only: fetch only into an empty I-buffer
  bool fetch_past_control = false;  // sm.fetch_past_control: GPGPU-Sim 3.x's wrong-path fetch
  sched::SchedulerParams scheduler = sched::scheduler_params("lrr");  // sm.warp_scheduler.*
  sched::FetchParams fetch_policy = sched::fetch_params("rr");        // sm.fetch_policy.*
  // I-cache (sm.icache.*)
  unsigned icache_bytes = 8192, icache_line = 128, icache_assoc = 4;
  unsigned icache_hit_latency = 1, icache_miss_latency = 100;
  bool icache_perfect = false;           // sm.icache.perfect: every fetch hits, no misses or fills
  bool icache_wait_for_fill = true;      // sm.icache.wait_for_fill: a missed line is usable once
                                         // its fill is back (false: from the miss on)
  bool icache_fill_from_memory = false;  // misses fill through the memory port (from L2)
                                         // instead of after icache_miss_latency
  // Units (sm.units.*)
  unsigned units[static_cast<int>(UnitKind::kCount)] = {2, 1, 1, 1};
  bool dp_on_sfu = false;  // sm.units.dp == 0: double precision uses the SFU
  // Latency and initiation interval per op class (sm.latency.*, sm.ii.*)
  unsigned latency[static_cast<int>(OpClass::kCount)] = {4, 8, 32, 4, 32, 8, 20, 4, 1};
  unsigned ii[static_cast<int>(OpClass::kCount)] = {1, 2, 8, 1, 8, 4, 4, 1, 1};
  unsigned shared_latency = 24;           // sm.shared.latency
  unsigned shared_banks = 32;             // sm.shared.banks
  unsigned shared_bank_bytes = 4;         // sm.shared.bank_bytes
  unsigned shared_lock_bits = 1024;       // sm.shared.lock_bits
  bool shared_lock_loop = false;          // sm.shared.atomics == lock_loop
  bool rotate_scheduler_priority = true;  // sm.scheduler_priority == rotate
  unsigned const_latency = 8;             // mem.const_cache.latency (resident kernel parameters)
  bool kernel_params_cached = false;  // mem.const_cache.kernel_params == cached (hierarchy only)
  unsigned ldst_queue = 8;            // memory instructions waiting in the LD/ST unit
  bool track_warp_phases = false;     // stats.warp_phases: RTRU per warp-phase (seed 002)
};

}  // namespace simtsync::sm
