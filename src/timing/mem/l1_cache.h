// The L1 data cache of one SM (also used, with its own geometry, as the constant cache). It
// takes one packet per core cycle from the SM's coalesced request:
//  - a load that hits reads memory at once and completes `latency` cycles later;
//  - a load that misses takes an MSHR (or merges into the one for its line) and its fill
//    request waits in the miss queue for the interconnect; the fill, when it returns, installs
//    the line and completes every merged load (the first one read memory at L2, the merged
//    ones read it when the fill arrives);
//  - stores write through without allocating; atomics, `.volatile` and `.cg` accesses bypass
//    the cache: they go to the miss queue as they are. Stores and atomics evict their line
//    (write-evict), so this SM's later loads miss and reach L2 behind the write.
// A packet that cannot be taken (MSHRs or miss queue full) is refused and retried: a
// reservation failure. The cache holds no data and is not kept coherent: a hit reads the
// current memory (see docs/memory-model.md, "simplifications").
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "timing/mem/cacp.h"
#include "timing/mem/l2_slice.h"

namespace simtsync::mem {

enum class L1Outcome : std::uint8_t { kHit, kMiss, kMerged, kBypass, kRetry };

class L1Cache {
 public:
  // `fill_tag` marks the fill requests it sends (Packet::fill) so replies find their way back.
  L1Cache(const L1Params& p, const CacheGeometry& geo, unsigned latency, IPerform& perf,
          std::uint8_t fill_tag);

  L1Outcome access(const Packet& p, Cycle now) {
    if (refuses_at_once(p)) {
      ++stats_.reservation_failures;
      return L1Outcome::kRetry;
    }
    return access_slow(p, now);
  }
  // access() refuses `p` before looking at anything but the miss queue, and changes nothing but
  // the count of reservation failures: a packet that goes down as it is (an atomic, a
  // .volatile or .cg access, a store that does not write through) while the miss queue is
  // full. The commonest refusal: a storm of lock retries keeps an SM's packet here for many
  // cycles, and until the queue drains every retry is the same (issue 48).
  bool refuses_at_once(const Packet& p) const { return miss_q_.full() && goes_down_as_is(p); }
  // Refusals access() did not see: the memory side let an SM whose packet refuses_at_once()
  // sleep through that many of its cycles (MemoryHierarchy::tick_core).
  void count_refusals(std::uint64_t n) { stats_.reservation_failures += n; }
  // Completions of hits whose latency has passed.
  bool has_hit(Cycle now) const { return hits_.ready(now); }
  // The cycle the oldest hit completes (kNever: none in its pipeline).
  Cycle next_hit() const { return hits_.empty() ? kNever : hits_.next_ready(); }
  Packet& front_hit() { return hits_.front(); }
  void pop_hit() { hits_.pop(); }
  // Misses and bypassing packets waiting for the interconnect.
  bool has_miss() const { return !miss_q_.empty(); }
  Packet& front_miss() { return miss_q_.front(); }
  void pop_miss() { miss_q_.pop(); }
  // A fill for a line this cache requested: installs it and appends the loads it completes.
  void fill(const Packet& reply, std::vector<Packet>& done);
  bool busy() const { return !hits_.empty() || !miss_q_.empty() || !mshr_.empty(); }
  const CacheStats& stats() const { return stats_; }
  unsigned line_bytes() const { return geo_.line; }
  // CAWA's cache part (cacp.h) takes over the tags from now on, reading criticality from
  // `board` and each packet's requester from `who`. Call before the first access.
  void enable_cacp(const CriticalWarps* board, Cacp::RequesterFn who);
  const Cacp* cacp() const { return cacp_.get(); }

 private:
  L1Outcome access_slow(const Packet& p, Cycle now);
  // access() sends `p` to the miss queue whatever the tags say (no write-through path).
  bool goes_down_as_is(const Packet& p) const {
    return (p.bypass_l1 || p.kind == PacketKind::kAtomic ||
            (p.kind == PacketKind::kStore && !p_.write_through) || !p_.enabled);
  }

  L1Params p_;
  CacheGeometry geo_;
  unsigned latency_;
  IPerform& perf_;
  std::uint8_t fill_tag_;
  TagArray tags_;
  MshrTable mshr_;
  std::vector<Packet> released_;  // scratch: the waiters of the fill being installed
  BoundedQueue<Packet> miss_q_;
  DelayPipe<Packet> hits_;
  CacheStats stats_;
  std::unique_ptr<Cacp> cacp_;  // null: the tags are tags_ (LRU)
};

}  // namespace simtsync::mem
