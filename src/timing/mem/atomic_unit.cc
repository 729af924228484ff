#include "timing/mem/atomic_unit.h"

#include <algorithm>
#include <bit>

namespace simtsync::mem {

AtomicUnit::AtomicUnit(const AtomicParams& p, IAtomicLanes& lanes, ILockArbiter* arbiter)
    : p_(p),
      lanes_(lanes),
      queue_(std::max(1u, p.queue)),
      // The L2 access latency is a pipeline: room for what it holds at full rate, so it delays
      // replies without capping the unit's throughput (queue / latency) below the old one.
      out_(std::max(1u, p.queue) + p.l2_access * std::max(1u, p.ops_per_cycle)),
      locks_(arbiter),
      backoff_(std::max(1u, p.queue) * 64) {
  p_.ops_per_cycle = std::max(1u, p_.ops_per_cycle);
}

bool AtomicUnit::push(const Packet& p, std::uint64_t now) {
  if (!queue_.try_push(Item{p, now, p.lanes})) {
    ++stats_.queue_refusals;
    return false;
  }
  stats_.max_queue = std::max<std::uint64_t>(stats_.max_queue, queue_.size());
  note_occupancy();
  return true;
}

bool AtomicUnit::execute_lane(Item& it, unsigned lane, std::uint64_t now) {
  const std::uint64_t bit = std::uint64_t{1} << lane;
  const Addr a = lanes_.lane_address(it.p, lane);
  for (const AddrFree& f : addr_free_)
    if (f.addr == a && f.free > now) {
      ++stats_.address_stall_cycles;
      return false;
    }
  if (it.remaining == bit && out_.full()) return false;  // no room to reply
  const int kind = locks_ ? lanes_.lock_kind(it.p) : 0;
  using Admit = ILockArbiter::Admit;
  // A hand-over is already the queue's head: it takes the lock without asking again.
  const bool bounded = locks_ && locks_->records_in_memory();
  ops_.clear();
  const Admit admit = kind == 1 && !it.p.grant
                          ? locks_->lock(a, it.p, lane, now, bounded ? &ops_ : nullptr)
                          : Admit::kProceed;
  it.remaining &= ~bit;
  ++stats_.ops;
  if (admit == Admit::kParked) {
    // It waits in the queue instead of failing: no memory operation, no reply now.
    it.parked |= bit;
    lanes_.parked(it.p);
    if (obs_) obs_->lock_parked(slice_, a, it.p, lane);
    send_records();
    return true;
  }
  it.turned_away |= admit == Admit::kTurnedAway;
  const bool ok = lanes_.perform_lane(it.p, lane);
  set_addr_free(a, now + p_.same_address_interval, now);
  if (kind == 1 && admit == Admit::kProceed && !ok) locks_->abandon(a);
  Packet g;
  if (kind == 2 && locks_->unlock(a, now, g, bounded ? &ops_ : nullptr)) {
    // The lock passes to the next record: its request goes again, ahead of new ones (sec. 6.3);
    // bounded, once the record has been read from memory.
    g.grant = true;
    if (obs_) obs_->lock_handed(slice_, a, g);
    Item gi{g, bounded ? ~std::uint64_t{0} : now, g.lanes};
    gi.token = next_token_++;
    grants_.push_back(gi);
  }
  send_records();
  return true;
}

void AtomicUnit::set_addr_free(Addr a, std::uint64_t free, std::uint64_t now) {
  for (AddrFree& f : addr_free_)
    if (f.addr == a) {
      f.free = free;
      return;
    }
  std::erase_if(addr_free_, [now](const AddrFree& f) { return f.free <= now; });
  addr_free_.push_back({a, free});
}

void AtomicUnit::send_records() {
  for (const RecordOp& op : ops_) {
    Packet r;
    r.kind = op.write ? PacketKind::kStore : PacketKind::kLoad;
    r.line = op.addr / p_.line_bytes * p_.line_bytes;
    r.sectors = 1u << ((op.addr - r.line) / std::max(1u, p_.sector_bytes));
    r.internal = op.write ? 1 : 2;
    r.req = op.write ? 0 : grants_.back().token;  // a read is always the last hand-over's
    r.bypass_l1 = true;
    record_out_.push_back(r);
  }
  ops_.clear();
}

void AtomicUnit::access_done(const Packet& p, std::uint64_t now) {
  if (p.internal != 2) return;  // a record write: nothing waits for it
  for (Item& g : grants_)
    if (g.token == p.req) {
      g.arrived = now;
      return;
    }
}

std::uint64_t AtomicUnit::next_tick(std::uint64_t now) const {
  // Waiting packets and records to send move (or count a stall) every cycle; replies in out_ and
  // backoff_ only wait to be taken; a hand-over waits for the cycle its record read arrived.
  if (!queue_.empty() || !record_out_.empty()) return now + 1;
  std::uint64_t t = ~std::uint64_t{0};
  for (const Item& g : grants_) t = std::min(t, std::max(g.arrived, now + 1));
  return t;
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
    note_occupancy();
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
      backoff_.try_push(r, now + p_.latency + p_.l2_access + locks_->backoff());
    } else {
      out_.try_push(r, now + p_.latency + p_.l2_access);
    }
    ++stats_.packets;
    queue_.pop();
    head_started_ = false;
    note_occupancy();
  }
}

