#include "timing/mem/memory_hierarchy.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "common/error.h"
#include "func/executor.h"
#include "timing/mem/atomic_unit.h"
#include "timing/mem/coalescer.h"
#include "timing/mem/mem_unit_registry.h"

namespace simtsync::mem {
namespace {

inline constexpr Addr kConstBase = Addr{1} << 56;
inline constexpr Addr kInstBase = Addr{1} << 57;

}  // namespace

MemoryPartition::MemoryPartition(const HierarchyParams& p, const AddressMap& map, IPerform& perf,
                                 DramChannel& dram, unsigned slice, std::vector<Unit> units,
                                 std::vector<std::unique_ptr<IMemUnit>> owned)
    : owned_(std::move(owned)), units_(std::move(units)) {
  IMemUnit* atomics = nullptr;
  ILockArbiter* arbiter = nullptr;
  std::vector<IMemUnit*> filters;
  for (const Unit& u : units_) {
    const unsigned m = u.unit->intercepts();
    if (m & kInterceptAtomics) atomics = u.unit;
    if (m & kInterceptLockRequests) arbiter = u.unit->lock_arbiter();
    if (m & (kInterceptReads | kInterceptWrites)) filters.push_back(u.unit);
  }
  for (const Unit& u : units_) u.unit->attach(arbiter);
  l2_ = std::make_unique<L2Slice>(p.l2, map, perf, *atomics, dram, slice);
  l2_->set_filters(std::move(filters));
}

void MemoryHierarchy::place_units() {
  const std::vector<MemUnitChoice> choices =
      p_.units.empty() ? default_mem_unit_choices() : p_.units;
  for (const auto& c : choices) unit_names_.push_back(c.name);
  const unsigned spp = map_.slices_per_partition();
  shared_units_.assign(choices.size() * map_.partitions(), {});
  for (unsigned i = 0; i < map_.slices(); ++i) {
    const unsigned part = map_.partition_of_slice(i);
    std::vector<MemoryPartition::Unit> units;
    std::vector<std::unique_ptr<IMemUnit>> owned;
    unsigned atomics = 0, arbiters = 0;
    for (unsigned r = 0; r < choices.size(); ++r) {
      MemoryPartition::Unit& sh = shared_units_[part * choices.size() + r];
      IMemUnit* u = sh.unit;
      if (!u) {
        std::unique_ptr<IMemUnit> made = choices[r].make(
            MemUnitContext{p_, static_cast<IAtomicLanes*>(this), i, part}, choices[r].params);
        if (!made) continue;
        u = made.get();
        if (made->placement() == MemPlacement::kPartition) {
          // Built by the partition's first slice and shared by the others.
          sh = {r, u, true};
          shared_owned_.push_back(std::move(made));
        } else {
          owned.push_back(std::move(made));
        }
      }
      const unsigned m = u->intercepts();
      atomics += (m & kInterceptAtomics) != 0;
      arbiters += (m & kInterceptLockRequests) != 0;
      lock_queuing_ |= (m & kInterceptLockRequests) != 0;
      units.push_back({r, u, sh.unit == u});
    }
    if (atomics != 1 || arbiters > 1)
      throw usage_error(fmt::format(
          "memory-side units (mem_units.def): a slice needs exactly one unit that executes "
          "atomics and at most one lock arbiter; slice {} has {} and {}",
          i, atomics, arbiters));
    parts_.push_back(std::make_unique<MemoryPartition>(p_, map_, *this, *channels_[part], i % spp,
                                                       std::move(units), std::move(owned)));
  }
}

MemoryHierarchy::MemoryHierarchy(const HierarchyParams& p, PerformFn perform)
    : p_(p),
      perform_(std::move(perform)),
      map_(p.map),
      sms_(p.num_sms),
      req_net_(p.num_sms, map_.slices(), p.icnt),
      rep_net_(map_.slices(), p.num_sms, p.icnt),
      core_clk_(p.clock.core_mhz),
      icnt_clk_(p.clock.icnt_mhz),
      l2_clk_(p.clock.l2_mhz),
      dram_clk_(p.clock.dram_mhz) {
  CacheGeometry cgeo{p.l1.const_bytes, kConstCacheAssoc, p.l1.geo.line, p.l1.geo.sector};
  for (auto& s : sms_) {
    s.l1 = std::make_unique<L1Cache>(p.l1, p.l1.geo, p.l1.latency, *this, 1);
    L1Params cp = p.l1;
    cp.enabled = true;
    cp.fill_whole_line = true;
    cp.fermi_hash_sets = false;  // the constant cache indexes linearly
    cp.perfect = p.l1.const_perfect;
    s.cc = std::make_unique<L1Cache>(cp, cgeo, p.l1.const_latency, *this, 2);
  }
  for (unsigned c = 0; c < map_.partitions(); ++c)
    channels_.push_back(std::make_unique<DramChannel>(p.dram, map_.slices_per_partition()));
  place_units();
  sm_busy_ = BitMask(sms_.size());
  sm_asleep_ = BitMask(sms_.size());
  sm_asleep_inject_ = BitMask(sms_.size());
  responders_ = BitMask(sms_.size());
  part_busy_ = BitMask(parts_.size());
  part_next_.assign(parts_.size(), 0);
  event_driven_ = shared_owned_.empty();
  logs_.resize(channels_.size());
  slice_busy_.assign(parts_.size(), 0);
}

MemoryHierarchy::~MemoryHierarchy() = default;

void MemoryHierarchy::set_critical_warps(int sm, const CriticalWarps* board) {
  using Mode = CacpParams::Mode;
  const Mode m = p_.l1.cacp.mode;
  if (m == Mode::kOff || !p_.l1.enabled || sm < 0 || static_cast<size_t>(sm) >= sms_.size()) return;
  if (m == Mode::kAuto && !(board && board->cacp_requested)) return;
  // A packet's requester: the warp slot and instruction of the request it belongs to (its
  // request table entry is made before the packet enters L1).
  sms_[static_cast<size_t>(sm)].l1->enable_cacp(board, [this](const Packet& p) {
    const MemRequest& r = reqs_[p.req].r;
    const Pc pc = r.access && r.access->inst ? r.access->inst->pc : 0;
    return Cacp::Requester{r.warp_slot, pc};
  });
}

bool MemoryHierarchy::try_send(const MemRequest& r, Cycle now) {
  SmSide& s = sms_[static_cast<size_t>(r.sm)];
  if (!s.pending.empty() || s.in_flight >= std::max(1u, p_.request_slots)) {
    ++s.refused;
    return false;
  }
  // The SM's own side: its coalescer takes the request's packets now.
  const PacketKind kind = r.kind == ReqKind::kLoad    ? PacketKind::kLoad
                          : r.kind == ReqKind::kStore ? PacketKind::kStore
                                                      : PacketKind::kAtomic;
  const bool cst = r.space == ReqSpace::kConst;
  const unsigned line = p_.l1.geo.line;
  if (r.space == ReqSpace::kInst) {
    // An instruction-cache fill: the whole line, straight to L2.
    s.pending.assign(1, Packet{});
    s.pending[0].line = kInstBase + r.first_address / line * line;
    s.pending[0].sectors = (1u << (line / p_.l1.geo.sector)) - 1;
    s.pending[0].lanes = 0;
  } else if (r.space == ReqSpace::kUnit) {
    // A reconvergence unit's spill or fill: the sectors it covers in one line.
    const unsigned sec = p_.l1.geo.sector;
    const Addr base = r.first_address / line * line;
    const unsigned first = static_cast<unsigned>((r.first_address - base) / sec);
    const unsigned last = static_cast<unsigned>(
        std::min<Addr>(line - 1, r.first_address - base + std::max(1u, r.unit_bytes) - 1) / sec);
    s.pending.assign(1, Packet{});
    s.pending[0].line = base;
    s.pending[0].sectors = ((2u << last) - 1) & ~((1u << first) - 1);
    s.pending[0].lanes = 0;
  } else {
    coalesce(*r.access, kind, r.space == ReqSpace::kLocal, r.sm * 64 + r.warp_slot, line,
             p_.l1.geo.sector, s.pending);
  }
  for (Packet& pk : s.pending) {
    if (cst) pk.line += kConstBase;
    pk.sm = r.sm;
    pk.slice = static_cast<int>(map_.slice_of(pk.line));
    // A unit's table fills go through L1D as the seed's do (seed 003 sec. V-B2: their misses
    // compete for L1 MSHRs); its spills are writes, which L1 evicts and sends on anyway.
    pk.bypass_l1 = r.bypass_l1 || kind == PacketKind::kAtomic || r.space == ReqSpace::kInst;
    pk.born = now;
  }
  s.next = 0;
  ++s.in_flight;
  // What is shared by every SM (the request table, the counters) waits for commit() while a
  // parallel SM phase runs.
  s.sent.push_back({r, kind});
  if (!deferred_) commit_sm(s);
  return true;
}

void MemoryHierarchy::commit() {
  for (SmSide& s : sms_)
    if (!s.sent.empty()) commit_sm(s);
}

void MemoryHierarchy::commit_sm(SmSide& s) {
  sm_busy_.set(static_cast<std::size_t>(&s - sms_.data()));
  // (An SM sends only once its coalescer has emptied: asleep, its side waited for replies or
  // for room to inject, with no packet refused.)
  if (sm_asleep_.test(static_cast<std::size_t>(&s - sms_.data())))
    wake_sm(static_cast<std::size_t>(&s - sms_.data()));
  // Only the last request sent can have packets: an SM sends again only once its coalescer
  // has emptied, so an earlier one of this phase had no active lane.
  for (std::size_t k = 0; k < s.sent.size(); ++k) {
    const Sent& e = s.sent[k];
    std::uint32_t id;
    if (!free_reqs_.empty()) {
      id = free_reqs_.back();
      free_reqs_.pop_back();
    } else {
      id = static_cast<std::uint32_t>(reqs_.size());
      reqs_.emplace_back();
    }
    Req& q = reqs_[id];
    q.r = e.r;
    q.performed = false;
    q.parked = 0;
    q.released = false;
    const bool last = k + 1 == s.sent.size();
    const std::size_t npk = last ? s.pending.size() : 0;
    q.local = npk == 0 || !phase_ || partition_local(e.r);  // (only the phase asks)
    nonlocal_live_ += !q.local;
    if (last)
      for (Packet& pk : s.pending) {
        pk.req = id;
        st_.atomic_lane_ops += pk.ops;
      }
    st_.requests[static_cast<int>(e.kind)]++;
    st_.transactions += npk;
    q.remaining = static_cast<unsigned>(npk);
    ++outstanding_;
    quiet_known_ = false;
    if (npk == 0) {  // no active lane: nothing to move
      s.responses.push_back(e.r);
      responders_.set(static_cast<std::size_t>(e.r.sm));
      ++responses_waiting_;
      free_reqs_.push_back(id);
    }
  }
  s.sent.clear();
}

int MemoryHierarchy::next_responder(int sm) const {
  for (std::size_t i = static_cast<std::size_t>(sm + 1); i < sms_.size();) {
    const std::uint64_t w = responders_.word(i / 64) >> (i % 64);
    if (w != 0) return static_cast<int>(i + static_cast<std::size_t>(std::countr_zero(w)));
    i = (i / 64 + 1) * 64;
  }
  return static_cast<int>(sms_.size());
}

bool MemoryHierarchy::pop_response(int sm, Cycle, MemRequest& out) {
  SmSide& s = sms_[static_cast<size_t>(sm)];
  if (s.responses.empty()) return false;
  out = s.responses.front();
  s.responses.pop_front();
  if (s.responses.empty()) responders_.clear(static_cast<std::size_t>(sm));
  --responses_waiting_;
  if (!out.partial && !out.no_slot) {
    --s.in_flight;
    --outstanding_;
  }
  return true;
}

void MemoryHierarchy::perform(const Packet& p) {
  if (p.internal) return;  // a lock-queue record: timing only
  Req& q = reqs_[p.req];
  if (in_phase_) {
    const unsigned c = partition_of(p);
    PartLog& lg = logs_[c];
    if (!q.performed) lg.first.push_back(p.req);
    phase_->perform(c, lg.when, q.r, p.lanes);
    return;
  }
  perform_(q.r, p.lanes, !q.performed);
  q.performed = true;
}

bool MemoryHierarchy::partition_local(const MemRequest& r) const {
  const func::MemAccess* a = r.access;
  if (!a) return true;  // no functional effect (an instruction fill, a unit's tables)
  // Local and shared lanes live in per-warp and per-CTA storage. Constant lines (constants,
  // kernel parameters) are the global lines of the same bytes moved up by kConstBase: in the
  // same partition unless the map's interleaving moves them to another.
  const bool space_ok = r.space == ReqSpace::kGlobal ||
                        (r.space == ReqSpace::kConst && map_.same_partition_after(kConstBase));
  if (!space_ok || func::is_lock_bit(a->inst->lock_op)) return false;
  const Addr line = p_.l1.geo.line;
  const Addr span = Addr{a->bytes} * a->vec;
  for (func::LaneMask m = a->mask; m != 0; m &= m - 1) {
    const int l = std::countr_zero(m);
    if (static_cast<ptx::Space>(a->space[l]) != ptx::Space::kGlobal) return false;
    if (a->addr[l] % line + span > line) return false;  // a lane in two lines
  }
  return true;
}

void MemoryHierarchy::observe_atomics(IAtomicObserver* o) {
  observing_ = o != nullptr;  // it hears every slice, in a serial tick's order
  for (std::size_t s = 0; s < parts_.size(); ++s)
    for (const MemoryPartition::Unit& u : parts_[s]->units())
      if (auto* a = dynamic_cast<AtomicUnit*>(u.unit)) a->observe(o, static_cast<unsigned>(s));
}

int MemoryHierarchy::warp_slot_of(const Packet& p) const {
  return p.internal || p.req >= reqs_.size() ? -1 : reqs_[p.req].r.warp_slot;
}

Addr MemoryHierarchy::lane_address(const Packet& p, unsigned lane) const {
  return reqs_[p.req].r.access->addr[lane];
}

bool MemoryHierarchy::perform_lane(const Packet& p, unsigned lane) {
  Req& q = reqs_[p.req];
  if (in_phase_) {
    const unsigned c = partition_of(p);
    PartLog& lg = logs_[c];
    if (!q.performed) lg.first.push_back(p.req);
    return phase_->perform(c, lg.when, q.r, std::uint64_t{1} << lane) != 0;
  }
  const std::uint64_t ok = perform_(q.r, std::uint64_t{1} << lane, !q.performed);
  q.performed = true;
  return ok != 0;
}

int MemoryHierarchy::lock_kind(const Packet& p) const {
  const func::MemAccess* acc = reqs_[p.req].r.access;
  if (!acc) return 0;
  return acc->inst->lock_op == func::IntrinsicOp::kLock     ? 1
         : acc->inst->lock_op == func::IntrinsicOp::kUnlock ? 2
                                                            : 0;
}

void MemoryHierarchy::parked(const Packet& p) {
  if (in_phase_) {
    PartLog& lg = logs_[partition_of(p)];
    lg.events.push_back({lg.when, false, p});
    return;
  }
  Req& q = reqs_[p.req];
  ++q.remaining;  // the lane's grant comes back as a packet of its own
  ++q.parked;
}

std::vector<TagArray::State> MemoryHierarchy::l2_state() const {
  std::vector<TagArray::State> v;
  v.reserve(parts_.size());
  for (const auto& p : parts_) v.push_back(p->l2().tags().state());
  return v;
}

bool MemoryHierarchy::restore_l2_state(const std::vector<TagArray::State>& s) {
  if (s.size() != parts_.size()) return false;
  for (size_t i = 0; i < s.size(); ++i)
    if (!parts_[i]->l2().tags().restore(s[i])) return false;
  return true;
}

void MemoryHierarchy::dropped(const Packet& p) {
  if (in_phase_) {
    PartLog& lg = logs_[partition_of(p)];
    lg.events.push_back({lg.when, true, p});
    return;
  }
  Packet none = p;
  none.lanes = 0;
  complete(none, last_now_);
}

void MemoryHierarchy::complete(const Packet& p, Cycle now) {
  Req& q = reqs_[p.req];
  if (p.lanes != 0) {
    const int lvl = std::min<int>(p.level, 2);
    st_.latency_sum[lvl] += now - p.born;
    st_.transactions_served[lvl]++;
  }
  if (p.grant) --q.parked;
  SmSide& s = sms_[static_cast<size_t>(q.r.sm)];
  if (--q.remaining != 0) {
    // Lock queuing: the lanes of a lock instruction answered now reach the warp at once (seed
    // 004 sec. 6.3): a lane that took its lock must not wait for a warp-mate's queued request
    // (which may wait for a lock another warp's waiting lane holds).
    if (!lock_queuing_ || lock_kind(p) != 1) return;
    if (p.lanes != 0) {
      MemRequest part = q.r;
      part.lanes = p.lanes;
      part.partial = true;
      s.responses.push_back(part);
      responders_.set(static_cast<std::size_t>(q.r.sm));
      ++responses_waiting_;
    }
    if (q.remaining == q.parked && !q.released) {
      // Only queued lanes are left: they hold no request slot of the SM while they wait.
      q.released = true;
      --s.in_flight;
      --outstanding_;
      ++s.parked;
    }
    return;
  }
  MemRequest last = q.r;
  if (q.released) {
    last.no_slot = true;
    --s.parked;
  }
  s.responses.push_back(last);
  responders_.set(static_cast<std::size_t>(q.r.sm));
  ++responses_waiting_;
  q.parked = 0;
  q.released = false;
  nonlocal_live_ -= !q.local;
  free_reqs_.push_back(p.req);
}

unsigned MemoryHierarchy::request_bytes(const Packet& p) const {
  const unsigned h = p_.icnt.header_bytes;
  switch (p.kind) {
    case PacketKind::kLoad:
      return h;
    case PacketKind::kStore:
      return h + static_cast<unsigned>(p.data_bytes(p_.l1.geo.sector));
    case PacketKind::kAtomic:
      return h + 4u * p.ops;
  }
  return h;
}

unsigned MemoryHierarchy::reply_bytes(const Packet& p) const {
  const unsigned h = p_.icnt.header_bytes;
  switch (p.kind) {
    case PacketKind::kLoad:
      return h + static_cast<unsigned>(p.data_bytes(p_.l1.geo.sector));
    case PacketKind::kStore:
      return h;
    case PacketKind::kAtomic:
      return h + 4u * p.ops;
  }
  return h;
}

void MemoryHierarchy::tick_core(Cycle now) {
  ++core_ticks_;
  // An SM whose side slept (tick_sm) is visited again once a reply waits for it or, if it has
  // misses to inject, once its request-network input has room.
  const BitMask& replies = rep_net_.ready_outputs();
  const BitMask& full = req_net_.full_inputs();
  for (std::size_t k = 0; k < sm_busy_.words(); ++k) {
    const std::uint64_t asleep =
        sm_asleep_.word(k) & ~(replies.word(k) | (sm_asleep_inject_.word(k) & ~full.word(k)));
    for (std::uint64_t b = sm_busy_.word(k) & ~asleep; b != 0; b &= b - 1)
      tick_sm(k * 64 + static_cast<std::size_t>(std::countr_zero(b)), now);
  }
}

void MemoryHierarchy::wake_sm(std::size_t i) {
  SmSide& s = sms_[i];
  // The ticks it slept through, each a refusal of its entering packet (and a coalescer-busy
  // cycle), as the ticks would have counted them.
  const std::uint64_t slept = core_ticks_ - s.sleep_from - 1;
  if (s.sleep_refusing) {
    s.sleep_refusing->count_refusals(slept);
    st_.coalescer_busy_cycles += slept;
  }
  s.sleep_refusing = nullptr;
  sm_asleep_.clear(i);
  sm_asleep_inject_.clear(i);
}

void MemoryHierarchy::tick_sm(std::size_t i, Cycle now) {
  SmSide& s = sms_[i];
  if (sm_asleep_.test(i)) wake_sm(i);
  if (s.in_flight == 0 && s.parked == 0) {  // nothing of this SM is in the hierarchy
    sm_busy_.clear(i);
    return;
  }
  const auto sm = static_cast<unsigned>(i);
  // Replies: fills install their line and complete the loads waiting on it.
  while (rep_net_.ready(sm)) {
    const Packet r = rep_net_.front(sm);
    rep_net_.pop(sm);
    if (r.fill == 0) {
      complete(r, now);
      continue;
    }
    s.done.clear();
    (r.fill == 1 ? s.l1 : s.cc)->fill(r, s.done);
    for (const Packet& d : s.done) complete(d, now);
  }
  for (L1Cache* c : {s.l1.get(), s.cc.get()})
    while (c->has_hit(now)) {
      complete(c->front_hit(), now);
      c->pop_hit();
    }
  // One transaction of the current request enters its cache per cycle.
  if (s.next < s.pending.size()) {
    const Packet& pk = s.pending[s.next];
    L1Cache& c = pk.line >= kConstBase ? *s.cc : *s.l1;
    if (c.access(pk, now) != L1Outcome::kRetry) ++s.next;
    if (s.next == s.pending.size()) {
      s.pending.clear();
      s.next = 0;
    } else {
      ++st_.coalescer_busy_cycles;
    }
  }
  // Misses enter the request network. The two caches take turns going first: with data
  // misses always waiting (a storm of lock retries), a fixed order starved instruction and
  // constant fills behind them.
  L1Cache* order[2] = {s.l1.get(), s.cc.get()};
  if (s.cc_first) std::swap(order[0], order[1]);
  for (L1Cache* c : order)
    while (c->has_miss() && req_net_.can_inject(sm)) {
      s.cc_first = c == s.l1.get();  // the other one first next time
      const Packet& m = c->front_miss();
      req_net_.inject(sm, static_cast<unsigned>(m.slice), m, request_bytes(m));
      c->pop_miss();
    }
  // Sleep when the next tick would change nothing but a refusal count, and neither would any
  // after it until a reply arrives (replies were all taken above), the input frees (misses
  // still waiting means it is full) or the SM sends again (its coalescer is then empty): no
  // hit in either pipeline, and the entering packet, if any, refused before anything is looked
  // at or refused as it was last time with nothing changed since (issue 48: most SMs of a lock
  // kernel wait so most cycles, and those of a bandwidth-bound one wait for an MSHR).
  if (s.l1->next_hit() != kNever || s.cc->next_hit() != kNever) return;
  L1Cache* refusing = nullptr;
  if (s.next < s.pending.size()) {
    const Packet& pk = s.pending[s.next];
    refusing = pk.line >= kConstBase ? s.cc.get() : s.l1.get();
    if (!refusing->refuses_at_once(pk) && !refusing->refuses_again(pk)) return;
  }
  s.sleep_from = core_ticks_;
  s.sleep_refusing = refusing;
  sm_asleep_.set(i);
  if (s.l1->has_miss() || s.cc->has_miss()) sm_asleep_inject_.set(i);
}

void MemoryHierarchy::tick_icnt(std::uint64_t now) {
  req_net_.tick(now);
  rep_net_.tick(now);
  const std::uint64_t l2_now = l2_clk_.cycle();
  // A slice that is not busy has no reply; one without a packet at its crossbar output gets
  // none.
  auto visit = [&](unsigned o) {
    MemoryPartition& mp = *parts_[o];
    while (req_net_.ready(o) && mp.l2().can_accept()) {
      mp.l2().push(req_net_.front(o));
      req_net_.pop(o);
      part_busy_.set(o);
      part_next_[o] = 0;
    }
    bool popped = false;
    while (Packet* r = mp.reply(l2_now)) {
      if (!rep_net_.inject(o, static_cast<unsigned>(r->sm), *r, reply_bytes(*r))) break;
      mp.pop_reply(l2_now);
      popped = true;
    }
    if (mp.take_answered()) part_next_[o] = 0;
    if (popped && !mp.busy()) part_busy_.clear(o);
  };
  if (!event_driven_) {
    for (unsigned o = 0; o < parts_.size(); ++o) visit(o);
    return;
  }
  const BitMask& ready = req_net_.ready_outputs();
  for (std::size_t k = 0; k < part_busy_.words(); ++k)
    for (std::uint64_t b = part_busy_.word(k) | ready.word(k); b != 0; b &= b - 1)
      visit(static_cast<unsigned>(k * 64 + static_cast<unsigned>(std::countr_zero(b))));
}

void MemoryHierarchy::tick_l2(std::uint64_t m) {
  if (!event_driven_) {
    // A slice with nothing in flight (its cache, its units) has nothing to do this cycle.
    for (auto& mp : parts_)
      if (mp->busy()) mp->tick_l2(m);
    for (const auto& u : shared_owned_) u->tick(m);
    return;
  }
  // A busy slice whose next tick is not due would do nothing: it waits for DRAM, for its
  // replies to leave or for a unit's fixed delay.
  part_busy_.for_each([&](std::size_t o) {
    if (part_next_[o] > m) return;
    MemoryPartition& mp = *parts_[o];
    mp.tick_l2(m);
    part_next_[o] = mp.next_tick(m);
    if (!mp.busy()) part_busy_.clear(o);
  });
}

void MemoryHierarchy::tick_dram(std::uint64_t d) {
  // A read that came back wakes the channel's slices (slice / slices_per_partition is the
  // channel, AddressMap::partition_of_slice).
  const std::size_t spp = map_.slices_per_partition();
  for (std::size_t c = 0; c < channels_.size(); ++c)
    if (channels_[c]->tick(d))
      for (std::size_t o = c * spp; o < (c + 1) * spp; ++o) part_next_[o] = 0;
}

void MemoryHierarchy::tick(Cycle now) {
  const Cycle prev = last_now_;
  last_now_ = now;
  const std::uint64_t t = now * core_clk_.period_fs();
  if (quiet()) {
    icnt_clk_.skip_to(t);
    l2_clk_.skip_to(t);
    dram_clk_.skip_to(t);
    return;
  }
  // The main loop skipped the cycles after `prev` (next_event()): every tick of theirs would
  // have done nothing but keep time.
  if (now > prev + 1) pass_idle((now - 1) * core_clk_.period_fs());
  tick_core(now);
  while (icnt_clk_.advance(t)) tick_icnt(icnt_clk_.cycle());
  if (parallel_ready(t)) {
    tick_partitions(t);
    return;
  }
  while (l2_clk_.advance(t)) tick_l2(l2_clk_.cycle());
  while (dram_clk_.advance(t)) tick_dram(dram_clk_.cycle());
}

bool MemoryHierarchy::quiet() const {
  if (outstanding_ != 0) return false;
  if (quiet_known_) return true;
  if (req_net_.busy() || rep_net_.busy()) return false;
  for (const auto& mp : parts_)
    if (mp->busy()) return false;  // the partitions' shared units included
  for (const auto& ch : channels_)
    if (ch->busy()) return false;  // write-backs still draining
  quiet_known_ = true;
  return true;
}

void MemoryHierarchy::pass_idle(std::uint64_t t_fs) {
  if (icnt_clk_.next_edge_fs() <= t_fs) {
    icnt_clk_.skip_to(t_fs);
    req_net_.skip_to(icnt_clk_.cycle());
    rep_net_.skip_to(icnt_clk_.cycle());
  }
  l2_clk_.skip_to(t_fs);
  if (dram_clk_.next_edge_fs() <= t_fs) {
    const std::uint64_t before = dram_clk_.cycle();
    dram_clk_.skip_to(t_fs);
    for (auto& ch : channels_) ch->skip_to(dram_clk_.cycle(), dram_clk_.cycle() - before);
  }
}

// The core cycle whose tick runs cycle `n` of domain `d` (or its next one, if `n` has passed).
Cycle MemoryHierarchy::core_cycle_of(const ClockDomain& d, std::uint64_t n) const {
  const std::uint64_t next = d.cycle() + 1;
  const std::uint64_t fs = d.next_edge_fs() + (std::max(n, next) - next) * d.period_fs();
  const std::uint64_t pc = core_clk_.period_fs();
  return (fs + pc - 1) / pc;
}

Cycle MemoryHierarchy::next_event() const {
  if (quiet()) return kNever;
  const Cycle soon = last_now_ + 1;
  if (!event_driven_) return soon;
  constexpr std::uint64_t kNone = ~std::uint64_t{0};
  Cycle t = kNever;
  auto at = [&](const ClockDomain& d, std::uint64_t n) {
    if (n != kNone) t = std::min(t, core_cycle_of(d, n));
  };
  // Replies waiting for their SM, requests waiting for their slice: next cycle (of each clock).
  if (rep_net_.ready_outputs().any()) return soon;
  const std::uint64_t icnt_next = icnt_clk_.cycle() + 1;
  if (req_net_.ready_outputs().any()) at(icnt_clk_, icnt_next);
  at(icnt_clk_, req_net_.next_tick(icnt_next));
  at(icnt_clk_, rep_net_.next_tick(icnt_next));
  if (t <= soon) return soon;
  // The SMs' side: a request entering L1, misses waiting to be injected, hits in the pipeline.
  for (std::size_t k = 0; k < sm_busy_.words(); ++k)
    for (std::uint64_t b = sm_busy_.word(k); b != 0; b &= b - 1) {
      const SmSide& s = sms_[k * 64 + static_cast<std::size_t>(std::countr_zero(b))];
      if (s.next < s.pending.size() || s.l1->has_miss() || s.cc->has_miss()) return soon;
      t = std::min({t, s.l1->next_hit(), s.cc->next_hit()});
    }
  // The slices: their own work (part_next_) and their replies, read by the interconnect at its
  // first cycle once the L2 clock has reached them (the next one, if it has).
  const std::uint64_t l2_now = l2_clk_.cycle();
  for (std::size_t k = 0; k < part_busy_.words(); ++k)
    for (std::uint64_t b = part_busy_.word(k); b != 0; b &= b - 1) {
      const std::size_t o = k * 64 + static_cast<std::size_t>(std::countr_zero(b));
      at(l2_clk_, part_next_[o]);
      const std::uint64_t r = parts_[o]->reply_at();
      if (r <= l2_now)
        at(icnt_clk_, icnt_next);
      else
        at(l2_clk_, r);
    }
  if (t <= soon) return soon;
  const std::uint64_t dram_next = dram_clk_.cycle() + 1;
  for (const auto& ch : channels_) at(dram_clk_, ch->next_tick(dram_next));
  return std::max(t, soon);
}

namespace {

// Every sum below follows the components' declared tables.
void add_cache(CacheStats& a, const CacheStats& b) {
  simtsync::accumulate<CacheStats>(a, b, kCacheStatFields);
}
// Unit `name`'s counters in `h` (added when missing, in table order).
HierarchyStats::Unit& unit_of(HierarchyStats& h, const std::string& name) {
  for (auto& u : h.units)
    if (u.name == name) return u;
  const auto& rows = mem_units();
  std::size_t at = 0;
  auto rank = [&](const std::string& n) {
    for (std::size_t i = 0; i < rows.size(); ++i)
      if (rows[i].name == n) return i;
    return rows.size();
  };
  while (at < h.units.size() && rank(h.units[at].name) < rank(name)) ++at;
  auto it = h.units.insert(h.units.begin() + static_cast<std::ptrdiff_t>(at),
                           {name, std::vector<std::uint64_t>(mem_unit_stats(name).size(), 0)});
  return *it;
}
void add_dram(DramStats& a, const DramStats& b) {
  simtsync::accumulate<DramStats>(a, b, kDramStatFields);
}
void add_icnt(IcntStats& a, const IcntStats& b) {
  simtsync::accumulate<IcntStats>(a, b, kIcntStatFields);
}

}  // namespace

void accumulate(HierarchyStats& a, const HierarchyStats& b) {
  add_cache(a.l1, b.l1);
  add_cache(a.const_cache, b.const_cache);
  add_cache(a.l2, b.l2);
  for (const auto& u : b.units)
    config::accumulate(unit_of(a, u.name).values, u.values, mem_unit_stats(u.name));
  add_dram(a.dram, b.dram);
  add_icnt(a.icnt_request, b.icnt_request);
  add_icnt(a.icnt_reply, b.icnt_reply);
  simtsync::accumulate<HierarchyStats>(a, b, kHierarchyStatFields);
}

std::uint64_t unit_stat(const HierarchyStats& h, const std::string& unit, const std::string& stat) {
  for (const auto& u : h.units) {
    if (u.name != unit) continue;
    const auto& decl = mem_unit_stats(unit);
    for (std::size_t i = 0; i < decl.size() && i < u.values.size(); ++i)
      if (decl[i].name == stat) return u.values[i];
  }
  return 0;
}

HierarchyStats MemoryHierarchy::stats() const {
  HierarchyStats h = st_;
  for (const auto& s : sms_) {
    h.refused += s.refused;
    add_cache(h.l1, s.l1->stats());
    add_cache(h.const_cache, s.cc->stats());
    // An SM still asleep: the ticks since it fell asleep, as wake_sm() would count them.
    if (s.sleep_refusing && sm_asleep_.test(static_cast<std::size_t>(&s - sms_.data()))) {
      const std::uint64_t slept = core_ticks_ - s.sleep_from;
      (s.sleep_refusing == s.l1.get() ? h.l1 : h.const_cache).reservation_failures += slept;
      h.coalescer_busy_cycles += slept;
    }
  }
  std::vector<std::uint64_t> v;
  auto add_unit = [&](const MemoryPartition::Unit& u) {
    const std::string& name = unit_names_[u.row];
    v.assign(mem_unit_stats(name).size(), 0);
    u.unit->collect(v);
    config::accumulate(unit_of(h, name).values, v, mem_unit_stats(name));
  };
  for (const auto& mp : parts_) {
    add_cache(h.l2, mp->l2().stats());
    for (const auto& u : mp->units())
      if (!u.shared) add_unit(u);
  }
  for (const auto& u : shared_units_)
    if (u.unit) add_unit(u);
  for (const auto& ch : channels_) {
    DramStats d = ch->stats();
    d.cycles = 0;
    add_dram(h.dram, d);
  }
  h.icnt_request = req_net_.stats();
  h.icnt_reply = rep_net_.stats();
  h.clock_cycles[0] = last_now_ + 1;
  h.clock_cycles[1] = icnt_clk_.cycle();
  h.clock_cycles[2] = l2_clk_.cycle();
  h.clock_cycles[3] = dram_clk_.cycle();
  h.dram.cycles = h.clock_cycles[3] * channels_.size();
  h.partitions = channels_.size();
  h.l2_slices = parts_.size();
  return h;
}

}  // namespace simtsync::mem
