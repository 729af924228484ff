// Instruction cache tags: set-associative, LRU. Only timing: instructions come from the
// decoded program. A miss fills from L2 through the memory port (mem.model: hierarchy) or after
// sm.icache.miss_latency (mem.model: simple); a perfect I-cache never misses.
#pragma once

#include <cstdint>
#include <iterator>
#include <vector>

#include "common/stat_table.h"
#include "common/types.h"

namespace simtsync::sm {

struct ICacheStats {
  std::uint64_t accesses = 0, hits = 0, misses = 0;
};

inline constexpr StatField<ICacheStats> kICacheStatFields[] = {
    SIMTSYNC_STAT(ICacheStats, accesses, "instruction-cache accesses"),
    SIMTSYNC_STAT(ICacheStats, hits, "instruction-cache hits"),
    SIMTSYNC_STAT(ICacheStats, misses, "instruction-cache misses"),
};

class ICache {
 public:
  // perfect (sm.icache.perfect): every access hits, so no fill is ever requested, whichever
  // memory model would serve it.
  ICache(unsigned size_bytes, unsigned line_bytes, unsigned assoc, bool perfect = false);
  // Returns true on a hit; on a miss installs the line (evicting the LRU way).
  bool access(Pc pc, Cycle now);
  const ICacheStats& stats() const { return stats_; }

 private:
  struct Way {
    std::uint64_t tag = ~std::uint64_t{0};
    Cycle used = 0;
  };
  unsigned line_, assoc_, sets_;
  bool perfect_;
  std::vector<Way> ways_;
  ICacheStats stats_;
};

}  // namespace simtsync::sm
