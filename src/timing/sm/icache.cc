#include "timing/sm/icache.h"

#include <algorithm>

namespace simtsync::sm {

ICache::ICache(unsigned size_bytes, unsigned line_bytes, unsigned assoc, bool perfect,
               bool wait_for_fill)
    : line_(std::max(8u, line_bytes)),
      assoc_(std::max(1u, assoc)),
      perfect_(perfect),
      wait_for_fill_(wait_for_fill) {
  sets_ = std::max(1u, size_bytes / (line_ * assoc_));
  ways_.resize(std::size_t{sets_} * assoc_);
}

ICacheLookup ICache::access(Pc pc, Cycle now, Cycle fill_ready) {
  ++stats_.accesses;
  if (perfect_) {
    ++stats_.hits;
    return {.hit = true, .new_miss = false, .ready = now};
  }
  const std::uint64_t line = pc / line_;
  Way* set = &ways_[(line % sets_) * assoc_];
  Way* victim = set;
  for (unsigned w = 0; w < assoc_; ++w) {
    if (set[w].tag == line) {
      set[w].used = now + 1;
      if (set[w].ready > now) {
        ++stats_.pending_hits;
        return {.hit = false, .new_miss = false, .ready = set[w].ready};
      }
      ++stats_.hits;
      return {.hit = true, .new_miss = false, .ready = now};
    }
    if (set[w].used < victim->used) victim = &set[w];
  }
  ++stats_.misses;
  victim->tag = line;
  victim->used = now + 1;
  victim->ready = wait_for_fill_ ? fill_ready : now;
  return {.hit = false, .new_miss = true, .ready = fill_ready};
}

void ICache::filled(Addr line_addr, Cycle now) {
  const std::uint64_t line = line_addr / line_;
  Way* set = &ways_[(line % sets_) * assoc_];
  for (unsigned w = 0; w < assoc_; ++w)
    if (set[w].tag == line && set[w].ready > now) set[w].ready = now;
}

}  // namespace simtsync::sm
