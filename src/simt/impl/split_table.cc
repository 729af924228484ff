#include "simt/impl/split_table.h"

#include <fmt/format.h>

#include <algorithm>

namespace simtsync::simt {

namespace {

// Fig. 7's request sizes and the reserved area: ST entries in its first half, RT in the second.
constexpr unsigned kStBytes = 12, kRtBytes = 16, kSlot = 16, kSlots = 32;
constexpr std::uint64_t kStFill = 1, kRtFill = 2, kStSpill = 3, kRtSpill = 4;

std::uint64_t fill_tag(std::uint64_t kind, int index) {
  return kind << 32 | static_cast<std::uint32_t>(index);
}

}  // namespace

SplitTable::SplitTable(Pc start, LaneMask threads, const SplitTableOptions& o)
    : TimedHooks(this), o_(o), live_(threads) {
  st_.reserve(8);
  rt_.reserve(8);
  const int s = new_split(start, kNoRpc, threads, kNone);
  st_[static_cast<size_t>(s)].eligible = 0;
  push_fifo(s);
  select();
  publish();
}

// Every invalid slot is on its free list, so the valid entries are the rest (no scan: the
// occupancy is sampled on every instruction).
std::size_t SplitTable::st_size() const {
  return st_.size() - free_st_.size();
}

std::size_t SplitTable::rt_size() const {
  return rt_.size() - free_rt_.size();
}

template <class T>
int SplitTable::take_slot(std::vector<T>& table, std::vector<int>& free) {
  if (free.empty()) {
    table.emplace_back();
    return static_cast<int>(table.size()) - 1;
  }
  const int i = free.back();
  free.pop_back();
  return i;
}

int SplitTable::new_split(Pc pc, Pc rpc, LaneMask mask, int rt) {
  const int s = take_slot(st_, free_st_);
  make_room_st(s);
  Split& e = st_[static_cast<size_t>(s)];
  e = Split{};
  e.valid = true;
  e.pc = pc;
  e.rpc = rpc;
  e.mask = mask;
  e.rt = rt;
  e.eligible = now_ + o_.insert_latency;
  e.inserted = order_++;
  return s;
}

int SplitTable::new_rt() {
  const int r = take_slot(rt_, free_rt_);
  make_room_rt(r);
  rt_[static_cast<size_t>(r)] = Rt{};
  rt_[static_cast<size_t>(r)].valid = true;
  touch_rt(r);
  return r;
}

void SplitTable::remove_split(int s) {
  st_[static_cast<size_t>(s)].valid = false;
  if (auto it = std::find(fifo_.begin(), fifo_.end(), s); it != fifo_.end()) fifo_.erase(it);
  free_st_.push_back(s);
  if (cur_ == s) cur_ = kNone;
}

void SplitTable::touch_rt(int r) {
  rt_[static_cast<size_t>(r)].used = order_++;
}

// Virtualization. An insertion into a full table spills a resident entry (ST: the one nearest
// the FIFO's tail; RT: the least recently used) through the one-entry spill-request buffer; the
// entry that feeds fetch (the running split) is never the victim. The buffer stays occupied
// until the request leaves the SM (request_sent). A branch issues only with both buffers empty,
// and a divergent branch adds at most one entry to each table, so its insertions always have
// room; every other insertion waits while its table is full and its buffer occupied: a
// reconverged or timed-out split in the reconverged-entry buffer (no instruction issues
// meanwhile), a fill whose reply is back in the table's transient state. Fills: an ST entry when
// it reaches the FIFO output, an RT entry when its pending mask must be updated (a split
// arrives) or its timeout fires.
template <class T>
unsigned SplitTable::resident(const std::vector<T>& table, int keep) {
  unsigned n = 0;
  for (size_t i = 0; i < table.size(); ++i)
    n += table[i].valid && table[i].where == Where::kPhysical && static_cast<int>(i) != keep;
  return n;
}

bool SplitTable::st_room(int keep) const {
  return o_.st_entries == 0 || st_spills_out_ == 0 || resident(st_, keep) < o_.st_entries;
}

bool SplitTable::rt_room(int keep) const {
  return o_.rt_entries == 0 || rt_spills_out_ == 0 || resident(rt_, keep) < o_.rt_entries;
}

void SplitTable::make_room_st(int keep) {
  if (o_.st_entries == 0 || resident(st_, keep) < o_.st_entries) return;
  // FIFO replacement over the scheduling FIFO (footnote 6: the ST reuses it): the victim is the
  // resident entry nearest the FIFO's tail, the last to be scheduled. An entry filled on its way
  // to the output is pinned until it runs: evicting it again before it runs livelocks a warp
  // whose lock holder sits behind its spinning splits (TL-CG with 4/2 entries).
  int victim = kNone;
  for (auto it = fifo_.rbegin(); it != fifo_.rend() && victim == kNone; ++it) {
    const Split& e = st_[static_cast<size_t>(*it)];
    if (*it != keep && *it != cur_ && e.where == Where::kPhysical && !e.pinned) victim = *it;
  }
  if (victim == kNone) return;  // all pinned: the fill waits in the table for that time
  st_[static_cast<size_t>(victim)].where = Where::kVirtual;
  out_.push_back(
      {static_cast<Addr>(victim % kSlots) * kSlot, kStBytes, true, fill_tag(kStSpill, victim)});
  ++st_spills_out_;
  ++counters_[kStatStSpills];
  counters_[kStatTableBytes] += kStBytes;
}

void SplitTable::make_room_rt(int keep) {
  if (o_.rt_entries == 0) return;
  unsigned resident = 0;
  int victim = kNone;
  for (size_t i = 0; i < rt_.size(); ++i) {
    const Rt& e = rt_[i];
    if (!e.valid || e.where != Where::kPhysical || static_cast<int>(i) == keep) continue;
    ++resident;
    if (victim == kNone || e.used < rt_[static_cast<size_t>(victim)].used)
      victim = static_cast<int>(i);
  }
  if (resident < o_.rt_entries || victim == kNone) return;
  rt_[static_cast<size_t>(victim)].where = Where::kVirtual;
  out_.push_back({kSlots * kSlot + static_cast<Addr>(victim % kSlots) * kSlot, kRtBytes, true,
                  fill_tag(kRtSpill, victim)});
  ++rt_spills_out_;
  ++counters_[kStatRtSpills];
  counters_[kStatTableBytes] += kRtBytes;
}

bool SplitTable::rt_usable(int r) {
  Rt& e = rt_[static_cast<size_t>(r)];
  if (e.where == Where::kPhysical) return true;
  if (e.where == Where::kVirtual) {
    out_.push_back({kSlots * kSlot + static_cast<Addr>(r % kSlots) * kSlot, kRtBytes, false,
                    fill_tag(kRtFill, r)});
    e.where = Where::kTransient;
    ++counters_[kStatRtFills];
    counters_[kStatTableBytes] += kRtBytes;
  }
  return false;
}

void SplitTable::sample() {
  ++counters_[kStatStOccupancy + bucket(st_size())];
  ++counters_[kStatRtOccupancy + bucket(rt_size())];
}

void SplitTable::arrive(int s) {
  Split& e = st_[static_cast<size_t>(s)];
  int r = e.rt;
  if (e.pc == kExitPc && e.pc != e.rpc) {
    // Returned from inside nested control flow of a function: the threads leave every region up
    // to the innermost call and meet there.
    while (r != kNone && !rt_[static_cast<size_t>(r)].call) {
      Rt& x = rt_[static_cast<size_t>(r)];
      x.mask &= ~e.mask;
      x.pending &= ~e.mask;
      r = x.parent;
    }
    if (r == kNone) return;  // kernel level: the core ends these threads (exit)
  }
  if (r == kNone) return;
  const LaneMask mask = e.mask;
  remove_split(s);
  if (!rt_usable(r)) {
    // The pending-mask-update buffer holds the arrival until the fill is back.
    rt_fill_wait_ = r;
    deferred_mask_ = mask;
    return;
  }
  Rt& x = rt_[static_cast<size_t>(r)];
  touch_rt(r);
  x.pending &= ~mask;
  if (!x.waiting) x.waiting = true, x.waiting_since = now_;
}

void SplitTable::reconverge(int r) {
  Rt& x = rt_[static_cast<size_t>(r)];
  const LaneMask mask = x.mask & live_;
  x.valid = false;
  free_rt_.push_back(r);
  if (mask == 0) return;
  ++counters_[kStatReconverged];
  insert_from_rt(x.pc, x.rpc, mask, x.parent);
}

void SplitTable::insert_from_rt(Pc pc, Pc rpc, LaneMask mask, int parent) {
  if (!st_room(kNone)) {
    held_ = {true, pc, rpc, mask, parent};  // the reconverged-entry buffer
    return;
  }
  const int s = new_split(pc, rpc, mask, parent);
  // The RT entry was read (its pending-mask update) before the split is inserted.
  st_[static_cast<size_t>(s)].eligible += o_.lookup_latency;
  push_fifo(s);
}

void SplitTable::settle() {
  for (bool again = true; again;) {
    again = false;
    if (held_.valid && st_room(kNone)) {
      held_.valid = false;
      push_fifo(new_split(held_.pc, held_.rpc, held_.mask, held_.parent));
    }
    for (size_t i = 0; i < st_.size(); ++i) {
      Split& e = st_[i];
      if (!e.valid) continue;
      if (e.mask == 0) {
        remove_split(static_cast<int>(i));
        again = true;
        continue;
      }
      if (e.blocked || e.where != Where::kPhysical) continue;
      if (e.pc == e.rpc || e.pc == kExitPc) {
        const bool at_kernel_exit = e.pc == kExitPc && e.rt == kNone;
        // One arrival at a time waits in the pending-mask-update buffer; the others stay
        // splits at their reconvergence point until its fill is back (memory_reply settles).
        if (at_kernel_exit || rt_fill_wait_ != kNone) continue;
        arrive(static_cast<int>(i));
        again = !st_[i].valid;
      }
    }
    for (size_t r = 0; r < rt_.size(); ++r) {
      Rt& x = rt_[r];
      const int ri = static_cast<int>(r);
      if (!x.valid || ri == rt_fill_wait_) continue;
      if ((x.pending & live_) != 0) continue;
      // The reconverged entry enters the ST or the reconverged-entry buffer; while that holds
      // one, other entries stay in the RT.
      if ((x.mask & live_) != 0 && (held_.valid || !rt_usable(ri))) continue;
      reconverge(ri);
      again = true;
    }
  }
  select();
}

void SplitTable::select() {
  cur_ = kNone;
  for (std::size_t n = fifo_.size(); n > 0; --n) {
    const int s = fifo_.front();
    Split& e = st_[static_cast<size_t>(s)];
    if (!e.blocked && e.where == Where::kPhysical) {
      cur_ = s;
      break;
    }
    if (e.where == Where::kVirtual) {
      out_.push_back(
          {static_cast<Addr>(s % kSlots) * kSlot, kStBytes, false, fill_tag(kStFill, s)});
      e.where = Where::kTransient;
      ++counters_[kStatStFills];
      counters_[kStatTableBytes] += kStBytes;
    }
    // Blocked, or waiting for its fill: to the back of the FIFO without being scheduled.
    fifo_.pop_front();
    fifo_.push_back(s);
  }
  if (cur_ == kNone) return;
  Split& e = st_[static_cast<size_t>(cur_)];
  e.pinned = false;
  // A switch: the split at the FIFO output is another entry than the one that ran last (after
  // a divergence, a reconvergence, a barrier or a branch that sent the last one to the back).
  // Its entry is read through the FIFO's index: the lookup latency (overlapping the insertion
  // latency of a split inserted this cycle).
  const std::uint64_t id = e.inserted;
  if (id != last_id_ && last_ != kNone) {
    ++counters_[kStatFifoSwitches];
    e.eligible = std::max(e.eligible, now_ + o_.lookup_latency);
  }
  last_ = cur_;
  last_id_ = id;
}

void SplitTable::on_advance(Pc next_pc) {
  sample();
  Split& e = st_[static_cast<size_t>(cur_)];
  e.pc = next_pc;
  if (next_pc != e.rpc && next_pc != kExitPc) return;  // greedy: the split runs on
  settle();
}

void SplitTable::on_branch(const BranchOutcome& b) {
  sample();
  const int s = cur_;
  Split& e = st_[static_cast<size_t>(s)];
  const LaneMask taken = b.taken & e.mask, not_taken = e.mask & ~b.taken;
  if (taken == 0 || not_taken == 0) {
    // A branch ends the split's turn: it goes to the back of the FIFO (Fig. 6b step 6).
    e.pc = taken ? b.target : b.fallthrough;
    fifo_.erase(std::find(fifo_.begin(), fifo_.end(), s));
    fifo_.push_back(s);
    settle();
    return;
  }
  const Pc at = o_.delayed ? b.safe_rpc : b.rpc;
  if (at != b.rpc) ++counters_[kStatDelayed];
  int r = e.rt;
  Pc rpc = e.rpc;
  const LaneMask mask = e.mask;
  if (at != e.rpc) {
    // A new reconvergence point, nested in the split's own.
    const int outer = e.rt;
    r = new_rt();
    Rt& x = rt_[static_cast<size_t>(r)];
    x.pc = at;
    x.rpc = rpc;
    x.mask = mask;
    x.pending = mask;
    x.parent = outer;
    rpc = at;
  }
  remove_split(s);
  // The not-taken path first (seed 003 Fig. 6a step 3).
  push_fifo(new_split(b.fallthrough, rpc, not_taken, r));
  push_fifo(new_split(b.target, rpc, taken, r));
  counters_[kStatSplits] += 2;
  settle();
}

void SplitTable::on_call(Pc entry, Pc return_pc) {
  sample();
  Split& e0 = st_[static_cast<size_t>(cur_)];
  const int s = cur_;
  const Pc outer_rpc = e0.rpc;
  const int outer = e0.rt;
  const LaneMask mask = e0.mask;
  const int r = new_rt();
  Rt& x = rt_[static_cast<size_t>(r)];
  x.pc = return_pc;
  x.rpc = outer_rpc;
  x.mask = mask;
  x.pending = mask;
  x.parent = outer;
  x.call = true;
  Split& e = st_[static_cast<size_t>(s)];
  e.pc = entry;
  e.rpc = kExitPc;
  e.rt = r;
}

bool SplitTable::on_ret() {
  sample();
  // Whether the whole call has returned is known now, even when the RT entry's update waits
  // for its fill or the reconverged entry for room (the executor restores the caller's frame
  // now; the threads run on in the caller only once the reconverged split is in the ST).
  Split& e = st_[static_cast<size_t>(cur_)];
  int r = e.rt;
  while (r != kNone && !rt_[static_cast<size_t>(r)].call) r = rt_[static_cast<size_t>(r)].parent;
  bool whole = false;
  if (r != kNone) {
    Rt& x = rt_[static_cast<size_t>(r)];
    x.returned |= e.mask;
    whole = (x.mask & live_ & ~x.returned) == 0;
  }
  e.pc = kExitPc;
  settle();
  return whole;
}

void SplitTable::on_exit(LaneMask lanes) {
  live_ &= ~lanes;
  for (auto& e : st_)
    if (e.valid) e.mask &= ~lanes;
  for (auto& x : rt_)
    if (x.valid) x.mask &= ~lanes, x.pending &= ~lanes;
  settle();
}

LaneMask SplitTable::on_barrier_arrive(LaneMask) {
  // The split waits with its PC after the barrier; the others run on (seed 003 sec. IV-B).
  Split& e = st_[static_cast<size_t>(cur_)];
  e.blocked = true;
  e.pc += kInstSize;
  LaneMask waiting = 0;
  for (const auto& x : st_)
    if (x.valid && x.blocked) waiting |= x.mask;
  select();
  // With no split left to run, the warp has arrived: threads waiting in the RT for the blocked
  // ones (a loop some threads left before the barrier) cannot get there either, as under a
  // stack, where the barrier counts the warp.
  return any_runnable() ? waiting : live_;
}

bool SplitTable::any_blocked() const {
  for (const auto& x : st_)
    if (x.valid && x.blocked && x.mask != 0) return true;
  return false;
}

bool SplitTable::any_runnable() const {
  if (held_.valid || rt_fill_wait_ != kNone) return true;
  for (const auto& x : st_)
    if (x.valid && !x.blocked && x.mask != 0) return true;
  return false;
}

bool SplitTable::barrier_complete() const {
  return live_ != 0 && any_blocked() && !any_runnable();
}

void SplitTable::on_barrier_release() {
  for (auto& e : st_) e.blocked = false;
  settle();
}

void SplitTable::on_tick(Cycle now) {
  now_ = now;
  if (o_.timeout == 0) return;
  bool fired = false;
  for (size_t r = 0; r < rt_.size(); ++r) {
    Rt& x = rt_[r];
    if (!x.valid || !x.waiting || now < x.waiting_since + o_.timeout) continue;
    const LaneMask arrived = x.mask & ~x.pending & live_;
    if (arrived == 0 || (x.pending & live_) == 0) continue;
    if (!rt_usable(static_cast<int>(r))) continue;  // fires once its fill is back
    if (held_.valid) continue;  // the reconverged-entry buffer is occupied: fires later
    // Fig. 6b: the waiting threads go on as a new split with the entry's PC and RPC (through
    // the reconverged-entry buffer when the ST is full).
    Rt& y = rt_[r];
    y.mask &= ~arrived;
    y.waiting = false;
    touch_rt(static_cast<int>(r));
    insert_from_rt(y.pc, y.rpc, arrived, y.parent);
    ++counters_[kStatTimeouts];
    fired = true;
  }
  if (fired) settle();
}

Cycle SplitTable::next_event(Cycle now) const {
  Cycle t = kNever;
  if (cur_ != kNone && st_[static_cast<size_t>(cur_)].eligible > now)
    t = st_[static_cast<size_t>(cur_)].eligible;
  if (!out_.empty()) t = std::min(t, now + 1);
  if (o_.timeout != 0)
    for (const auto& x : rt_)
      if (x.valid && x.waiting && x.where == Where::kPhysical)
        t = std::min(t, std::max(x.waiting_since + o_.timeout, now + 1));
  return t;
}

SplitState SplitTable::current_state() const {
  SplitState st;
  if (cur_ != kNone) {
    st.pc = st_[static_cast<size_t>(cur_)].pc;
    st.active = st_[static_cast<size_t>(cur_)].mask;
  } else {
    st.pc = kExitPc;
  }
  st.live = live_;
  st.ready = can_issue();
  st.branch_ready = spills_clear();
  return st;
}

bool SplitTable::can_issue() const {
  // Fig. 7: nothing issues while the reconverged-entry or pending-mask-update buffer is
  // occupied (the spill-request buffers hold back branches only: branch_ready).
  return cur_ != kNone && st_[static_cast<size_t>(cur_)].eligible <= now_ &&
         rt_fill_wait_ == kNone && !held_.valid;
}

void SplitTable::on_request_sent(std::uint64_t tag) {
  const std::uint64_t kind = tag >> 32;
  unsigned* out = kind == kStSpill ? &st_spills_out_ : kind == kRtSpill ? &rt_spills_out_ : nullptr;
  if (!out) return;  // a fill: its reply comes through memory_reply
  if (*out > 0) --*out;
  complete_fills();
  settle();
}

void SplitTable::complete_fills() {
  while (!st_filled_.empty() && st_room(st_filled_.front())) {
    const int i = st_filled_.front();
    st_filled_.erase(st_filled_.begin());
    if (!st_[static_cast<size_t>(i)].valid ||
        st_[static_cast<size_t>(i)].where != Where::kTransient)
      continue;  // left the table meanwhile (its threads exited)
    make_room_st(i);
    st_[static_cast<size_t>(i)].where = Where::kPhysical;
    st_[static_cast<size_t>(i)].pinned = true;
  }
  while (!rt_filled_.empty() && rt_room(rt_filled_.front())) {
    const int i = rt_filled_.front();
    rt_filled_.erase(rt_filled_.begin());
    if (!rt_[static_cast<size_t>(i)].valid ||
        rt_[static_cast<size_t>(i)].where != Where::kTransient)
      continue;
    make_room_rt(i);
    Rt& x = rt_[static_cast<size_t>(i)];
    x.where = Where::kPhysical;
    touch_rt(i);
    if (rt_fill_wait_ == i) {
      x.pending &= ~deferred_mask_;
      if (!x.waiting) x.waiting = true, x.waiting_since = now_;
      rt_fill_wait_ = kNone;
      deferred_mask_ = 0;
    }
  }
}

bool SplitTable::on_pop_request(UnitRequest& out) {
  if (out_.empty()) return false;
  out = out_.front();
  out_.pop_front();
  return true;
}

void SplitTable::on_memory_reply(const MemoryReply& r) {
  const std::uint64_t kind = r.tag >> 32;
  if (!r.from_unit || (kind != kStFill && kind != kRtFill)) return;  // spills need no answer
  const int i = static_cast<int>(r.tag & 0xffffffffu);
  if (kind == kStFill) {
    if (static_cast<size_t>(i) >= st_.size() || !st_[static_cast<size_t>(i)].valid) return;
    st_filled_.push_back(i);
    complete_fills();
    if (cur_ == kNone) select();
    return;
  }
  if (static_cast<size_t>(i) >= rt_.size() || !rt_[static_cast<size_t>(i)].valid) return;
  rt_filled_.push_back(i);
  complete_fills();
  settle();
}

LaneMask SplitTable::call_mask() const {
  const int from = cur_ != kNone ? cur_ : last_;
  if (from == kNone) return 0;
  for (int r = st_[static_cast<size_t>(from)].rt; r != kNone;
       r = rt_[static_cast<size_t>(r)].parent)
    if (rt_[static_cast<size_t>(r)].call) return rt_[static_cast<size_t>(r)].mask;
  return 0;
}

std::vector<ReconvergenceEntry> SplitTable::entries() const {
  // RT entries first, then the splits from the back of the FIFO to its front: reports print
  // the last row first, so the split that runs next comes first.
  std::vector<ReconvergenceEntry> out;
  for (const auto& x : rt_) {
    if (!x.valid) continue;
    ReconvergenceEntry e;
    e.pc = x.pc;
    e.rpc = x.rpc;
    e.mask = x.mask;
    e.call = x.call;
    e.table = ReconvergenceEntry::Table::kReconvergence;
    e.pending = x.pending;
    e.spilled = x.where != Where::kPhysical;
    out.push_back(e);
  }
  for (auto it = fifo_.rbegin(); it != fifo_.rend(); ++it) {
    const Split& s = st_[static_cast<size_t>(*it)];
    ReconvergenceEntry e;
    e.pc = s.pc;
    e.rpc = s.rpc;
    e.mask = s.mask;
    e.table = ReconvergenceEntry::Table::kSplit;
    e.blocked = s.blocked;
    e.spilled = s.where != Where::kPhysical;
    out.push_back(e);
  }
  return out;
}

void SplitTable::declare_stats(config::PluginDecl& d) {
  d.stat("splits", "warp splits created by divergent branches")
      .stat("reconverged", "reconvergence-table entries whose threads all arrived")
      .stat("fifo_switches", "times the running warp split changed to another split")
      .stat("delayed", "divergent branches reconverging at a delayed (safe) point, not the IPDOM")
      .stat("timeouts", "waiting threads split off a reconvergence point by the timeout")
      .stat("st_spills", "split-table entries spilled to memory (virtualized tables)")
      .stat("st_fills", "split-table entries filled from memory")
      .stat("rt_spills", "reconvergence-table entries spilled to memory")
      .stat("rt_fills", "reconvergence-table entries filled from memory")
      .stat("table_bytes", "bytes of table spill and fill traffic (12 per ST, 16 per RT entry)");
  static constexpr const char* kLabels[kBuckets] = {"0", "1", "2", "3_4", "5_8", "9_16", "17_up"};
  static constexpr const char* kCounts[kBuckets] = {"0",   "1",    "2",         "3-4",
                                                    "5-8", "9-16", "17 or more"};
  for (const char* table : {"st", "rt"})
    for (unsigned b = 0; b < kBuckets; ++b)
      d.stat(fmt::format("{}_occ_{}", table, kLabels[b]),
             fmt::format("instructions executed with {} valid {} entr{}", kCounts[b],
                         table[0] == 's' ? "split-table" : "reconvergence-table",
                         b == 1 ? "y" : "ies"));
}

std::string SplitTable::report_note() const {
  if (can_issue()) {
    if (spills_clear()) return "";
    return fmt::format("branches wait for {} table spill request(s) to leave the SM",
                       st_spills_out_ + rt_spills_out_);
  }
  if (rt_fill_wait_ != kNone)
    return fmt::format("a split's arrival waits for reconvergence-table entry {} to be filled",
                       rt_fill_wait_);
  if (held_.valid)
    return fmt::format(
        "a split (pc {:#x}, mask {:#x}) waits in the reconverged-entry buffer for split-table "
        "room",
        held_.pc, held_.mask);
  if (cur_ == kNone) return "no split can run: every split is held or waits for its fill";
  return fmt::format("the next split is eligible at cycle {} (now {})",
                     st_[static_cast<size_t>(cur_)].eligible, now_);
}

}  // namespace simtsync::simt
