#include "simt/impl/its.h"

#include <algorithm>

#include "config/plugin.h"

namespace simtsync::simt {

Its::Its(Pc start, LaneMask threads, unsigned starvation_limit)
    : starvation_limit_(std::max(1u, starvation_limit)) {
  for (int l : lanes(threads)) th_[static_cast<unsigned>(l)].pc = start;
  calls_.push_back(Call{0, 0, threads, 0, true});
  live_ = threads;
  pc_ = start;
  active_ = threads;
  publish();
}

LaneMask Its::runnable_at(Pc pc, std::uint32_t ctx) const {
  LaneMask g = 0;
  for (int l : lanes(runnable())) {
    const Thread& t = th_[static_cast<unsigned>(l)];
    if (t.pc == pc && t.ctx == ctx) g |= LaneMask{1} << l;
  }
  return g;
}

bool Its::parked(Pc pc, std::uint32_t ctx, LaneMask g) const {
  const Join j{pc, ctx};
  bool at_join = false;
  for (int l : lanes(g & joined_)) {
    if (th_[static_cast<unsigned>(l)].joins.back() == j) {
      at_join = true;
      break;
    }
  }
  if (!at_join) return false;
  // Threads that took the same branch and are elsewhere (running behind, inside a call, or
  // blocked on the way) will come here: wait for them.
  for (int l : lanes(live_ & joined_ & ~g)) {
    const Thread& t = th_[static_cast<unsigned>(l)];
    if (t.pc == pc && t.ctx == ctx) continue;
    if (std::find(t.joins.begin(), t.joins.end(), j) != t.joins.end()) return true;
  }
  return false;
}

void Its::pop_joins(Pc pc, std::uint32_t ctx, LaneMask g) {
  const Join j{pc, ctx};
  for (int l : lanes(g & joined_)) {
    auto& js = th_[static_cast<unsigned>(l)].joins;
    while (!js.empty() && js.back() == j) js.pop_back();
    if (js.empty()) joined_ &= ~(LaneMask{1} << l);
  }
}

std::vector<Its::Group> Its::groups(LaneMask m) const {
  std::vector<Group> gs;
  for (int l : lanes(m)) {
    const Thread& t = th_[static_cast<unsigned>(l)];
    auto it = std::find_if(gs.begin(), gs.end(),
                           [&](const Group& g) { return g.pc == t.pc && g.ctx == t.ctx; });
    if (it == gs.end()) {
      gs.push_back(Group{t.pc, t.ctx, 0, 0});
      it = gs.end() - 1;
    }
    it->mask |= LaneMask{1} << l;
    it->waited = std::max(it->waited, t.waited);
  }
  return gs;
}

void Its::settle(bool yield) {
  const LaneMask moved = active_;
  const LaneMask g = runnable_at(pc_, ctx_);
  if (g == 0) {
    choose();
    return;
  }
  // Opportunistic reconvergence: threads that wait at the group's new PC join it.
  if (g & ~moved) ++counters_[kReconverged];
  active_ = g;
  if (!yield && (joined_ & g) != 0 && parked(pc_, ctx_, g)) yield = true;
  if (yield && (runnable() & ~g) != 0) {
    choose();
    return;
  }
  pop_joins(pc_, ctx_, g);
}

void Its::choose() {
  ++decisions_;
  const LaneMask r = runnable();
  if (r == 0) {
    name_blocked();
    return;
  }
  const std::vector<Group> gs = groups(r);
  const Group* best = nullptr;
  // Forward progress: a thread that waited starvation_limit decisions runs first.
  for (const Group& g : gs) {
    if (g.waited < starvation_limit_) continue;
    if (!best || g.waited > best->waited || (g.waited == best->waited && g.pc < best->pc))
      best = &g;
  }
  // Otherwise the lowest PC among groups that do not wait for lagging threads, then among all.
  for (int pass = 0; pass < 2 && !best; ++pass) {
    for (const Group& g : gs) {
      if (pass == 0 && (joined_ & g.mask) != 0 && parked(g.pc, g.ctx, g.mask)) continue;
      if (!best || g.pc < best->pc) best = &g;
    }
  }
  const LaneMask chosen = best->mask;
  if (chosen != active_ || best->pc != pc_ || best->ctx != ctx_) ++counters_[kFifoSwitches];
  for (int l : lanes(r & ~chosen)) ++th_[static_cast<unsigned>(l)].waited;
  for (int l : lanes(chosen)) th_[static_cast<unsigned>(l)].waited = 0;
  pc_ = best->pc;
  ctx_ = best->ctx;
  active_ = chosen;
  // The chosen group runs past its reconvergence point if it waited there.
  pop_joins(pc_, ctx_, chosen);
}

void Its::name_blocked() {
  const LaneMask kinds[] = {bar_ & live_, sync_ & live_, ret_ & live_};
  for (LaneMask k : kinds) {
    if (k == 0) continue;
    const Thread& t = th_[static_cast<unsigned>(first_lane(k))];
    LaneMask g = 0;
    for (int l : lanes(k)) {
      const Thread& u = th_[static_cast<unsigned>(l)];
      if (u.pc == t.pc && u.ctx == t.ctx) g |= LaneMask{1} << l;
    }
    pc_ = t.pc;
    ctx_ = t.ctx;
    active_ = g;
    return;
  }
  active_ = 0;
}

void Its::on_advance(Pc next_pc) {
  for (int l : lanes(active_)) th_[static_cast<unsigned>(l)].pc = next_pc;
  pc_ = next_pc;
  settle(false);
}

void Its::on_branch(const BranchOutcome& b) {
  const LaneMask taken = b.taken & active_;
  const LaneMask not_taken = active_ & ~taken;
  if (taken != 0 && not_taken != 0) {
    ++counters_[kSplits];
    // Both paths may wait for each other at the immediate post-dominator (not at the
    // function's exit: returning threads wait for their call anyway).
    if (b.rpc != kExitPc) {
      const Join j{b.rpc, ctx_};
      for (int l : lanes(active_)) {
        auto& js = th_[static_cast<unsigned>(l)].joins;
        if (!js.empty() && js.back() == j) continue;  // a loop leaving one thread at a time
        if (js.size() >= kMaxJoins) js.erase(js.begin());
        js.push_back(j);
        joined_ |= LaneMask{1} << l;
      }
    }
    for (int l : lanes(taken)) th_[static_cast<unsigned>(l)].pc = b.target;
    for (int l : lanes(not_taken)) th_[static_cast<unsigned>(l)].pc = b.fallthrough;
    choose();
    return;
  }
  const Pc to = taken ? b.target : b.fallthrough;
  for (int l : lanes(active_)) th_[static_cast<unsigned>(l)].pc = to;
  pc_ = to;
  // A backward branch is a yield point (a loop iteration, perhaps a spin).
  settle(taken != 0 && b.backward());
}

std::uint32_t Its::new_call() {
  if (!free_calls_.empty()) {
    const std::uint32_t c = free_calls_.back();
    free_calls_.pop_back();
    return c;
  }
  calls_.emplace_back();
  return static_cast<std::uint32_t>(calls_.size() - 1);
}

void Its::on_call(Pc entry, Pc return_pc) {
  const std::uint32_t c = new_call();
  calls_[c] = Call{ctx_, return_pc, active_, 0, true};
  for (int l : lanes(active_)) {
    Thread& t = th_[static_cast<unsigned>(l)];
    t.ctx = c;
    t.pc = entry;
  }
  ctx_ = c;
  pc_ = entry;
}

bool Its::on_ret() {
  if (ctx_ == 0) {  // a return from the kernel ends the threads
    on_exit(active_);
    return false;
  }
  Call& c = calls_[ctx_];
  c.returned |= active_;
  ret_ |= active_;
  for (int l : lanes(active_)) th_[static_cast<unsigned>(l)].pc = kExitPc;
  if ((c.mask & live_ & ~c.returned) != 0) {
    choose();  // the rest of the call is still inside the function
    return false;
  }
  complete_call(ctx_);
  return true;
}

void Its::complete_call(std::uint32_t c) {
  const Call rec = calls_[c];
  const LaneMask m = rec.mask & live_;
  ret_ &= ~m;
  for (int l : lanes(m)) {
    Thread& t = th_[static_cast<unsigned>(l)];
    t.ctx = rec.parent;
    t.pc = rec.return_pc;
    // Reconvergence points inside the call are gone with it.
    std::erase_if(t.joins, [c](const Join& j) { return j.ctx == c; });
    if (t.joins.empty()) joined_ &= ~(LaneMask{1} << l);
  }
  calls_[c].used = false;
  free_calls_.push_back(c);
  pc_ = rec.return_pc;
  ctx_ = rec.parent;
  active_ = m;
  settle(false);
}

void Its::wake_calls() {
  for (std::size_t i = 1; i < calls_.size(); ++i) {
    Call& c = calls_[i];
    if (!c.used) continue;
    const LaneMask waiting = c.returned & live_ & ret_;
    if (waiting == 0 || (c.mask & live_ & ~c.returned) != 0) continue;
    // The threads still inside exited: the returned ones run the return again (at the
    // function's exit, an implicit return) and the last ret() completes the call.
    ret_ &= ~waiting;
    c.returned &= ~waiting;
  }
}

void Its::release_syncs() {
  for (bool again = true; again;) {
    again = false;
    for (int l : lanes(sync_ & live_)) {
      const LaneMask need = th_[static_cast<unsigned>(l)].sync_need & live_;
      if ((need & ~sync_) != 0) continue;
      for (int k : lanes(need)) th_[static_cast<unsigned>(k)].sync_pass = true;
      sync_ &= ~need;
      again = true;
      break;
    }
  }
}

void Its::on_exit(LaneMask lanes_out) {
  lanes_out &= live_;
  if (lanes_out == 0) return;
  live_ &= ~lanes_out;
  bar_ &= ~lanes_out;
  sync_ &= ~lanes_out;
  ret_ &= ~lanes_out;
  joined_ &= ~lanes_out;
  for (int l : lanes(lanes_out)) th_[static_cast<unsigned>(l)].joins.clear();
  active_ &= ~lanes_out;
  if (live_ == 0) {
    active_ = 0;
    return;
  }
  // Exited threads count as arrived: calls and warp syncs that waited only for them go on.
  wake_calls();
  release_syncs();
  // The rest of the running group goes on (the core advances it past the exit); a group
  // named only because everything was blocked is replaced.
  if (active_ == 0 || (active_ & ~runnable()) != 0) choose();
}

LaneMask Its::on_barrier_arrive(LaneMask arriving) {
  (void)arriving;  // the running group: its threads block at their own barrier PC
  bar_ |= active_;
  const LaneMask waiting = bar_ & live_;
  if (waiting != live_) choose();
  return waiting;
}

void Its::on_barrier_release() {
  const LaneMask m = bar_ & live_;
  for (int l : lanes(m)) th_[static_cast<unsigned>(l)].pc += kInstSize;
  bar_ = 0;
  choose();
}

bool Its::on_warp_sync(LaneMask members) {
  const LaneMask need = (members | active_) & live_;
  bool passed = true;
  for (int l : lanes(active_)) passed &= th_[static_cast<unsigned>(l)].sync_pass;
  if ((need & ~active_) == 0 || passed) {
    for (int l : lanes(active_)) th_[static_cast<unsigned>(l)].sync_pass = false;
    return true;
  }
  for (int l : lanes(active_)) {
    Thread& t = th_[static_cast<unsigned>(l)];
    t.sync_need = need;
    t.sync_pass = false;
  }
  sync_ |= active_;
  release_syncs();
  // The last member arrived: the members here run it together (the core executes it again).
  if (const LaneMask g = runnable_at(pc_, ctx_); g != 0) {
    if (g & ~active_) ++counters_[kReconverged];
    active_ = g;
    return false;
  }
  choose();
  return false;
}

LaneMask Its::call_mask() const {
  return ctx_ == 0 ? 0 : calls_[ctx_].mask;
}

unsigned Its::depth(unsigned lane) const {
  unsigned d = 0;
  for (std::uint32_t c = th_[lane].ctx; c != 0; c = calls_[c].parent) ++d;
  return d;
}

std::vector<ReconvergenceEntry> Its::entries() const {
  std::vector<ReconvergenceEntry> out;
  auto add = [&](LaneMask m, bool blocked) {
    for (const Group& g : groups(m)) {
      if (!blocked && g.mask == active_ && g.pc == pc_ && g.ctx == ctx_) continue;
      ReconvergenceEntry e;
      e.pc = g.pc;
      const Thread& t = th_[static_cast<unsigned>(first_lane(g.mask))];
      e.rpc = !t.joins.empty() && t.joins.back().ctx == g.ctx ? t.joins.back().pc : kNoRpc;
      e.mask = g.mask;
      e.call = g.ctx != 0;
      e.table = ReconvergenceEntry::Table::kSplit;
      e.blocked = blocked;
      out.push_back(e);
    }
  };
  add(bar_ & live_, true);
  add(sync_ & live_, true);
  add(ret_ & live_, true);
  add(runnable(), false);
  // The running group last (the top of the report, as a stack's top entry).
  if ((active_ & runnable()) == active_ && active_ != 0) {
    ReconvergenceEntry e;
    e.pc = pc_;
    const Thread& t = th_[static_cast<unsigned>(first_lane(active_))];
    e.rpc = !t.joins.empty() && t.joins.back().ctx == ctx_ ? t.joins.back().pc : kNoRpc;
    e.mask = active_;
    e.call = ctx_ != 0;
    e.table = ReconvergenceEntry::Table::kSplit;
    out.push_back(e);
  }
  return out;
}

}  // namespace simtsync::simt

namespace simtsync::simt {

// Registered in reconvergence.def.
std::unique_ptr<IReconvergence> make_its(Pc start, LaneMask threads,
                                         const config::PluginParams& p) {
  const unsigned limit = p.has("starvation_limit")
                             ? static_cast<unsigned>(p.get_int("starvation_limit"))
                             : Its::kDefaultStarvationLimit;
  return std::make_unique<Its>(start, threads, limit);
}
void declare_its(config::PluginDecl& d) {
  d.add_int("starvation_limit", Its::kDefaultStarvationLimit, 1, 1'000'000,
            "its: scheduling decisions a runnable thread waits at most before its group runs "
            "first (forward progress; smaller gives up reconvergence sooner)",
            "our choice; Volta whitepaper: forward progress for every thread, no reconvergence "
            "guarantee")
      .stat("splits", "divergent branches (a group of threads split in two)")
      .stat("reconverged", "times a group absorbed threads waiting at its PC")
      .stat("fifo_switches", "scheduling decisions that changed the running group");
}

}  // namespace simtsync::simt
