#include "timing/sm/icache.h"

#include <algorithm>

namespace simtsync::sm {

ICache::ICache(unsigned size_bytes, unsigned line_bytes, unsigned assoc, bool perfect)
    : line_(std::max(8u, line_bytes)), assoc_(std::max(1u, assoc)), perfect_(perfect) {
  sets_ = std::max(1u, size_bytes / (line_ * assoc_));
  ways_.resize(std::size_t{sets_} * assoc_);
}

bool ICache::access(Pc pc, Cycle now) {
  ++stats_.accesses;
  if (perfect_) {
    ++stats_.hits;
    return true;
  }
  const std::uint64_t line = pc / line_;
  Way* set = &ways_[(line % sets_) * assoc_];
  Way* victim = set;
  for (unsigned w = 0; w < assoc_; ++w) {
    if (set[w].tag == line) {
      set[w].used = now + 1;
      ++stats_.hits;
      return true;
    }
    if (set[w].used < victim->used) victim = &set[w];
  }
  ++stats_.misses;
  victim->tag = line;
  victim->used = now + 1;
  return false;
}

}  // namespace simtsync::sm
