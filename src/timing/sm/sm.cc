#include "timing/sm/sm.h"

#include <algorithm>
#include <bit>

#include "timing/mem/coalescer.h"

namespace simtsync::sm {

Sm::Sm(int id, const SmParams& p, func::Executor& ex, mem::IMemPort& port)
    : id_(id),
      p_(p),
      ex_(ex),
      port_(port),
      icache_(p.icache_bytes, p.icache_line, p.icache_assoc, p.icache_perfect, p.icache_wait_for_fill),
      shared_(mem::SharedMemParams{p.shared_banks, p.shared_bank_bytes, p.shared_latency,
                                   p.shared_lock_bits}),
      lock_bits_(std::max(1u, p.shared_lock_bits), 0) {
  slots_.resize(p_.max_warps);
  hot_.resize(p_.max_warps);  // never resized again: warps keep pointers into it
  atomic_loops_.resize(p_.max_warps);
  ctas_.resize(p_.max_ctas);
  const unsigned ns = std::max(1u, p_.num_schedulers);
  sched_slots_.resize(ns);
  for (unsigned s = 0; s < p_.max_warps; ++s) sched_slots_[s % ns].push_back(static_cast<int>(s));
  stats_.sched.resize(ns);
  orders_.resize(ns);
  const size_t npolicy = sched::scheduler_stats(p_.scheduler.impl).size();
  for (unsigned s = 0; s < ns; ++s) {
    stats_.sched[s].policy.assign(npolicy, 0);
    sched::PolicyContext ctx;
    ctx.sm = id_;
    ctx.sched = static_cast<int>(s);
    ctx.num_schedulers = ns;
    ctx.warps = this;
    ctx.shared = &shared_units_;
    ctx.events = &events_;
    ctx.counters = stats_.sched[s].policy.data();
    ctx.records = &records_;
    scheds_.push_back(sched::make_scheduler(p_.scheduler, ctx));
    rotated_last_.push_back(scheds_.back()->rotates() ? -1 : kNotRotating);
  }
  if (p_.track_warp_phases) {
    phases_ = std::make_unique<sched::WarpPhaseTracker>(this);
    events_.subscribe(phases_.get());
  }
  stats_.fetch_policy.assign(sched::fetch_policy_stats(p_.fetch_policy.impl).size(), 0);
  {
    sched::PolicyContext ctx;
    ctx.sm = id_;
    ctx.sched = -1;
    ctx.num_schedulers = ns;
    ctx.warps = this;
    ctx.shared = &shared_units_;
    ctx.events = &events_;
    ctx.counters = stats_.fetch_policy.data();
    ctx.records = &records_;
    ctx.sched_slots = &sched_slots_;
    ctx.issue_orders = &orders_;
    fetch_policy_ = sched::make_fetch_policy(p_.fetch_policy, ctx);
    rotation_ok_ = !fetch_policy_->reads_issue_orders();
  }
  unit_busy_.resize(static_cast<int>(UnitKind::kCount));
  for (int k = 0; k < static_cast<int>(UnitKind::kCount); ++k)
    unit_busy_[static_cast<size_t>(k)].assign(std::max(1u, p_.units[k]), 0);
  for (auto& unit : unit_busy_) {
    pipe_bit_.push_back(static_cast<unsigned>(pipes_.size()));
    for (Cycle& b : unit) pipes_.push_back(&b);
  }
  last_stall_.assign(ns, StallKind::kIdle);
  view_version_.assign(ns, ~std::uint64_t{0});
  views_.resize(ns);
  view_any_warp_.assign(ns, 0);
  view_any_live_.assign(ns, 0);
  view_live_.assign(ns, 0);
  view_live_mask_.assign(ns, 0);
}

void Sm::account_skipped(Cycle cycles) {
  fold_phases();
  if (live_ctas_ == 0 || cycles == 0) return;
  stats_.active_cycles += cycles;
  for (size_t s = 0; s < last_stall_.size(); ++s)
    stats_.sched[s].cycles[static_cast<int>(last_stall_[s])] += cycles;
}

bool Sm::can_accept(unsigned threads, unsigned warps, unsigned registers, unsigned shared) const {
  if (live_ctas_ >= static_cast<int>(p_.max_ctas)) return false;
  return used_threads_ + threads <= p_.max_threads && used_warps_ + warps <= p_.max_warps &&
         used_regs_ + registers <= p_.registers && used_shared_ + shared <= p_.shared_bytes;
}

int Sm::start_cta(int cta, const std::vector<func::Warp*>& warps, unsigned threads,
                   unsigned registers, unsigned shared, std::uint64_t age) {
  CtaSlot* cs = nullptr;
  for (auto& c : ctas_)
    if (c.cta < 0) {
      cs = &c;
      break;
    }
  const int cta_slot = static_cast<int>(cs - ctas_.data());
  cs->cta = cta;
  cs->threads = threads;
  cs->registers = registers;
  cs->shared = shared;
  cs->warp_slots.clear();
  unsigned k = 0;
  for (unsigned s = 0; s < slots_.size() && k < warps.size(); ++s) {
    WarpSlot& ws = slots_[s];
    if (ws.warp) continue;
    reset_slot(static_cast<int>(s));
    blocked_ &= ~(std::uint64_t{1} << s);
    ldst_blocked_ &= ~(std::uint64_t{1} << s);
    ws.warp = warps[k];
    ws.unit = ws.warp->simt.get();
    ws.warp->simt->mirror_to(&hot_[s].split);
    ws.warp->state.mirror_to(&hot_[s].state);
    ws.cta_slot = cta_slot;
    ws.age = age + k;
    ws.fetch_pc = ws.warp->simt->pc();
    const std::uint64_t bit = std::uint64_t{1} << s;
    unit_work_ &= ~bit;
    clock_units_ &= ~bit;
    timed_units_ &= ~bit;
    if (simt::TimedHooks* unit = ws.warp->simt->timed()) {
      timed_units_ |= bit;
      if (unit->keeps_time()) clock_units_ |= bit;
      unit->bind(&last_now_, &unit_work_, bit);
    }
    cs->warp_slots.push_back(static_cast<int>(s));
    update_fetch_bit(static_cast<int>(s));
    ++k;
  }
  used_threads_ += threads;
  used_warps_ += static_cast<unsigned>(warps.size());
  used_regs_ += registers;
  used_shared_ += shared;
  ++live_ctas_;
  woken_ = true;
  ++version_;
  if (!events_.empty())
    events_.deliver(CtaEvent{last_now_, cta_slot, cta, cs->warp_slots},
                    &ISmObserver::on_cta_launch);
  return cta_slot;
}

std::vector<int> Sm::take_completed() {
  fold_phases();
  std::vector<int> out;
  out.swap(completed_);
  return out;
}

void Sm::check_done(int slot, Cycle now) {
  WarpSlot& ws = slots_[static_cast<size_t>(slot)];
  if (!ws.warp || ws.pending_loads > 0 || ws.pending_stores > 0 || !ws.sb.empty()) return;
  if (ws.warp->state != func::WarpState::kFinished) return;
  ws.done = true;
  ++version_;
  CtaSlot& cs = ctas_[static_cast<size_t>(ws.cta_slot)];
  if (!events_.empty())
    events_.deliver(WarpExitEvent{now, slot, ws.cta_slot, cs.cta}, &ISmObserver::on_warp_exit);
  for (int s : cs.warp_slots) {
    const WarpSlot& o = slots_[static_cast<size_t>(s)];
    if (!o.done) return;
  }
  // The whole CTA has exited: free its resources.
  if (!events_.empty())
    events_.deliver(CtaEvent{now, ws.cta_slot, cs.cta, cs.warp_slots}, &ISmObserver::on_cta_exit);
  for (int s : cs.warp_slots) {
    reset_slot(s);
    timed_units_ &= ~(std::uint64_t{1} << s);
    update_fetch_bit(s);
  }
  used_threads_ -= cs.threads;
  used_warps_ -= static_cast<unsigned>(cs.warp_slots.size());
  used_regs_ -= cs.registers;
  used_shared_ -= cs.shared;
  --live_ctas_;
  ++stats_.ctas_completed;
  completed_.push_back(cs.cta);
  cs = CtaSlot{};
}

OpClass Sm::op_class(const func::ExecInst& in) const {
  using ptx::Opcode;
  switch (ptx::opcode_unit(in.op)) {
    case ptx::UnitClass::kMem:
    case ptx::UnitClass::kAtomic:
      return OpClass::kMem;
    case ptx::UnitClass::kSfu:
      return OpClass::kSfu;
    case ptx::UnitClass::kCtrl:
    case ptx::UnitClass::kBarrier:
    case ptx::UnitClass::kFence:
    case ptx::UnitClass::kWarp:
    case ptx::UnitClass::kMisc:
      return OpClass::kCtrl;
    default:
      break;
  }
  const bool f64 = in.a.type == ptx::DType::kF64 || in.a.stype == ptx::DType::kF64;
  if (f64) return OpClass::kDp;
  const bool fp = ptx::dtype_is_float(in.a.type);
  switch (in.op) {
    case Opcode::kDiv:
    case Opcode::kRem:
      return fp ? OpClass::kFpDiv : OpClass::kIdiv;
    case Opcode::kMul:
    case Opcode::kMad:
    case Opcode::kMul24:
    case Opcode::kMad24:
    case Opcode::kMadc:
      return fp ? OpClass::kFp : OpClass::kImul;
    default:
      return fp ? OpClass::kFp : OpClass::kInt;
  }
}

UnitKind Sm::unit_of(const func::ExecInst& in) const {
  switch (op_class(in)) {
    case OpClass::kMem:
      return UnitKind::kLdst;
    case OpClass::kSfu:
      return UnitKind::kSfu;
    case OpClass::kDp:
      return p_.dp_on_sfu ? UnitKind::kSfu : UnitKind::kDp;
    default:
      return UnitKind::kSp;
  }
}

void Sm::writeback(Cycle now) {
  while (!wb_.empty() && wb_.top().at <= now) {
    const Writeback w = wb_.top();
    wb_.pop();
    WarpSlot& ws = slots_[static_cast<size_t>(w.slot)];
    if (ws.warp) {
      ws.sb.release(w.reg);
      blocked_ &= ~(std::uint64_t{1} << w.slot);
      check_done(w.slot, now);
    }
  }
}

bool Sm::tick(Cycle now) {
  last_now_ = now;
  if (live_ctas_ == 0) return false;
  ++stats_.active_cycles;
  if (unit_work_) tick_units(now);
  const std::size_t wb_before = wb_.size();
  writeback(now);
  const bool progressed_wb = wb_.size() != wb_before;
  ldst(now);
  sched_changed_ = false;
  const bool issued = issue(now);
  const bool fetched = fetch(now);
  return issued || fetched || progressed_wb || sched_changed_;
}

Cycle Sm::next_event(Cycle now) const {
  Cycle t = mem::kNever;
  if (live_ctas_ == 0) return t;
  if (!wb_.empty()) t = std::min(t, wb_.top().at);
  for (const auto& sp : shared_pending_) t = std::min(t, sp.at);
  // A policy that holds warps back says when it may offer them; a unit that keeps time says
  // when its state changes.
  for (const auto& sc : scheds_) t = std::min(t, std::max(sc->next_event(now), now + 1));
  for (std::uint64_t m = clock_units_; m != 0; m &= m - 1) {
    const WarpSlot& ws = slots_[static_cast<size_t>(std::countr_zero(m))];
    if (ws.warp && ws.warp->simt)
      t = std::min(t, std::max(ws.warp->simt->timed()->next_event(now), now + 1));
  }
  if (!ldst_queue_.empty() || !ifill_queue_.empty() || !unit_queue_.empty()) {
    if (!ldst_refused_) return now + 1;
    t = std::min(t, std::max(ldst_retry_at_, now + 1));
  }
  if (shared_.busy_until() > now) t = std::min(t, shared_.busy_until());
  if (ready_min_ <= now) {
    // The bound has passed: find the next future ready time (every later one is noted). Only
    // slots and pipelines given a time since they were last found passed can hold one.
    Cycle m = mem::kNever;
    for (std::uint64_t b = ready_slots_; b != 0; b &= b - 1) {
      const int s = std::countr_zero(b);
      const WarpSlot& ws = slots_[static_cast<size_t>(s)];
      Cycle ms = mem::kNever;
      if (ws.warp && !ws.done) {
        if (ws.fetch_ready > now && ws.fetch_ready != kWaitFill) ms = ws.fetch_ready;
        for (unsigned i = 0; i < ws.ib_count; ++i)
          if (ws.ib[i].ready > now) ms = std::min(ms, ws.ib[i].ready);
        const AtomicLoop& lp = atomic_loops_[static_cast<size_t>(s)];
        if (lp.acc && lp.ready > now) ms = std::min(ms, lp.ready);
      }
      if (ms == mem::kNever) ready_slots_ &= ~(std::uint64_t{1} << s);
      m = std::min(m, ms);
    }
    if (pipes_.size() > 64) {
      for (const Cycle* b : pipes_)
        if (*b > now) m = std::min(m, *b);
    } else {
      for (std::uint64_t b = busy_pipes_; b != 0; b &= b - 1) {
        const int k = std::countr_zero(b);
        const Cycle c = *pipes_[static_cast<size_t>(k)];
        if (c > now)
          m = std::min(m, c);
        else
          busy_pipes_ &= ~(std::uint64_t{1} << k);
      }
    }
    ready_min_ = m;
  }
  return std::min(t, ready_min_);
}

void Sm::memory_response(const mem::MemRequest& r, Cycle now) {
  woken_ = true;
  ldst_refused_ = false;
  if (r.space == mem::ReqSpace::kInst) {
    std::erase(ifill_inflight_, r.first_address);
    icache_.filled(r.first_address, now);
    for (auto& ws : slots_)
      if (ws.warp && ws.fetch_ready == kWaitFill && ws.ifill_line == r.first_address)
        ws.fetch_ready = now;
    return;
  }
  if (r.warp_slot >= 0) ldst_waiting_ &= ~(std::uint64_t{1} << r.warp_slot);
  if (r.space == mem::ReqSpace::kUnit) {
    if (simt::TimedHooks* unit = request_unit(r)) {
      simt::MemoryReply rep;
      rep.from_unit = true;
      rep.tag = r.unit_tag;
      unit->memory_reply(rep);
      // A warp held after a lock instruction's replies until its unit was ready (a finite lock
      // stack filling the entries the unlock reached): the fill ends the wait.
      const auto slot = static_cast<unsigned>(r.warp_slot);
      if ((lock_wait_ >> slot & 1) && slots_[slot].warp->simt->ready()) {
        blocked_ &= ~(std::uint64_t{1} << slot);
        note_ready(now);
      }
    }
    return;
  }
  func::MemAccess* acc = r.access;
  if (r.partial) {
    // Some lanes are back, others still out (a component that answers lanes separately): report
    // these; a lock instruction's unit learns of them now (lock queuing grants lanes one by
    // one, seed 004 sec. 6.3).
    WarpSlot& ws = slots_[static_cast<size_t>(r.warp_slot)];
    if (ws.warp && func::is_lock_inst(acc->inst->lock_op)) {
      ex_.lock_reply(*ws.warp, *acc, r.lanes, false);
      blocked_ &= ~(std::uint64_t{1} << r.warp_slot);
      note_ready(now);
    }
    if (!events_.empty())
      events_.deliver(MemoryEvent{now, r.warp_slot, acc->inst->pc, acc->inst, r.lanes,
                                  r.lanes & acc->succeeded, false},
                      &ISmObserver::on_memory);
    return;
  }
  finish_access(r.warp_slot, acc, now);
}

void Sm::finish_access(int slot, func::MemAccess* acc, Cycle now) {
  WarpSlot& ws = slots_[static_cast<size_t>(slot)];
  blocked_ &= ~(std::uint64_t{1} << slot);
  ldst_waiting_ &= ~(std::uint64_t{1} << slot);
  if (AtomicLoop& lp = atomic_loops_[static_cast<size_t>(slot)]; lp.acc == acc) {
    // A shared atomic's LDSLK data is back: its loop goes on with the modify step.
    lp.step = AtomicLoop::Step::kModify;
    lp.ready = now;
    note_ready(now);
    return;
  }
  const func::ExecInst& in = *acc->inst;
  if (ws.warp && func::is_lock_inst(in.lock_op)) {
    if (in.lock_op == func::IntrinsicOp::kLock && ws.pending_locks > 0) --ws.pending_locks;
    ex_.lock_reply(*ws.warp, *acc, acc->mask, true);
    note_ready(now);
  }
  // A unit that keeps memory learns the per-lane results of the warp's own instructions. The
  // slot's bit says whether its unit has the hooks (set when the warp took the slot): reading
  // the unit itself here was a cache miss per reply (half of this function's host time).
  if (simt::TimedHooks* unit = (timed_units_ >> slot & 1) && ws.warp && ws.warp->simt
                                   ? ws.warp->simt->timed()
                                   : nullptr) {
    simt::MemoryReply rep;
    rep.lanes = acc->mask;
    rep.succeeded = acc->succeeded;
    rep.pc = in.pc;
    unit->memory_reply(rep);
  }
  if (!events_.empty())
    events_.deliver(MemoryEvent{now, slot, in.pc, &in, acc->mask, acc->succeeded, true, acc},
                    &ISmObserver::on_memory);
  if (in.op == ptx::Opcode::kSt || in.op == ptx::Opcode::kRed) {
    if (ws.pending_stores > 0) --ws.pending_stores;
  } else {
    if (ws.pending_loads > 0) --ws.pending_loads;
    for (unsigned k = 0; k < in.ndst; ++k) ws.sb.release(in.dst[k]);
  }
  free_access_.push_back(acc);
  check_done(slot, now);
}

func::MemAccess* Sm::alloc_access() {
  if (free_access_.empty()) {
    access_pool_.push_back(std::make_unique<func::MemAccess>());
    return access_pool_.back().get();
  }
  func::MemAccess* a = free_access_.back();
  free_access_.pop_back();
  return a;
}

void Sm::flush(WarpSlot& ws, Pc pc, bool control) {
  if (ws.ib_count > 0) ++stats_.ibuffer_flushes;
  ws.ib_count = 0;
  ws.fetch_pc = pc;
  ws.fetch_stop = false;
  ws.control_flush = control;
  ldst_waiting_ &= ~(std::uint64_t{1} << (&ws - slots_.data()));
  update_fetch_bit(static_cast<int>(&ws - slots_.data()));
}

void Sm::update_fetch_bit(int s) {
  const WarpSlot& ws = slots_[static_cast<size_t>(s)];
  const bool want = ws.warp && !ws.done && ws.warp->state != func::WarpState::kFinished &&
                    !ws.fetch_stop &&
                    (p_.fetch_empty_only ? ws.ib_count == 0 : ws.ib_count < p_.ibuffer_slots);
  const std::uint64_t bit = std::uint64_t{1} << s;
  fetchable_ = want ? (fetchable_ | bit) : (fetchable_ & ~bit);
  const bool starved = ws.warp && ws.ib_count == 0 && !ws.fetch_stop;
  starved_ = starved ? (starved_ | bit) : (starved_ & ~bit);
}

}  // namespace simtsync::sm

