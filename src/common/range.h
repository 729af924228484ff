// Range checks that cannot wrap. `base + size` overflows near the top of the 64-bit address
// space (a store at 0xFFFFFFFFFFFFFFFC of 4 bytes "ends" at 0), so every check of an access,
// copy or allocation against a mapped range goes through these instead of adding.
#pragma once

#include <cstdint>

#include "common/types.h"

namespace simtsync {

// True when [base, base + size) lies inside [lo, hi) (hi exclusive). Never computes base + size:
// a range that would run past 2^64 is not within any range. A zero-sized range at hi is.
constexpr bool range_within(Addr base, std::uint64_t size, Addr lo, Addr hi) {
  return lo <= base && base <= hi && size <= hi - base;
}

// base + size into `end`; false (and `end` untouched) when the sum would wrap past 2^64.
constexpr bool range_end(Addr base, std::uint64_t size, Addr& end) {
  if (size > ~base) return false;
  end = base + size;
  return true;
}

}  // namespace simtsync
