#include "timing/mem/simple_memory.h"

#include <algorithm>
#include <map>

#include "func/executor.h"

namespace simtsync::mem {

SimpleMemory::SimpleMemory(SimpleMemoryParams p, int num_sms,
                           std::function<void(const MemRequest&)> perform)
    : p_(p),
      perform_(std::move(perform)),
      responses_(static_cast<size_t>(num_sms)),
      in_flight_(static_cast<size_t>(num_sms), 0),
      refused_(static_cast<size_t>(num_sms), 0),
      sent_(static_cast<size_t>(num_sms)) {}

SimpleMemoryStats SimpleMemory::stats() const {
  SimpleMemoryStats st = stats_;
  for (std::uint64_t n : refused_) st.refused += n;
  return st;
}

bool SimpleMemory::busy() const {
  for (unsigned n : in_flight_)
    if (n) return true;
  return false;
}

void SimpleMemory::summarize(MemRequest& r) {
  // Coalescing: distinct 32-byte sectors; local addresses are per thread, so lanes never share.
  const func::MemAccess& acc = *r.access;
  std::vector<Addr>& sectors = scratch_;
  sectors.clear();
  for (int l : func::lanes(acc.mask)) {
    const Addr base = r.space == ReqSpace::kLocal ? (Addr{static_cast<unsigned>(l)} << 40) : 0;
    const Addr a = base + acc.addr[l];
    for (Addr s = a / 32; s <= (a + acc.bytes * acc.vec - 1) / 32; ++s) sectors.push_back(s);
  }
  std::sort(sectors.begin(), sectors.end());
  r.transactions =
      static_cast<unsigned>(std::unique(sectors.begin(), sectors.end()) - sectors.begin());
  if (r.kind == ReqKind::kAtomic) {
    // The address most lanes hit decides the serialization (one lock word, typically).
    std::map<Addr, unsigned> count;
    unsigned best = 0;
    for (int l : func::lanes(acc.mask)) {
      const unsigned c = ++count[acc.addr[l]];
      if (c > best) {
        best = c;
        r.first_address = acc.addr[l];
      }
    }
    r.same_address_ops = best;
  }
}

bool SimpleMemory::try_send(const MemRequest& req, Cycle now) {
  unsigned& inflight = in_flight_[static_cast<size_t>(req.sm)];
  if (inflight >= p_.queue_depth) {
    ++refused_[static_cast<size_t>(req.sm)];
    return false;
  }
  ++inflight;
  // The shared bandwidth queue, atomic units and heap wait for commit() in a deferred phase.
  if (deferred_) {
    sent_[static_cast<size_t>(req.sm)].push_back({req, now});
    return true;
  }
  enter(req, now);
  return true;
}

void SimpleMemory::commit() {
  for (auto& v : sent_) {
    for (const auto& [r, now] : v) enter(r, now);
    v.clear();
  }
}

void SimpleMemory::enter(const MemRequest& req, Cycle now) {
  MemRequest r = req;
  if (r.access)
    summarize(r);
  else if (r.space == ReqSpace::kInst || r.space == ReqSpace::kUnit)
    r.transactions = 1;  // an instruction-cache fill or a reconvergence unit's spill/fill
  // Bandwidth: the request's sectors leave the SM one after another at the shared rate.
  const double bytes = static_cast<double>(r.transactions) * p_.line_bytes;
  const double start = std::max<double>(bw_free_, static_cast<double>(now));
  bw_free_ = start + bytes / p_.bytes_per_cycle;
  const unsigned round_trip = r.kind == ReqKind::kAtomic ? p_.atomic_latency : p_.latency;
  Cycle service = static_cast<Cycle>(bw_free_) + round_trip / 2;
  if (r.kind == ReqKind::kAtomic) {
    // The atomic unit of this address handles one lane operation every atomic_occupancy cycles.
    Cycle& free = atomic_free_[r.first_address];
    if (free > service) {
      stats_.atomic_wait_cycles += free - service;
      service = free;
    }
    free = service + std::uint64_t{p_.atomic_occupancy} * r.same_address_ops;
    stats_.atomics++;
    stats_.atomic_lane_ops += r.same_address_ops;
  } else if (r.kind == ReqKind::kLoad) {
    stats_.loads++;
  } else {
    stats_.stores++;
  }
  stats_.transactions += r.transactions;
  heap_.push_back({service, seq_++, r});
  std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
}

void SimpleMemory::tick(Cycle now) {
  while (!heap_.empty() && heap_.front().service <= now) {
    std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
    Pending p = heap_.back();
    heap_.pop_back();
    perform_(p.req);
    const bool atomic = p.req.kind == ReqKind::kAtomic;
    const unsigned round_trip = atomic ? p_.atomic_latency : p_.latency;
    const Cycle due = p.service +
                      (atomic ? std::uint64_t{p_.atomic_occupancy} * p.req.same_address_ops : 0) +
                      (round_trip - round_trip / 2);
    auto& q = responses_[static_cast<size_t>(p.req.sm)];
    q.push_back({due, seq_++, p.req});
    std::push_heap(q.begin(), q.end(), std::greater<>());
    earliest_response_ = std::min(earliest_response_, due);
  }
}

bool SimpleMemory::pop_response(int sm, Cycle now, MemRequest& out) {
  if (earliest_response_ > now) return false;
  auto& q = responses_[static_cast<size_t>(sm)];
  if (q.empty() || q.front().due > now) return false;
  std::pop_heap(q.begin(), q.end(), std::greater<>());
  out = q.back().req;
  q.pop_back();
  --in_flight_[static_cast<size_t>(sm)];
  earliest_response_ = kNever;
  for (const auto& r : responses_)
    if (!r.empty()) earliest_response_ = std::min(earliest_response_, r.front().due);
  return true;
}

Cycle SimpleMemory::next_event() const {
  Cycle t = kNever;
  if (!heap_.empty()) t = heap_.front().service;
  return std::min(t, earliest_response_);
}

}  // namespace simtsync::mem