namespace simtsync::sm {

simt::TimedHooks* Sm::request_unit(const mem::MemRequest& r) const {
  const WarpSlot& ws = slots_[static_cast<size_t>(r.warp_slot)];
  if (!ws.warp || !ws.warp->simt) return nullptr;
  const Addr sender = (r.first_address - mem::kUnitAreaBase) / simt::UnitRequest::kUnitAreaBytes;
  return sender == static_cast<Addr>(ws.warp->global_id) ? ws.warp->simt->timed() : nullptr;
}

void Sm::tick_units(Cycle now) {
  // Only units that asked for a tick (their bit in unit_work_, set as they publish); a unit
  // whose state no longer asks leaves the mask.
  for (std::uint64_t m = unit_work_ & timed_units_; m != 0; m &= m - 1) {
    const int s = std::countr_zero(m);
    WarpSlot& ws = slots_[static_cast<size_t>(s)];
    if (!ws.warp || !ws.warp->simt) continue;
    simt::TimedHooks& unit = *ws.warp->simt->timed();
    unit.tick(now);
    simt::UnitRequest q;
    while (unit.pop_request(q)) {
      mem::MemRequest r;
      r.kind = q.write ? mem::ReqKind::kStore : mem::ReqKind::kLoad;
      r.space = mem::ReqSpace::kUnit;
      r.sm = id_;
      r.warp_slot = s;
      r.first_address = mem::kUnitAreaBase +
                        static_cast<Addr>(ws.warp->global_id) * simt::UnitRequest::kUnitAreaBytes +
                        q.addr;
      r.unit_bytes = q.bytes;
      r.unit_tag = q.tag;
      r.issued = now;
      unit_queue_.push_back(r);
    }
    if (!hot_[static_cast<size_t>(s)].split.tick) unit_work_ &= ~(std::uint64_t{1} << s);
  }
}

void Sm::barrier_released(int cta_slot, unsigned id, const std::vector<int>& warps, Cycle now) {
  if (events_.empty()) return;
  BarrierEvent e;
  e.now = now;
  e.cta_slot = cta_slot;
  e.cta = ctas_[static_cast<size_t>(cta_slot)].cta;
  e.barrier = id;
  for (int s : ctas_[static_cast<size_t>(cta_slot)].warp_slots) {
    const WarpSlot& ws = slots_[static_cast<size_t>(s)];
    if (ws.warp && std::find(warps.begin(), warps.end(), ws.warp->global_id) != warps.end())
      e.slots.push_back(s);
  }
  events_.deliver(e, &ISmObserver::on_barrier_release);
}

int Sm::cta_slot_of(int cta) const {
  for (size_t c = 0; c < ctas_.size(); ++c)
    if (ctas_[c].cta == cta) return static_cast<int>(c);
  return -1;
}

void Sm::reset_slot(int s) {
  if (func::Warp* w = slots_[static_cast<size_t>(s)].warp) {
    w->simt->mirror_to(nullptr);
    w->state.mirror_to(nullptr);
    if (w->simt && w->simt->timed()) w->simt->timed()->bind(nullptr, nullptr, 0);
  }
  unit_work_ &= ~(std::uint64_t{1} << s);
  clock_units_ &= ~(std::uint64_t{1} << s);
  hot_[static_cast<size_t>(s)] = HotWarp{};
  slots_[static_cast<size_t>(s)] = WarpSlot{};
  atomic_loops_[static_cast<size_t>(s)] = AtomicLoop{};
  loop_slots_ &= ~(std::uint64_t{1} << s);
  starved_ &= ~(std::uint64_t{1} << s);
  lock_wait_ &= ~(std::uint64_t{1} << s);
  ldst_waiting_ &= ~(std::uint64_t{1} << s);
}

bool Sm::live(int slot) const {
  const WarpSlot& ws = slot_at(slot);
  return ws.warp && !ws.done && ws.warp->state != func::WarpState::kFinished;
}

Pc Sm::pc(int slot) const {
  const WarpSlot& ws = slot_at(slot);
  return ws.warp && ws.warp->simt && !ws.warp->simt->finished() ? ws.warp->simt->pc() : 0;
}

bool Sm::at_barrier(int slot) const {
  const WarpSlot& ws = slot_at(slot);
  return ws.warp && ws.warp->state == func::WarpState::kAtBarrier;
}

unsigned Sm::cta_waiting(int c) const {
  unsigned n = 0;
  for (int s : ctas_[static_cast<size_t>(c)].warp_slots) n += at_barrier(s) ? 1 : 0;
  return n;
}

unsigned Sm::cta_warps(int c) const {
  unsigned n = 0;
  for (int s : ctas_[static_cast<size_t>(c)].warp_slots) n += live(s) ? 1 : 0;
  return n;
}

}  // namespace simtsync::sm

namespace simtsync::sm {

void Sm::fold_phases() {
  if (!phases_) return;
  SmStats& st = stats_;
  for (const auto& p : phases_->take_phases()) {
    const auto ppm = static_cast<std::uint64_t>(p.rtru * 1e6 + 0.5);
    ++st.warp_phases;
    st.exit_phases += p.exit ? 1 : 0;
    st.rtru_ppm_sum += ppm;
    st.rtru_ppm_max = std::max(st.rtru_ppm_max, ppm);
    (p.exit ? st.exit_wait_cycles : st.barrier_wait_cycles) += p.wait;
    st.phase_warp_cycles += p.span;
    st.critical_pairs += p.has_previous ? 1 : 0;
    st.critical_changes += p.critical_changed ? 1 : 0;
  }
}

}  // namespace simtsync::sm
