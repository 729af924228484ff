#include "timing/mem/shared_memory.h"

#include <algorithm>
#include <bit>

#include "func/executor.h"

namespace simtsync::mem {

SharedMemoryUnit::SharedMemoryUnit(const SharedMemParams& p) : p_(p) {
  p_.banks = std::max(1u, p_.banks);
  p_.bank_bytes = std::max(1u, p_.bank_bytes);
  p_.lock_bits = std::max(1u, p_.lock_bits);
}

unsigned SharedMemoryUnit::ways_of(const func::MemAccess& acc, std::uint64_t lanes) const {
  // Distinct words per bank; at most 64 lanes x 4 vector elements.
  Addr words[256];
  unsigned n = 0;
  for (int l : func::lanes(lanes))
    for (unsigned k = 0; k < acc.vec; ++k) {
      const Addr first = (acc.addr[l] + k * acc.bytes) / p_.bank_bytes;
      const Addr last = (acc.addr[l] + (k + 1) * acc.bytes - 1) / p_.bank_bytes;
      for (Addr w = first; w <= last && n < 256; ++w) words[n++] = w;
    }
  std::sort(words, words + n);
  n = static_cast<unsigned>(std::unique(words, words + n) - words);
  unsigned per_bank[256] = {};
  unsigned worst = 1;
  for (unsigned i = 0; i < n; ++i) {
    unsigned& c = per_bank[words[i] % p_.banks % 256];
    worst = std::max(worst, ++c);
  }
  return worst;
}

SharedCost SharedMemoryUnit::cost(const func::MemAccess& acc, bool atomic) const {
  SharedCost c;
  c.ways = ways_of(acc, acc.mask);
  if (!atomic) {
    c.cycles = c.ways;
    return c;
  }
  // Lock-unit rounds: each round every remaining lane loads-and-locks; per lock bit the
  // lowest remaining lane wins, modifies and stores-and-unlocks.
  std::uint64_t remaining = acc.mask;
  c.cycles = 0;
  c.attempts = 0;
  while (remaining) {
    const std::uint64_t winners = winners_of(acc, remaining);
    c.cycles += ways_of(acc, remaining) + 1 + ways_of(acc, winners);
    ++c.attempts;
    c.retries += static_cast<unsigned>(std::popcount(remaining) - std::popcount(winners));
    remaining &= ~winners;
  }
  return c;
}

Cycle SharedMemoryUnit::accept(const func::MemAccess& acc, bool atomic, Cycle now) {
  const SharedCost c = cost(acc, atomic);
  busy_until_ = now + c.cycles;
  ++st_.accesses;
  st_.conflict_cycles += c.cycles - 1;
  if (atomic) {
    ++st_.atomics;
    st_.lock_attempts += c.attempts;
    st_.lock_retries += c.retries;
  }
  return now + p_.latency + c.cycles - 1;
}

std::uint64_t SharedMemoryUnit::winners_of(const func::MemAccess& acc, std::uint64_t lanes) const {
  std::uint64_t won = 0;
  Addr taken[64];  // lock bits claimed this round
  unsigned n = 0;
  for (int l : func::lanes(lanes)) {
    const Addr bit = (acc.addr[l] / 4) % p_.lock_bits;
    if (std::find(taken, taken + n, bit) != taken + n) continue;
    taken[n++] = bit;
    won |= std::uint64_t{1} << l;
  }
  return won;
}

Cycle SharedMemoryUnit::accept_ldslk(const func::MemAccess& acc, std::uint64_t lanes, bool first,
                                     std::uint64_t* winners, Cycle now) {
  const std::uint64_t won = winners_of(acc, lanes);
  *winners = won;
  const unsigned cycles = ways_of(acc, lanes);
  busy_until_ = now + cycles;
  ++st_.accesses;
  st_.conflict_cycles += cycles - 1;
  st_.atomics += first ? 1 : 0;
  ++st_.lock_attempts;
  st_.lock_retries += static_cast<unsigned>(std::popcount(lanes) - std::popcount(won));
  return now + p_.latency + cycles - 1;
}

void SharedMemoryUnit::accept_stsul(const func::MemAccess& acc, std::uint64_t lanes, Cycle now) {
  const unsigned cycles = lanes ? ways_of(acc, lanes) : 1;
  busy_until_ = now + cycles;
  ++st_.accesses;
  st_.conflict_cycles += cycles - 1;
}

}  // namespace simtsync::mem
