// The shared memory of one SM: `banks` banks of `bank_bytes` words. A warp access occupies the
// banks one cycle per way of bank conflict (the most distinct words any one bank must
// deliver; lanes reading the same word share it). Shared-memory atomics are what Fermi's lock
// unit makes of them (seed 001 sec. 3.2): every attempt is a load-and-lock (LDSLK) of all
// lanes still trying, one modify, and a store-and-unlock (STSUL) by the lanes that got their
// lock bit. Lock bits are indexed by word address modulo `lock_bits`, so lanes whose words
// alias one lock bit take turns, one per attempt, in lane order.
#pragma once

#include <cstdint>
#include <iterator>

#include "common/stat_table.h"
#include "common/types.h"
#include "timing/mem/mem_params.h"

namespace simtsync::func {
struct MemAccess;
}

namespace simtsync::mem {

struct SharedCost {
  unsigned cycles = 1;    // bank cycles the access occupies
  unsigned ways = 1;      // worst bank conflict of its (first) pass
  unsigned attempts = 1;  // atomics: lock-unit attempts
  unsigned retries = 0;   // atomics: lane attempts that found their lock bit taken
};

struct SharedStats {
  std::uint64_t accesses = 0, atomics = 0;
  std::uint64_t conflict_cycles = 0;  // bank cycles beyond one per access
  std::uint64_t lock_attempts = 0;    // atomics: LDSLK passes
  std::uint64_t lock_retries = 0;     // lanes that found their lock bit taken
};

inline constexpr StatField<SharedStats> kSharedStatFields[] = {
    SIMTSYNC_STAT(SharedStats, accesses, "warp accesses to shared memory"),
    SIMTSYNC_STAT(SharedStats, atomics, "warp-level shared-memory atomics"),
    SIMTSYNC_STAT(SharedStats, conflict_cycles, "bank cycles beyond one per access"),
    SIMTSYNC_STAT(SharedStats, lock_attempts, "shared atomics: LDSLK passes of the lock unit"),
    SIMTSYNC_STAT(SharedStats, lock_retries, "lanes that found their lock bit taken"),
};

class SharedMemoryUnit {
 public:
  explicit SharedMemoryUnit(const SharedMemParams& p);

  SharedCost cost(const func::MemAccess& acc, bool atomic) const;
  bool can_accept(Cycle now) const { return busy_until_ <= now; }
  Cycle busy_until() const { return busy_until_; }
  // Takes the access (the caller performs it now: this is its serialization point); returns
  // the cycle its data is back in registers.
  Cycle accept(const func::MemAccess& acc, bool atomic, Cycle now);
  // sm.shared.atomics = lock_loop, where an atomic is a retry loop of micro-operations (the SM
  // sequences them): one LDSLK pass of `lanes`, the lanes still trying. Per lock bit the lowest
  // lane takes it (*winners). The pass holds the banks for its conflict ways; returns the cycle
  // its data is back. `first`: the atomic's first pass (counted as an atomic).
  Cycle accept_ldslk(const func::MemAccess& acc, std::uint64_t lanes, bool first,
                     std::uint64_t* winners, Cycle now);
  // The STSUL pass of the lanes that took their bits: holds the banks for its conflict ways.
  void accept_stsul(const func::MemAccess& acc, std::uint64_t lanes, Cycle now);
  const SharedStats& stats() const { return st_; }

 private:
  unsigned ways_of(const func::MemAccess& acc, std::uint64_t lanes) const;
  // Of `lanes`, the lowest lane per lock bit: those that take their bit in one LDSLK pass.
  std::uint64_t winners_of(const func::MemAccess& acc, std::uint64_t lanes) const;

  SharedMemParams p_;
  Cycle busy_until_ = 0;
  SharedStats st_;
};

}  // namespace simtsync::mem
