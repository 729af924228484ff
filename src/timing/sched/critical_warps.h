// Which warps of one SM its issue policy rates critical, for the L1's criticality-aware cache
// prioritization (CACP, cacp.h). CAWA's criticality predictor lives in the issue policy
// (sched/impl/cawa.cc) and its cache part in the L1: this board is the wire between them, the
// "critical" bit a request carries into the cache. The policy writes it (from the SM phase),
// the L1 reads it when a packet enters (the memory side's tick, after the SM phase). It lives
// with the policies (sched is above mem in the layer order); the L1 includes it.
#pragma once

#include <cstdint>
#include <vector>

namespace simtsync::sched {

struct CriticalWarps {
  // A policy that re-rates its warps (CAWA: every cycle its SM ticks) writes its marks only when
  // someone reads the board (the L1, for a packet), not at every re-rating: it registers here
  // as stale, and the first read after has each stale source write its marks from the ratings
  // of its last re-rating (issue 48: writing them at every re-rating was a fifth of CAWA's
  // order()). The board reads as it would had every source written its marks at once.
  class ISource {
   public:
    virtual void publish() = 0;  // writes the marks of the last re-rating
   protected:
    ~ISource() = default;
  };
  // By SM warp slot: 1 while the issue policy rates the warp in that slot critical (read it
  // through is_critical(), which brings it up to date).
  mutable std::vector<std::uint8_t> critical;
  // Sources whose marks are not written yet (each at most once).
  mutable std::vector<ISource*> stale;
  // The issue policy asks for CACP in this SM's L1 (cawa does, gcaws does not); the L1 runs it
  // when mem.l1.cacp is auto and this is set, or when mem.l1.cacp is on.
  bool cacp_requested = false;
  // Where CACP counts its statistics: the asking policy's declared counters (its CACP block,
  // in CacpStat order), or null (CACP then counts into its own array).
  std::uint64_t* counters = nullptr;

  bool is_critical(int slot) const {
    if (!stale.empty()) flush();
    return slot >= 0 && static_cast<std::size_t>(slot) < critical.size() &&
           critical[static_cast<std::size_t>(slot)] != 0;
  }
  void flush() const {
    for (ISource* s : stale) s->publish();
    stale.clear();
  }
  void set(int slot, bool c) {
    if (slot < 0) return;
    const auto s = static_cast<std::size_t>(slot);
    if (s >= critical.size()) critical.resize(s + 1, 0);
    critical[s] = c ? 1 : 0;
  }
};

// CACP's statistics, in the order the asking policy declares them (declare_cacp_stats).
enum CacpStat : unsigned {
  kCacpPredCritical,     // fills the CCBP predicted critical: into the critical partition
  kCacpPredNormal,       // fills predicted non-critical, inserted at the long re-reference
  kCacpLowPriority,      // fills predicted non-critical with no reuse: inserted distant
  kCacpBypasses,         // fills predicted non-critical with no reuse, not installed (bypass)
  kCacpCriticalLookups,  // load lookups by a critical warp
  kCacpCriticalHits,     // ... that hit
  kCacpNoncriticalHits,  // load hits by a non-critical warp
  kCacpCcbpDemotions,    // critical-partition lines evicted without a critical reuse
  kCacpStatCount
};

}  // namespace simtsync::sched
