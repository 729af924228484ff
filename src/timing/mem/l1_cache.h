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
    if (refuses_at_once(p) || refuses_again(p)) {
      ++stats_.reservation_failures;
      return L1Outcome::kRetry;
    }
    return access_slow(p, now);
  }
  // access() refused this same packet last time, and nothing in the cache changed since (no
  // access taken, fill, miss sent on or hit completed; the tags are not CACP's): it refuses it
  // again, and the refusal changed nothing but the count (a refused access only touches its
  // line's LRU, already the newest). The retries of an SM whose MSHRs are full (a
  // bandwidth-bound kernel: TSP at paper size refuses ten packets a cycle) skip the tags and
  // MSHRs (issue 48).
  bool refuses_again(const Packet& p) const {
    return refused_at_ == version_ &&
           (refused_misses_ == kAny || refused_misses_ == misses_sent_) &&
           (refused_hits_ == kAny || refused_hits_ == hits_done_) && p.line == refused_line_ &&
           p.sectors == refused_sectors_ && p.kind == refused_kind_ &&
           p.bypass_l1 == refused_bypass_;
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
  void pop_hit() {
    hits_.pop();
    ++hits_done_;
  }
  // Misses and bypassing packets waiting for the interconnect.
  bool has_miss() const { return !miss_q_.empty(); }
  Packet& front_miss() { return miss_q_.front(); }
  void pop_miss() {
    miss_q_.pop();
    ++misses_sent_;
  }
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
  // A reservation failure of `p`, remembered for refuses_again(): `full_miss_queue` when the
  // miss queue being full refused it (a miss sent on may change the outcome), `full_hits` when
  // the hit pipeline being full did (a hit completing may).
  enum class Full : std::uint8_t { kMissQueue, kHits, kOther };
  L1Outcome refuse(const Packet& p, Full why) {
    ++stats_.reservation_failures;
    if (!cacp_) {
      refused_at_ = version_;
      refused_misses_ = why == Full::kMissQueue ? misses_sent_ : kAny;
      refused_hits_ = why == Full::kHits ? hits_done_ : kAny;
      refused_line_ = p.line;
      refused_sectors_ = p.sectors;
      refused_kind_ = p.kind;
      refused_bypass_ = p.bypass_l1;
    }
    return L1Outcome::kRetry;
  }
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
  // Bumped by everything else that can change an access's outcome (an access taken, a fill);
  // refused_at_ is its value at the last refusal (version_ starts above it: no refusal yet).
  // Misses sent on and hits completed are counted apart: they matter only to a refusal for a
  // full miss queue or hit pipeline (kAny: to none).
  static constexpr std::uint64_t kAny = ~std::uint64_t{0};
  std::uint64_t version_ = 1;
  std::uint64_t misses_sent_ = 0;
  std::uint64_t hits_done_ = 0;
  std::uint64_t refused_at_ = 0;
  std::uint64_t refused_misses_ = kAny;
  std::uint64_t refused_hits_ = kAny;
  Addr refused_line_ = 0;
  std::uint32_t refused_sectors_ = 0;
  PacketKind refused_kind_ = PacketKind::kLoad;
  bool refused_bypass_ = false;
  std::unique_ptr<Cacp> cacp_;  // null: the tags are tags_ (LRU)
};

}  // namespace simtsync::mem
