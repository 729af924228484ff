// A shared-memory atomic run as Fermi's retry loop (sm.shared.atomics = lock_loop, seed 001
// Listing 1): LDSLK of the lanes still trying, then modify, STSUL and branch, each a
// micro-operation that takes an issue slot; round after round until no lane remains. The warp
// issues nothing else meanwhile (the lanes done wait beyond the branch).
//
// The SM keeps one loop per warp slot beside the generic WarpSlot (Sm::atomic_loops_): issue
// starts it and runs its micro-operations (Sm::issue_atomic_step, sm_atomic_loop.cc), the LD/ST
// unit performs its LDSLK rounds (Sm::ldst) and a memory completion hands it the LDSLK's data
// (Sm::finish_access).
#pragma once

#include <cstdint>

#include "common/types.h"

namespace simtsync::func {
struct MemAccess;
}

namespace simtsync::sm {

struct AtomicLoop {
  enum class Step : std::uint8_t { kWait, kModify, kStore, kBranch, kLoad };
  func::MemAccess* acc = nullptr;  // nullptr: no loop running
  std::uint64_t remaining = 0;     // lanes that have not taken their lock bit yet
  std::uint64_t winners = 0;       // lanes that took it in the current round
  Step step = Step::kWait;         // kWait: the LDSLK is in the LD/ST unit or in flight
  Cycle ready = 0;                 // the next micro-operation's operands are ready
  bool cas_second = false;         // `cas`: the compare has issued, the select is next
};

}  // namespace simtsync::sm