// --- the memory-side unit `atomic` (mem_units.def) -----------------------------------------------

std::unique_ptr<IMemUnit> make_atomic(const MemUnitContext& ctx, const config::PluginParams& k) {
  auto u = [&](const char* name) { return static_cast<unsigned>(k.get_int(name)); };
  AtomicParams p;
  p.queue = u("queue");
  p.ops_per_cycle = u("ops_per_cycle");
  p.same_address_interval = u("same_address_interval");
  p.latency = u("latency");
  p.l2_access = k.get_bool("l2_access") ? ctx.hier.l2.latency : 0;
  p.line_bytes = ctx.hier.l2.geo.line;
  p.sector_bytes = ctx.hier.l1.geo.sector;
  return std::make_unique<AtomicUnit>(p, *ctx.lanes);
}

void declare_atomic(config::PluginDecl& d) {
  d.add_int("queue", 16, 1, 1 << 16, "Atomic packets waiting for a slice's unit", "estimate")
      .add_int("ops_per_cycle", 1, 1, 64, "Lane operations an atomic unit starts per L2 cycle",
               "NVIDIA Fermi whitepaper (atomics at L2, one per clock per unit); estimate")
      .add_int("same_address_interval", 4, 1, 100000,
               "L2 cycles between two atomic operations on one address (its read-modify-write)",
               "estimate (see docs/memory-calibration.md, same-address throughput)")
      .add_int("latency", 20, 1, 100000, "Atomic unit pipeline, L2 cycles", "estimate")
      .add_bool("l2_access", true,
                "An atomic's reply also waits the L2 slice's access latency (mem.l2.latency), as "
                "a load's reply does: the read-modify-write reads the line from the data array; "
                "false: only the unit's pipeline (simtsync before 2026-11-29, which recorded "
                "experiments pin)",
                "GPGPU-Sim 4.2: every access entering an L2 slice, atomics included, waits "
                "-gpgpu_l2_rop_latency; the atomic_chain probe (docs/results/correlation_gpgpusim/"
                "probes.csv) took 155 cycles here against a 240-cycle DRAM load, 310 in GPGPU-Sim");
  declare_stats<AtomicStats>(d, kAtomicStatFields);
  d.ratio("avg_queue_wait", "queue_wait_cycles", "packets",
          "L2 cycles an atomic packet waited for its unit, on average", StatShow::kFixed1);
}

}  // namespace simtsync::mem
