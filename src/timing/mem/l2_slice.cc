#include "timing/mem/l2_slice.h"

#include <algorithm>

namespace simtsync::mem {

L2Slice::L2Slice(const L2Params& p, const AddressMap& map, IPerform& perf, IMemUnit& atomics,
                 DramChannel& dram, unsigned slice)
    : p_(p),
      map_(map),
      perf_(perf),
      atomics_(atomics),
      dram_(dram),
      slice_(slice),
      tags_(p.geo, p.global_set_index ? nullptr : &map),
      mshr_(p.mshrs, p.mshr_merge),
      input_(std::max(1u, p.input_queue)),
      replies_(std::max(8u, p.input_queue + p.mshrs)) {}

bool L2Slice::busy() const {
  return !input_.empty() || !replies_.empty() || !ready_.empty() || !mshr_.empty();
}

bool L2Slice::make_room(Addr line) {
  if (tags_.probe(line, false) != 0 || mshr_.pending(line)) return true;
  // A write-back may be needed: keep one DRAM slot for it.
  if (!dram_.can_accept()) return false;
  const Eviction ev = tags_.allocate(line);
  if (ev.dirty) {
    Packet wb;
    wb.kind = PacketKind::kStore;
    wb.line = ev.line;
    wb.sectors = ev.dirty_sectors;
    dram_.push(wb, map_.local_of(ev.line), static_cast<unsigned>(wb.data_bytes(32)), true);
    ++stats_.writebacks;
  }
  return true;
}

bool L2Slice::serve(const Packet& p, std::uint64_t now) {
  if (p.kind == PacketKind::kAtomic) return atomics_.push(p, now);
  if (replies_.full()) return false;
  if (!p.performed) perf_.perform(p);  // the load reads memory now
  replies_.try_push(p, now + p_.latency);
  return true;
}

bool L2Slice::access(const Packet& p, std::uint64_t now) {
  const Addr line = p.line;
  const std::uint32_t have = tags_.probe(line, true);
  if (p.kind == PacketKind::kStore) {
    if (replies_.full() || !make_room(line)) return false;
    if ((p.sectors & ~have) == 0)
      ++stats_.hits;
    else
      ++stats_.misses;
    tags_.fill(line, p.sectors, true);
    // Loads of this line still waiting (for the DRAM fill, or for room to reply) came first.
    if (std::vector<Packet>* w = mshr_.waiters(line))
      for (Packet& q : *w) read_before_write(perf_, q, stats_);
    for (Packet& q : ready_)
      if (q.line == line) read_before_write(perf_, q, stats_);
    if (!p.performed) perf_.perform(p);  // visible from now on (a write-through L1 hit already is)
    Packet ack = p;
    ack.level = 1;
    replies_.try_push(ack, now + p_.latency);
    return true;
  }
  const bool hit = (p.sectors & ~have) == 0 && !mshr_.pending(line);
  if (hit) {
    if (p.kind == PacketKind::kAtomic ? !atomics_.can_accept() : replies_.full()) return false;
    tags_.fill(line, p.sectors, p.kind == PacketKind::kAtomic);
    ++stats_.hits;
    Packet q = p;
    q.level = 1;
    serve(q, now);
    return true;
  }
  // Miss: merge into an outstanding fill, or start one (which needs a DRAM slot, and room
  // in the set for the line).
  const std::uint32_t fetch = p.sectors & ~have;
  if (!mshr_.pending(line)) {
    if (!dram_.can_accept() || !make_room(line) || !dram_.can_accept()) return false;
  }
  Packet q = p;
  q.level = 2;
  switch (mshr_.add(line, q, fetch)) {
    case MshrResult::kNew: {
      Packet f = q;
      f.sectors = fetch;
      dram_.push(f, map_.local_of(line), static_cast<unsigned>(f.data_bytes(32)), false);
      ++stats_.misses;
      return true;
    }
    case MshrResult::kMerged:
      ++stats_.mshr_merges;
      ++stats_.misses;
      return true;
    default:
      return false;
  }
}

void L2Slice::tick(std::uint64_t now) {
  // Fills from DRAM: the line's sectors arrive; its waiters are served in arrival order.
  while (dram_.has_return(slice_)) {
    const Packet f = dram_.front_return(slice_);
    dram_.pop_return(slice_);
    tags_.fill(f.line, f.sectors, false);
    mshr_.release(f.line, released_);
    for (const Packet& w : released_) ready_.push_back(w);
  }
  while (!ready_.empty()) {
    Packet& w = ready_.front();
    if (w.kind == PacketKind::kAtomic) tags_.fill(w.line, w.sectors, true);
    if (!serve(w, now)) break;
    ready_.pop_front();
  }
  if (input_.empty()) return;
  const Packet& p = input_.front();
  // Units that intercept this kind of access may hold it at the head of the input.
  const unsigned kind = p.kind == PacketKind::kLoad    ? unsigned{kInterceptReads}
                        : p.kind == PacketKind::kStore ? unsigned{kInterceptWrites}
                                                       : 0u;
  if (!filters_.empty() && p.internal == 0)
    for (IMemUnit* u : filters_)
      if ((u->intercepts() & kind) && !u->admit(p, now)) return;
  if (!access(p, now)) {
    ++stats_.reservation_failures;
    return;
  }
  if (!filters_.empty() && p.internal == 0)
    for (IMemUnit* u : filters_)
      if (u->intercepts() & kind) u->taken(p, now);
  stats_.count(p.kind);
  input_.pop();
}

}  // namespace simtsync::mem
