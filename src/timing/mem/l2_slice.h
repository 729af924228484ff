// An L2 slice of a memory partition: a sectored, write-back, write-allocate cache in front of
// the partition's DRAM channel (shared with the partition's other slices, if any). It takes one
// packet per L2 cycle from its input queue:
//  - loads read memory when the slice has their sectors (a hit, or the fill from DRAM) and
//    reply `latency` cycles later;
//  - stores become visible when they are accepted here, allocate their line without fetching
//    it (their sectors become valid and dirty) and reply with an acknowledgement;
//  - atomics need their line present, then queue at the partition's atomic unit.
// Misses go through MSHRs (merging up to a limit); a dirty line that is evicted is written
// back to DRAM. A packet that cannot proceed (MSHRs full, DRAM or atomic queue full) stays at
// the head of the input queue: a reservation failure, counted, retried next cycle.
#pragma once

#include <cstdint>
#include <deque>
#include <iterator>
#include <vector>

#include "common/stat_table.h"
#include "timing/mem/address_map.h"
#include "timing/mem/dram.h"
#include "timing/mem/i_mem_unit.h"
#include "timing/mem/mshr.h"
#include "timing/mem/tag_array.h"

namespace simtsync::mem {

// Functional effect of a load or store packet (its lanes), supplied by the hierarchy.
class IPerform {
 public:
  virtual ~IPerform() = default;
  virtual void perform(const Packet& p) = 0;
};

struct CacheStats {
  std::uint64_t accesses = 0, hits = 0, misses = 0;
  std::uint64_t mshr_merges = 0;
  std::uint64_t reservation_failures = 0;            // MSHR or downstream queue full: retried
  std::uint64_t loads = 0, stores = 0, atomics = 0;  // transactions by kind
  std::uint64_t writebacks = 0;
  std::uint64_t early_reads = 0;  // waiting loads that read before a later write passed them
  // One access of this kind was taken.
  void count(PacketKind k) {
    ++accesses;
    ++(k == PacketKind::kLoad ? loads : k == PacketKind::kStore ? stores : atomics);
  }
};

inline constexpr StatField<CacheStats> kCacheStatFields[] = {
    SIMTSYNC_STAT(CacheStats, accesses, "transactions that looked up the cache"),
    SIMTSYNC_STAT(CacheStats, hits, "lookups that hit"),
    SIMTSYNC_STAT(CacheStats, misses, "lookups that missed"),
    SIMTSYNC_STAT(CacheStats, mshr_merges, "misses merged into an outstanding MSHR entry"),
    SIMTSYNC_STAT(CacheStats, reservation_failures,
                  "MSHR or downstream queue full: the transaction was retried"),
    SIMTSYNC_STAT(CacheStats, loads, "load transactions"),
    SIMTSYNC_STAT(CacheStats, stores, "store transactions"),
    SIMTSYNC_STAT(CacheStats, atomics, "atomic transactions"),
    SIMTSYNC_STAT(CacheStats, writebacks, "dirty lines written back"),
    SIMTSYNC_STAT(CacheStats, early_reads,
                  "loads waiting for a fill that read memory at once because a write to their "
                  "line was about to pass them (program order: a load never sees a later write)"),
};
inline constexpr StatDerived<CacheStats> kCacheDerived[] = {
    {"hit_rate", "hits / (hits + misses)",
     [](const CacheStats& c) { return stat_ratio(c.hits, c.hits + c.misses); }, StatShow::kPercent},
};

// A load waiting for a fill that a write to its line is about to pass reads memory now, so it
// does not see the write (docs/memory-model.md); serving it later does not read again.
inline void read_before_write(IPerform& perf, Packet& w, CacheStats& stats) {
  if (w.kind != PacketKind::kLoad || w.performed) return;
  perf.perform(w);
  w.performed = true;
  ++stats.early_reads;
}

class L2Slice {
 public:
  // `slice`: this slice's index among the slices sharing `dram`.
  // `atomics`: the memory-side unit that executes atomics.
  L2Slice(const L2Params& p, const AddressMap& map, IPerform& perf, IMemUnit& atomics,
          DramChannel& dram, unsigned slice = 0);
  // Memory-side units that intercept reads or writes entering the slice (IMemUnit::admit).
  void set_filters(std::vector<IMemUnit*> units) { filters_ = std::move(units); }

  bool can_accept() const { return !input_.full(); }
  bool push(const Packet& p) { return input_.try_push(p); }
  void tick(std::uint64_t now);  // one L2 cycle
  bool has_reply(std::uint64_t now) const { return replies_.ready(now); }
  Packet& front_reply() { return replies_.front(); }
  void pop_reply() { replies_.pop(); }
  bool busy() const;
  // Its next tick has something to do (a packet to take, a waiter to serve, a fill to install);
  // otherwise it only waits for DRAM or for its replies to leave.
  // The L2 cycle its oldest reply is ready to leave (~0: none).
  std::uint64_t reply_at() const {
    return replies_.empty() ? ~std::uint64_t{0} : replies_.next_ready();
  }
  bool has_work() const { return !input_.empty() || !ready_.empty() || dram_.has_return(slice_); }
  const CacheStats& stats() const { return stats_; }
  TagArray& tags() { return tags_; }
  const TagArray& tags() const { return tags_; }

 private:
  bool access(const Packet& p, std::uint64_t now);  // false: retry later
  bool make_room(Addr line);                        // allocate, writing back a dirty victim
  bool serve(const Packet& p, std::uint64_t now);   // a waiter whose line has arrived

  L2Params p_;
  const AddressMap& map_;
  IPerform& perf_;
  IMemUnit& atomics_;
  std::vector<IMemUnit*> filters_;
  DramChannel& dram_;
  unsigned slice_;
  TagArray tags_;
  MshrTable mshr_;
  std::vector<Packet> released_;  // scratch: the waiters of the fill being installed
  BoundedQueue<Packet> input_;
  DelayPipe<Packet> replies_;
  std::deque<Packet> ready_;  // filled waiters that could not move on yet
  CacheStats stats_;
};

}  // namespace simtsync::mem
