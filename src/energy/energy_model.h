// The energy model: events counted by the timing model times an energy per event, plus power
// drawn per unit of time (SMs with and without CTAs, the uncore, DRAM background, the board),
// GPUWattch-style (docs/energy.md). A pure function of the counts and the coefficients, so a
// test can check it by hand.
#pragma once

#include <cstdint>

#include "energy/energy_counts.h"
#include "config/energy_params.h"

namespace simtsync::energy {

// Components of the dynamic energy; the first kSmComponents are inside the SMs.
enum class Dyn : std::uint8_t {
  kInt,        // integer datapath lanes (add, multiply, divide)
  kFp32,       // single-precision lanes
  kFp64,       // double-precision lanes
  kSfu,        // SFU lanes
  kPipeline,   // per-lane operand delivery, decode/dispatch, branch unit, address generation
  kRegfile,    // register-file reads and writes
  kFetch,      // I-cache lookups and fills, I-buffer writes
  kScheduler,  // warp selection
  kShared,     // shared-memory bank passes
  kL1,         // L1 data cache
  kConst,      // constant cache
  kIcnt,       // crossbar flits
  kL2,         // L2 slices
  kAtomic,     // L2 atomic units
  kDram,       // activates, precharges, reads and writes
  kCount
};
inline constexpr int kSmComponents = static_cast<int>(Dyn::kIcnt);
inline constexpr const char* kDynNames[] = {
    "int",    "fp32", "fp64",        "sfu",  "pipeline", "regfile", "fetch", "scheduler",
    "shared", "l1",   "const_cache", "icnt", "l2",       "atomic",  "dram"};

// Components of the energy drawn per unit of time.
enum class Stat : std::uint8_t { kSmActive, kSmIdle, kUncore, kDram, kConstant, kCount };
inline constexpr const char* kStatNames[] = {"sm_active", "sm_idle", "uncore", "dram_background",
                                             "constant"};

struct EnergyReport {
  double dynamic_j[static_cast<int>(Dyn::kCount)] = {};
  double static_j[static_cast<int>(Stat::kCount)] = {};
  double dynamic_total_j = 0, static_total_j = 0, total_j = 0;
  double sm_j = 0, memory_j = 0;  // dynamic energy inside the SMs / of the memory side
  double seconds = 0;             // simulated time at the core clock
  double avg_power_w = 0;
  double nj_per_warp_instruction = 0;
};

// Energy of the counted events at `core_clock_mhz` (the clock `c.cycles` counts).
EnergyReport estimate(const EnergyCounts& c, const EnergyParams& p, double core_clock_mhz);

}  // namespace simtsync::energy
