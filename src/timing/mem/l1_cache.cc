#include "timing/mem/l1_cache.h"

#include <algorithm>

namespace simtsync::mem {

L1Cache::L1Cache(const L1Params& p, const CacheGeometry& geo, unsigned latency, IPerform& perf,
                 std::uint8_t fill_tag)
    : p_(p),
      geo_(geo),
      latency_(latency),
      perf_(perf),
      fill_tag_(fill_tag),
      tags_(geo, nullptr, p.fermi_hash_sets),
      mshr_(p.mshrs, p.mshr_merge),
      miss_q_(std::max(1u, p.miss_queue)),
      hits_(std::max(4u, latency + 2)) {}

void L1Cache::enable_cacp(const CriticalWarps* board, Cacp::RequesterFn who) {
  ++version_;
  cacp_ = std::make_unique<Cacp>(p_.cacp, geo_, tags_, board, std::move(who));
}

L1Outcome L1Cache::access_slow(const Packet& p, Cycle now) {
  // Every outcome but a refusal changes something (count_kind() runs on each of them).
  auto count_kind = [&] {
    ++version_;
    stats_.count(p.kind);
  };
  if (p_.write_through && p_.enabled && !p_.perfect && !p.bypass_l1 &&
      p.kind == PacketKind::kStore) {
    // Write-through: a store that hits every sector it writes, with no fill of the line in
    // flight (whose loads came first and read at L2), updates the line, which stays: the
    // store is visible from now on, so this SM's later hits read it, and goes on to L2
    // already performed. The memory is one copy, so other SMs see it now too, one
    // interconnect traversal before it reaches L2 (docs/memory-model.md).
    const std::uint32_t have = cacp_ ? cacp_->probe(p.line) : tags_.probe(p.line, true);
    if ((p.sectors & ~have) == 0 && !mshr_.pending(p.line)) {
      if (miss_q_.full()) return refuse(p, Full::kMissQueue);
      perf_.perform(p);
      Packet w = p;
      w.performed = true;
      miss_q_.try_push(w);
      count_kind();
      ++stats_.hits;
      return L1Outcome::kBypass;
    }
  }
  if (p.bypass_l1 || p.kind != PacketKind::kLoad || !p_.enabled) {
    if (!miss_q_.try_push(p)) return refuse(p, Full::kMissQueue);
    if (p.kind != PacketKind::kLoad) {
      // Write-evict: the line leaves L1 (and a fill in flight will not install it), so later
      // loads of this SM go to L2 behind the write and see it. Loads merged into that fill came
      // first and read now, before the write leaves (the first waiter reads at L2, ahead of it).
      if (cacp_)
        cacp_->invalidate(p.line);
      else
        tags_.invalidate(p.line);
      if (std::vector<Packet>* w = mshr_.waiters(p.line))
        for (size_t i = 1; i < w->size(); ++i) read_before_write(perf_, (*w)[i], stats_);
      mshr_.close(p.line);
    }
    count_kind();
    return L1Outcome::kBypass;
  }
  const std::uint32_t have = p_.perfect ? ~std::uint32_t{0}
                             : cacp_    ? cacp_->probe(p.line)
                                        : tags_.probe(p.line, true);
  if ((p.sectors & ~have) == 0 && !mshr_.pending(p.line)) {
    if (hits_.full()) return refuse(p, Full::kHits);
    perf_.perform(p);
    hits_.try_push(p, now + latency_);
    if (cacp_) cacp_->hit(p);
    count_kind();
    ++stats_.hits;
    return L1Outcome::kHit;
  }
  const std::uint32_t fetch = p_.fill_whole_line ? tags_.all_sectors() : (p.sectors & ~have);
  if (!mshr_.pending(p.line) && miss_q_.full()) return refuse(p, Full::kMissQueue);
  switch (mshr_.add(p.line, p, fetch)) {
    case MshrResult::kNew: {
      Packet f = p;
      f.sectors = fetch | p.sectors;
      f.fill = fill_tag_;
      miss_q_.try_push(f);
      if (cacp_) cacp_->miss(p, true);
      count_kind();
      ++stats_.misses;
      return L1Outcome::kMiss;
    }
    case MshrResult::kMerged:
      if (cacp_) cacp_->miss(p, false);
      count_kind();
      ++stats_.misses;
      ++stats_.mshr_merges;
      return L1Outcome::kMerged;
    case MshrResult::kNotCovered:
      // A sector miss on a line whose fill is in flight without the sectors this load wants:
      // it goes down now on its own, read at L2 and answered without filling L1, instead of
      // holding the SM's L1 port until that fill is back (GPGPU-Sim's sector cache also sends
      // it at once; it fills the sectors too).
      if (!miss_q_.try_push(p)) return refuse(p, Full::kMissQueue);
      if (cacp_) cacp_->miss(p, false);
      count_kind();
      ++stats_.misses;
      return L1Outcome::kBypass;
    default:  // MSHRs full, or the line's entry full or closed
      return refuse(p, Full::kOther);
  }
}

void L1Cache::fill(const Packet& reply, std::vector<Packet>& done) {
  ++version_;
  const bool stale = mshr_.closed(reply.line);
  std::vector<Packet>& waiters = released_;
  mshr_.release(reply.line, waiters);
  if (waiters.empty()) return;
  if (cacp_) {
    if (stale)
      cacp_->forget(reply.line);
    else
      cacp_->fill(reply.line, reply.sectors);
  } else if (!stale) {
    tags_.allocate(reply.line);
    tags_.fill(reply.line, reply.sectors, false);
  }
  // The first waiter is the load whose request went down: it read memory at L2.
  for (size_t i = 1; i < waiters.size(); ++i)
    if (!waiters[i].performed) perf_.perform(waiters[i]);
  // Every waiter was served where the fill came from (L2 or DRAM), for the latency statistics.
  for (Packet& w : waiters) w.level = reply.level;
  done.insert(done.end(), waiters.begin(), waiters.end());
}

}  // namespace simtsync::mem
