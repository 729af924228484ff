#include "timing/mem/atomic_unit.h"

#include <algorithm>
#include <bit>

namespace simtsync::mem {

AtomicUnit::AtomicUnit(const AtomicParams& p, IAtomicLanes& lanes, const LockQueueParams& lq)
    : p_(p),
      lanes_(lanes),
      queue_(std::max(1u, p.queue)),
      // The L2 access latency is a pipeline: room for what it holds at full rate, so it delays
      // replies without capping the unit's throughput (queue / latency) below the old one.
      out_(std::max(1u, p.queue) + p.l2_access * std::max(1u, p.ops_per_cycle)),
      lq_(lq),
      locks_(lq),
      backoff_(std::max(1u, p.queue) * 64) {
  p_.ops_per_cycle = std::max(1u, p_.ops_per_cycle);
}

bool AtomicUnit::push(const Packet& p, std::uint64_t now) {
  if (!queue_.try_push(Item{p, now, p.lanes})) {
    ++stats_.queue_refusals;
    return false;
  }
  stats_.max_queue = std::max<std::uint64_t>(stats_.max_queue, queue_.size());
  return true;
}

bool AtomicUnit::execute_lane(Item& it, unsigned lane, std::uint64_t now) {
  const std::uint64_t bit = std::uint64_t{1} << lane;
  const Addr a = lanes_.lane_address(it.p, lane);
  auto f = addr_free_.find(a);
  if (f != addr_free_.end() && f->second > now) {
    ++stats_.address_stall_cycles;
    return false;
  }
  if (it.remaining == bit && out_.full()) return false;  // no room to reply
  const int kind = lq_.mode == LockQueueMode::kOff ? 0 : lanes_.lock_kind(it.p);
  using Admit = LockQueueTable::Admit;
  // A hand-over is already the queue's head: it takes the lock without asking again.
  const bool bounded = lq_.mode == LockQueueMode::kBounded;
  ops_.clear();
  const Admit admit = kind == 1 && !it.p.grant
                          ? locks_.lock(a, it.p, lane, now, bounded ? &ops_ : nullptr)
                          : Admit::kProceed;
  it.remaining &= ~bit;
  ++stats_.ops;
  if (admit == Admit::kParked) {
    // It waits in the queue instead of failing: no memory operation, no reply now.
    it.parked |= bit;
    lanes_.parked(it.p);
    send_records();
    return true;
  }
  it.turned_away |= admit == Admit::kTurnedAway;
  const bool ok = lanes_.perform_lane(it.p, lane);
  addr_free_[a] = now + p_.same_address_interval;
  if (kind == 1 && admit == Admit::kProceed && !ok) locks_.abandon(a);
  LockRecord next;
  if (kind == 2 && locks_.unlock(a, now, next, bounded ? &ops_ : nullptr)) {
    // The lock passes to the next record: its request goes again, ahead of new ones (sec. 6.3);
    // bounded, once the record has been read from memory.
    Packet g = next.p;
    g.grant = true;
    Item gi{g, bounded ? ~std::uint64_t{0} : now, g.lanes};
    gi.token = next_token_++;
    grants_.push_back(gi);
  }
  send_records();
  return true;
}

void AtomicUnit::send_records() {
  for (const RecordOp& op : ops_) {
    Packet r;
    r.kind = op.write ? PacketKind::kStore : PacketKind::kLoad;
    r.line = op.addr / lq_.line_bytes * lq_.line_bytes;
    r.sectors = 1u << ((op.addr - r.line) / std::max(1u, lq_.sector_bytes));
    r.internal = op.write ? 1 : 2;
    r.req = op.write ? 0 : grants_.back().token;  // a read is always the last hand-over's
    r.bypass_l1 = true;
    record_out_.push_back(r);
  }
  ops_.clear();
}

void AtomicUnit::record_read_done(const Packet& p, std::uint64_t now) {
  for (Item& g : grants_)
    if (g.token == p.req) {
      g.arrived = now;
      return;
    }
}

void AtomicUnit::tick(std::uint64_t now) {
  unsigned budget = p_.ops_per_cycle;
  // Hand-overs of queued locks first: priority over incoming requests (seed 004 sec. 6.3).
  for (auto g = grants_.begin(); budget > 0 && g != grants_.end();) {
    if (g->arrived > now) {  // its record is still being read (bounded)
      ++g;
      continue;
    }
    if (!execute_lane(*g, static_cast<unsigned>(std::countr_zero(g->remaining)), now)) break;
    --budget;
    out_.try_push(g->p, now + p_.latency + p_.l2_access);
    ++stats_.packets;
    g = grants_.erase(g);
  }
  while (budget > 0 && !queue_.empty()) {
    Item& it = queue_.front();
    if (!head_started_) {
      stats_.queue_wait_cycles += now - it.arrived;
      head_started_ = true;
    }
    if (it.remaining == 0) {
      // An atomic packet without lanes (cannot happen from the coalescer) still replies.
      if (out_.full()) break;
    } else {
      if (!execute_lane(it, static_cast<unsigned>(std::countr_zero(it.remaining)), now)) break;
      --budget;
      if (it.remaining != 0) continue;
    }
    Packet r = it.p;
    r.lanes &= ~it.parked;
    if (it.parked != 0 && r.lanes == 0) {
      lanes_.dropped(it.p);  // every lane waits in a queue: nothing to answer yet
    } else if (it.turned_away && !backoff_.full()) {
      backoff_.try_push(r, now + p_.latency + p_.l2_access + lq_.backoff);
    } else {
      out_.try_push(r, now + p_.latency + p_.l2_access);
    }
    ++stats_.packets;
    queue_.pop();
    head_started_ = false;
  }
  // Forget addresses whose interval is over (bounded memory on long runs).
  if (now - last_prune_ >= 4096) {
    last_prune_ = now;
    std::erase_if(addr_free_, [now](const auto& kv) { return kv.second <= now; });
  }
}

}  // namespace simtsync::mem
