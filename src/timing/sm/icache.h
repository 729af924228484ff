// Instruction cache tags: set-associative, LRU. Only timing: instructions come from the
// decoded program. A miss fills from L2 through the memory port (mem.model: hierarchy) or after
// sm.icache.miss_latency (mem.model: simple); a perfect I-cache never misses. A line that
// missed is usable once its fill is back: a warp fetching it before then waits for the same
// fill, a pending hit (sm.icache.wait_for_fill; off, the line is usable from the miss on).
#pragma once

#include <cstdint>
#include <iterator>
#include <vector>

#include "common/stat_table.h"
#include "common/types.h"

namespace simtsync::sm {

struct ICacheStats {
  std::uint64_t accesses = 0, hits = 0, misses = 0, pending_hits = 0;
};

inline constexpr StatField<ICacheStats> kICacheStatFields[] = {
    SIMTSYNC_STAT_SHOWN(ICacheStats, accesses, "instruction-cache accesses"),
    SIMTSYNC_STAT(ICacheStats, hits, "instruction-cache hits"),
    SIMTSYNC_STAT_SHOWN(ICacheStats, misses, "instruction-cache misses"),
    SIMTSYNC_STAT(ICacheStats, pending_hits,
                  "instruction-cache accesses to a missed line whose fill is not back yet"),
};

// What a fetch finds: the line there (hit), or not usable until `ready` (a sentinel the caller
// chose, e.g. "until filled()"); new_miss when the line was absent and its fill must be asked for.
struct ICacheLookup {
  bool hit = false;
  bool new_miss = false;
  Cycle ready = 0;
};

class ICache {
 public:
  // perfect (sm.icache.perfect): every access hits, so no fill is ever requested, whichever
  // memory model would serve it.
  ICache(unsigned size_bytes, unsigned line_bytes, unsigned assoc, bool perfect = false,
         bool wait_for_fill = true);
  // On a miss installs the line (evicting the LRU way), usable from fill_ready on (or at once
  // without wait_for_fill).
  ICacheLookup access(Pc pc, Cycle now, Cycle fill_ready);
  // The fill of the line at `line_addr` is back: the line is usable from `now` on.
  void filled(Addr line_addr, Cycle now);
  const ICacheStats& stats() const { return stats_; }

 private:
  struct Way {
    std::uint64_t tag = ~std::uint64_t{0};
    Cycle used = 0;
    Cycle ready = 0;  // usable from this cycle on
  };
  unsigned line_, assoc_, sets_;
  bool perfect_, wait_for_fill_;
  std::vector<Way> ways_;
  ICacheStats stats_;
};

}  // namespace simtsync::sm
