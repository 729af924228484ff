// Counters the functional model increments; naming and derived values live in stats/.
#pragma once

#include <cstdint>

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
};

}  // namespace simtsync::func
