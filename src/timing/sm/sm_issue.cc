// Decode/issue stage: each scheduler orders its warps with its policy and issues the first
// whose next instruction is buffered, whose operands are not pending on the scoreboard and
// whose execution unit can accept it. The instruction executes functionally at issue; results
// become visible to dependent instructions after the op class's latency (scoreboard), memory
// results when the response returns.
#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <iterator>
#include <span>

#include "timing/sm/sm.h"

namespace simtsync::sm {
namespace {

// Energy activity of an issued instruction (src/energy): its op class and active lanes, and its
// register operands (sources, the address register and the guard predicate read; destinations
// written), one register-file access per operand per warp.
void count_activity(SmStats& st, const func::ExecInst& in, OpClass oc, std::uint64_t lanes) {
  static_assert(static_cast<std::size_t>(OpClass::kCount) == std::size(SmStats{}.op_warps));
  ++st.op_warps[static_cast<int>(oc)];
  st.op_lanes[static_cast<int>(oc)] += lanes;
  std::uint64_t reads = in.guard != func::kNoReg ? 1 : 0;
  for (unsigned k = 0; k < in.nsrc; ++k) reads += in.src[k].kind == func::Src::Kind::kReg ? 1 : 0;
  reads += in.mem.base == func::MemRef::Base::kReg ? 1 : 0;
  std::uint64_t writes = 0;
  for (unsigned k = 0; k < in.ndst; ++k) writes += in.dst[k] != func::kNoReg ? 1 : 0;
  st.rf_reads += reads;
  st.rf_writes += writes;
}

}  // namespace

Cycle* Sm::free_pipe(UnitKind uk, Cycle now) {
  auto& pipes = unit_busy_[static_cast<size_t>(uk)];
  auto pipe = std::find_if(pipes.begin(), pipes.end(), [&](Cycle b) { return b <= now; });
  return pipe == pipes.end() ? nullptr : &*pipe;
}

void Sm::occupy(Cycle* pipe, OpClass oc, UnitKind uk, Cycle now) {
  // A warp instruction takes `passes` trips through a SIMD narrower than the warp.
  const unsigned passes = (p_.warp_size + p_.simd_width - 1) / std::max(1u, p_.simd_width);
  const unsigned occupancy = std::max(1u, p_.ii[static_cast<int>(oc)]) * passes;
  *pipe = now + occupancy;
  note_ready(*pipe);
  const auto& pipes = unit_busy_[static_cast<size_t>(uk)];
  const auto bit = pipe_bit_[static_cast<size_t>(uk)] + static_cast<unsigned>(pipe - pipes.data());
  if (bit < 64) busy_pipes_ |= std::uint64_t{1} << bit;
  stats_.unit_busy[static_cast<int>(uk)] += occupancy;
}

bool Sm::issue(Cycle now) {
  // The schedulers share the LD/ST queue and the unit pools, so the one that goes first takes
  // what frees up. sm.scheduler_priority: `fixed` (scheduler 0 first) lets scheduler 0's
  // spinning warps keep the LD/ST queue full while a lock holder on scheduler 1 never issues;
  // `rotate` changes the first every cycle (GPGPU-Sim 4.2's shader_core_ctx::issue()).
  bool any = false;
  const auto n = static_cast<unsigned>(scheds_.size());
  const auto first = p_.rotate_scheduler_priority ? static_cast<unsigned>(now % n) : 0u;
  const bool walk_masks = rotation_ok_ && !events_.cycles();
  for (unsigned k = 0; k < n; ++k) {
    const auto s = (first + k) % n;
    // A rotating scheduler whose live warps are all blocked or refused for LD/ST-queue room
    // (most schedulers, most cycles, on a lock kernel): issue_rotated would try none of them
    // and take the outcome from the masks. That outcome, here without the calls.
    if (walk_masks && view_version_[s] == version_ && view_any_live_[s] &&
        rotated_last_[s] != kNotRotating) {
      const std::uint64_t live = view_live_mask_[s];
      const std::uint64_t held = live & (blocked_ | ldst_blocked_);
      const std::uint64_t refused =
          ldst_queue_.size() >= p_.ldst_queue ? live & ldst_waiting_ & ~held : 0;
      if ((live & ~(held | refused)) == 0) {
        const StallKind kind = blocked_kind(live, refused);
        if (refused != 0 && free_pipe(UnitKind::kLdst, now) != nullptr) ldst_blocked_ |= refused;
        ++stats_.sched[s].cycles[static_cast<int>(kind)];
        last_stall_[s] = kind;
        continue;
      }
    }
    any |= issue_one(static_cast<int>(s), now);
  }
  return any;
}

bool Sm::issue_one(int s, Cycle now) {
  const auto& mine = sched_slots_[static_cast<size_t>(s)];
  auto& view = views_[static_cast<size_t>(s)];
  if (view_version_[static_cast<size_t>(s)] != version_) {
    view_version_[static_cast<size_t>(s)] = version_;
    view.resize(mine.size());
    bool any_warp = false, any_live = false;
    unsigned nlive = 0;
    std::uint64_t live_mask = 0;
    for (size_t i = 0; i < mine.size(); ++i) {
      const WarpSlot& ws = slots_[static_cast<size_t>(mine[i])];
      const bool live = ws.warp && !ws.done &&
                        hot_[static_cast<size_t>(mine[i])].state != func::WarpState::kFinished;
      view[i] = {live, ws.age, mine[i]};
      any_warp |= ws.warp != nullptr;
      any_live |= live;
      nlive += live ? 1 : 0;
      if (live) live_mask |= std::uint64_t{1} << mine[i];
    }
    view_any_warp_[static_cast<size_t>(s)] = any_warp;
    view_any_live_[static_cast<size_t>(s)] = any_live;
    view_live_[static_cast<size_t>(s)] = nlive;
    view_live_mask_[static_cast<size_t>(s)] = live_mask;
  }
  const bool any_warp = view_any_warp_[static_cast<size_t>(s)];
  const bool any_live = view_any_live_[static_cast<size_t>(s)];
  SchedStats& st = stats_.sched[static_cast<size_t>(s)];
  if (!any_live) {
    const StallKind k = any_warp ? StallKind::kExit : StallKind::kIdle;
    ++st.cycles[static_cast<int>(k)];
    last_stall_[static_cast<size_t>(s)] = k;
    return false;
  }
  const bool rotating = rotated_last_[static_cast<size_t>(s)] != kNotRotating;
  if (rotating && rotation_ok_ && !events_.cycles()) return issue_rotated(s, now);
  const std::uint64_t live_mask = view_live_mask_[static_cast<size_t>(s)];
  // Every live warp blocked: the walk below would try none, whatever the order; a policy that
  // offers every live warp need not write one (IWarpScheduler::all_blocked).
  if ((live_mask & ~(blocked_ | ldst_blocked_)) == 0 && !events_.cycles() &&
      static_cast<unsigned>(std::popcount(live_mask)) == view_live_[static_cast<size_t>(s)] &&
      scheds_[static_cast<size_t>(s)]->all_blocked(views_[static_cast<size_t>(s)], version_, now)) {
    const StallKind k = blocked_kind(live_mask, 0);
    ++st.cycles[static_cast<int>(k)];
    last_stall_[static_cast<size_t>(s)] = k;
    return false;
  }
  std::vector<int>& order = orders_[static_cast<size_t>(s)];
  scheds_[static_cast<size_t>(s)]->order(view, version_, now, order);
  StallKind best = StallKind::kCount;
  // The timeline trace (EventBus::subscribe_cycles): why each of the scheduler's warps did not
  // issue this cycle. Built only when someone listens; `issued_at` is the position in `order`
  // of the warp that issued (-1: none). Out of line and given its operands at the call, so that
  // an untraced run pays only the flag test (a closure of references cost issue_one 17%).
  auto report = [this](int s, Cycle now, const auto& mine, const auto& view, const auto& order,
                       int issued_at) __attribute__((noinline, cold)) {
    std::array<WarpCycle, 64> why;
    const std::size_t n = std::min(mine.size(), why.size());
    for (std::size_t i = 0; i < n; ++i)
      why[i] = view[i].valid ? WarpCycle::kHeld : WarpCycle::kNone;
    for (int k = 0; k < static_cast<int>(order.size()); ++k) {
      const auto i = static_cast<std::size_t>(order[static_cast<std::size_t>(k)]);
      if (i >= n) continue;
      const int slot = mine[i];
      const std::uint64_t bit = std::uint64_t{1} << slot;
      const WarpSlot& ws = slots_[static_cast<size_t>(slot)];
      const HotWarp& hw = hot_[static_cast<size_t>(slot)];
      WarpCycle w = WarpCycle::kNotPicked;
      if (k == issued_at)
        w = WarpCycle::kIssued;
      else if (hw.state == func::WarpState::kFinished)
        w = WarpCycle::kExit;
      else if (hw.state == func::WarpState::kAtBarrier)
        w = WarpCycle::kBarrier;
      else if (ldst_blocked_ & bit)
        w = WarpCycle::kStructural;
      else if ((blocked_ & bit) || atomic_loops_[static_cast<size_t>(slot)].acc)
        w = WarpCycle::kData;
      else if (ws.ib_count == 0)
        w = ws.control_flush ? WarpCycle::kControl : WarpCycle::kFetch;
      else if (ws.ib[0].ready > now)
        w = WarpCycle::kFetch;
      else if (issued_at < 0 || k < issued_at)
        // Looked at and refused with a buffered instruction and no known wait: its unit was
        // busy (or a reconvergence unit that keeps time named no split).
        w = (timed_units_ >> slot & 1) && !hw.split.ready ? WarpCycle::kControl
                                                          : WarpCycle::kStructural;
      why[i] = w;
    }
    events_.deliver_cycle(SchedCycleEvent{now, s, std::span<const int>(mine.data(), n),
                                          std::span<const WarpCycle>(why.data(), n)});
  };
  // Every live warp offered (the order holds only live warps, each once) and every one blocked:
  // the loop would try none of them. Its outcome comes from the masks.
  const bool all_blocked = (live_mask & ~(blocked_ | ldst_blocked_)) == 0 &&
                           order.size() == view_live_[static_cast<size_t>(s)];
  if (all_blocked) best = blocked_kind(live_mask, 0);
  const std::uint64_t starved = starved_ & ~(lock_wait_ | timed_units_ | loop_slots_);
  for (int idx : all_blocked ? std::span<const int>() : std::span<const int>(order)) {
    const int slot = mine[static_cast<size_t>(idx)];
    const std::uint64_t bit = std::uint64_t{1} << slot;
    if ((blocked_ | ldst_blocked_) & bit) {
      best = std::min(best, (ldst_blocked_ & bit) ? StallKind::kStructural : StallKind::kData);
      continue;
    }
    if (starved & bit) {  // nothing buffered: try_issue would refuse it and change nothing
      best = std::min(best, starved_kind(bit));
      continue;
    }
    const StallKind r = (ldst_waiting_ & bit) && ldst_queue_.size() >= p_.ldst_queue
                            ? refuse_ldst(slot, now)
                            : try_issue(slot, now, s);
    if (r == StallKind::kIssued) {
      scheds_[static_cast<size_t>(s)]->issued(idx, now);
      if (rotating) rotated_last_[static_cast<size_t>(s)] = idx;
      ++st.cycles[static_cast<int>(StallKind::kIssued)];
      ++st.issued;
      last_stall_[static_cast<size_t>(s)] = StallKind::kIssued;
      if (long_latency_issued_) scheds_[static_cast<size_t>(s)]->long_latency(idx, now);
      if (events_.cycles())
        report(s, now, mine, view, order,
               static_cast<int>(std::find(order.begin(), order.end(), idx) - order.begin()));
      return true;
    }
    best = std::min(best, r);
  }
  // Nothing offered could issue. When the policy offered no warp at all while some are live,
  // it held them back: the cycle is the policy's (`held`), not idle.
  const StallKind k = best != StallKind::kCount                                 ? best
                      : order.empty() && view_live_[static_cast<size_t>(s)] > 0 ? StallKind::kHeld
                                                                                : StallKind::kIdle;
  ++st.cycles[static_cast<int>(k)];
  last_stall_[static_cast<size_t>(s)] = k;
  if (events_.cycles()) report(s, now, mine, view, order, -1);
  // Only warps waiting at a barrier or finished were offered: nothing will change by itself, so
  // the policy may offer others (two-level's pending warps).
  if (!order.empty() && (k == StallKind::kBarrier || k == StallKind::kExit) &&
      scheds_[static_cast<size_t>(s)]->nothing_ready(now))
    sched_changed_ = true;
  return false;
}

bool Sm::issue_rotated(int s, Cycle now) {
  // The order issue_one would walk is the live warps by ascending slot (a scheduler's slots
  // ascend with its view's indices), starting at the slot after the one last issued from. Blocked warps
  // and warps refused only for want of LD/ST-queue room are not visited one by one: what the
  // walk would learn from them (their stall kinds, refuse_ldst's mark) comes from the masks,
  // which nothing in the walk changes for a warp before it is visited.
  const auto& mine = sched_slots_[static_cast<size_t>(s)];
  SchedStats& st = stats_.sched[static_cast<size_t>(s)];
  const std::uint64_t live = view_live_mask_[static_cast<size_t>(s)];
  const int last = rotated_last_[static_cast<size_t>(s)];
  const auto first = static_cast<unsigned>(
      mine[last + 1 < static_cast<int>(mine.size()) ? static_cast<size_t>(last + 1) : 0]);
  const std::uint64_t held = live & (blocked_ | ldst_blocked_);
  const std::uint64_t refused =
      ldst_queue_.size() >= p_.ldst_queue ? live & ldst_waiting_ & ~held : 0;
  // refuse_ldst marks a refused warp only while an LD/ST pipeline is free (its head is a
  // memory instruction: UnitKind::kLdst); nothing in the walk occupies one before an issue.
  const bool mark = refused != 0 && free_pipe(UnitKind::kLdst, now) != nullptr;
  StallKind best = StallKind::kCount;
  if ((live & ldst_blocked_) | refused) best = StallKind::kStructural;
  if (live & blocked_ & ~ldst_blocked_) best = std::min(best, StallKind::kData);
  // Warps with nothing buffered are not visited either: try_issue would refuse them and change
  // nothing, so they matter only to the stall kind of a cycle without issue.
  const std::uint64_t starved =
      live & starved_ & ~(held | refused | lock_wait_ | timed_units_ | loop_slots_);
  // Rotated right by `first`, the walk's order is ascending bit order.
  const std::uint64_t tried =
      std::rotr(live & ~(held | refused | starved), static_cast<int>(first));
  for (std::uint64_t m = tried; m != 0; m &= m - 1) {
    const int at = std::countr_zero(m);
    const int slot = (at + static_cast<int>(first)) & 63;
    const StallKind r = try_issue(slot, now, s);
    if (r != StallKind::kIssued) {
      best = std::min(best, r);
      continue;
    }
    // The refused warps the walk passed before this one.
    if (mark)
      ldst_blocked_ |=
          refused & std::rotl((std::uint64_t{1} << at) - 1, static_cast<int>(first));
    // Scheduler k owns slots k, k + n, k + 2n, ... (n schedulers): the view index.
    const int idx = slot / static_cast<int>(sched_slots_.size());
    scheds_[static_cast<size_t>(s)]->issued(idx, now);
    rotated_last_[static_cast<size_t>(s)] = idx;
    ++st.cycles[static_cast<int>(StallKind::kIssued)];
    ++st.issued;
    last_stall_[static_cast<size_t>(s)] = StallKind::kIssued;
    if (long_latency_issued_) scheds_[static_cast<size_t>(s)]->long_latency(idx, now);
    return true;
  }
  if (mark) ldst_blocked_ |= refused;
  if (starved) best = std::min(best, starved_kind(starved));
  // `live` is not empty (issue_one), so some warp gave a kind.
  ++st.cycles[static_cast<int>(best)];
  last_stall_[static_cast<size_t>(s)] = best;
  if ((best == StallKind::kBarrier || best == StallKind::kExit) &&
      scheds_[static_cast<size_t>(s)]->nothing_ready(now))
    sched_changed_ = true;
  return false;
}

StallKind Sm::starved_kind(std::uint64_t slots) const {
  // The checks try_issue makes before it finds the I-buffer empty, in its order.
  StallKind best = StallKind::kCount;
  for (std::uint64_t m = slots; m != 0; m &= m - 1) {
    const auto slot = static_cast<std::size_t>(std::countr_zero(m));
    const func::WarpState st = hot_[slot].state;
    const StallKind k = st == func::WarpState::kFinished    ? StallKind::kExit
                        : st == func::WarpState::kAtBarrier ? StallKind::kBarrier
                        : slots_[slot].control_flush        ? StallKind::kControl
                                                            : StallKind::kFetch;
    best = std::min(best, k);
    if (best == StallKind::kBarrier) break;  // the least these can give
  }
  return best;
}

StallKind Sm::refuse_ldst(int slot, Cycle now) {
  // Every check of try_issue before the LD/ST queue's passed when the slot entered
  // ldst_waiting_ and still does: its head, state, scoreboard and pending counts change only
  // with its own issue, a flush or a memory reply, which take it out. Only the pipeline check
  // may answer otherwise now.
  long_latency_issued_ = false;
  const UnitKind uk = slots_[static_cast<size_t>(slot)].ib[0].uk;
  if (!free_pipe(uk, now)) return StallKind::kStructural;
  ldst_blocked_ |= std::uint64_t{1} << slot;
  return StallKind::kStructural;
}

StallKind Sm::try_issue(int slot, Cycle now, int sched) {
  WarpSlot& ws = slots_[static_cast<size_t>(slot)];
  // Warp and reconvergence state from the slot's mirror (hot_): the warp object is followed
  // only to issue.
  const HotWarp& hw = hot_[static_cast<size_t>(slot)];
  assert(hw.state == ws.warp->state && hw.split == ws.warp->simt->state());
  long_latency_issued_ = false;
  if (hw.state == func::WarpState::kFinished) return StallKind::kExit;
  if (hw.state == func::WarpState::kAtBarrier) return StallKind::kBarrier;
  if (atomic_loops_[static_cast<size_t>(slot)].acc) return issue_atomic_step(slot, now);
  if (lock_wait_ >> slot & 1) {
    if (!hw.split.ready) {
      blocked_ |= std::uint64_t{1} << slot;  // a lock reply clears it (finish_access)
      return StallKind::kData;
    }
    lock_wait_ &= ~(std::uint64_t{1} << slot);
  }
  // A unit that keeps time may not name a split this cycle (AWARE: a split inserted this cycle,
  // a table fill in flight); its next_event() wakes the SM.
  if ((timed_units_ >> slot & 1) && !hw.split.ready) return StallKind::kControl;
  if (ws.ib_count == 0) {
    // Only a stopped fetch needs the reconvergence unit's PC: a buffer that fetch will refill
    // does not, and most warps a scheduler looks at are there (reading the PC is a cache miss).
    if (ws.fetch_stop) {
      func::Warp& w = *ws.warp;
      const Pc pc = hw.split.pc;
      if (ws.fetch_pc != pc) {
        // The fetch stopped where the warp was going, but its unit has since named another
        // split (a table fill or a timeout, outside issue): fetch there.
        flush(ws, pc, true);
        return StallKind::kControl;
      }
      if (ex_.peek(w) == nullptr) {
        // Fell off the end of a function: the executor performs the implicit return.
        ex_.step(w);
        if (w.state == func::WarpState::kFinished) ++version_;
        if (on_step_) on_step_(w, pc);
        flush(ws, hw.split.pc, true);
        check_done(slot, now);
        return StallKind::kIssued;
      }
    }
    return ws.control_flush ? StallKind::kControl : StallKind::kFetch;
  }
  const Pc pc = hw.split.pc;
  const WarpSlot::Entry head = ws.ib[0];
  if (head.inst->pc != pc) {
    // The reconvergence unit moved the warp elsewhere (a reconvergence pop): refetch.
    flush(ws, pc, true);
    return StallKind::kControl;
  }
  if (head.ready > now) return StallKind::kFetch;
  const func::ExecInst& in = *head.inst;
  if (ws.sb.hazard(in)) {
    // Only a writeback or a memory response can clear this: skip the warp until then.
    blocked_ |= std::uint64_t{1} << slot;
    return StallKind::kData;
  }
  const ptx::UnitClass uc = head.uc;
  // A unit with virtualized tables holds control instructions while a table spill waits to
  // leave (AWARE, seed 003 Fig. 7); the spill leaving (ldst) clears it.
  if (uc == ptx::UnitClass::kCtrl && (timed_units_ >> slot & 1) && !hw.split.branch_ready)
    return StallKind::kControl;
  // An unlock releases: it waits for the warp's earlier memory operations, as a fence before
  // the releasing store would (the critical section's writes are visible to the next holder).
  // Neither waits for a lock instruction whose lanes wait in a lock queue (they wait for a
  // lock, perhaps this warp's own, not for memory).
  // A printf or assert call reads what the warp stored (its argument buffer): it waits too.
  const bool release = uc == ptx::UnitClass::kFence || in.lock_op == func::IntrinsicOp::kUnlock ||
                       in.host_call != func::HostCall::kNone;
  if (release && (ws.pending_stores > 0 || ws.pending_loads > ws.pending_locks)) {
    blocked_ |= std::uint64_t{1} << slot;
    return StallKind::kData;
  }
  const OpClass oc = head.oc;
  const UnitKind uk = head.uk;
  Cycle* pipe = free_pipe(uk, now);
  if (!pipe) return StallKind::kStructural;
  const bool is_mem = oc == OpClass::kMem;
  if (is_mem && ldst_queue_.size() >= p_.ldst_queue) {
    // Only the LD/ST queue draining can clear this: skip the warp until then.
    ldst_blocked_ |= std::uint64_t{1} << slot;
    if (!(timed_units_ >> slot & 1)) ldst_waiting_ |= std::uint64_t{1} << slot;
    return StallKind::kStructural;
  }
  ldst_waiting_ &= ~(std::uint64_t{1} << slot);

  // Issue. The executor's first reads are the warp's state and its unit's active mask, two
  // objects of their own that are seldom in the cache (with 80 SMs of 64 warps the per-warp
  // state does not stay there; perf put most of Executor::execute's time on those two loads):
  // fetch them now, while the issue's bookkeeping runs.
  // (The warp's fields the executor reads are its first 112 bytes, on up to three cache lines;
  // the unit's virtual table pointer, published state and mirror are its first 48, on one or two.)
  const char* wp = reinterpret_cast<const char*>(ws.warp);
  const char* up = reinterpret_cast<const char*>(ws.unit);
  __builtin_prefetch(wp);
  __builtin_prefetch(wp + 64);
  __builtin_prefetch(wp + 111);
  __builtin_prefetch(up);
  __builtin_prefetch(up + 47);
  func::Warp& w = *ws.warp;
  occupy(pipe, oc, uk, now);
  ++stats_.warp_instructions;
  const auto lanes = static_cast<std::uint64_t>(func::popcount(hw.split.active));
  stats_.thread_instructions += lanes;
  count_activity(stats_, in, oc, lanes);
  func::MemAccess* acc = is_mem ? alloc_access() : nullptr;
  ++ws.issued;
  func::StepInfo info;
  const bool observed = !events_.empty();
  const func::StepResult res = ex_.step(w, acc, observed ? &info : nullptr);
  if (w.state == func::WarpState::kFinished) ++version_;
  if (on_step_) on_step_(w, pc);
  if (observed) emit_issue(sched, slot, in, pc, info, res == func::StepResult::kMemory, now);
  if (res == func::StepResult::kMemory) {
    const bool store = in.op == ptx::Opcode::kSt || in.op == ptx::Opcode::kRed;
    if (store) {
      ++ws.pending_stores;
    } else {
      ++ws.pending_loads;
      for (unsigned k = 0; k < in.ndst; ++k) ws.sb.reserve(in.dst[k]);
      long_latency_issued_ = true;
    }
    ldst_queue_.push_back({slot, acc});
    if (func::is_lock_inst(in.lock_op))
      lock_wait_ |= std::uint64_t{1} << slot;
    else
      lock_wait_ &= ~(std::uint64_t{1} << slot);
    ws.pending_locks += in.lock_op == func::IntrinsicOp::kLock;
    const bool atomic = in.op == ptx::Opcode::kAtom || in.op == ptx::Opcode::kRed;
    if (atomic && p_.shared_lock_loop &&
        static_cast<ptx::Space>(acc->space[func::first_lane(acc->mask)]) == ptx::Space::kShared &&
        func::all_lanes_shared(*acc)) {
      // Its first micro-operation, the LDSLK, is this issue; the loop takes it from here.
      atomic_loops_[static_cast<size_t>(slot)] = {acc, acc->mask, 0, AtomicLoop::Step::kWait,
                                                  now, false};
      loop_slots_ |= std::uint64_t{1} << slot;
      ++stats_.atomic_uops;
    }
  } else {
    if (acc) free_access_.push_back(acc);
    const Cycle at = now + p_.latency[static_cast<int>(oc)];
    for (unsigned k = 0; k < in.ndst; ++k) {
      if (in.dst[k] == func::kNoReg) continue;
      ws.sb.reserve(in.dst[k]);
      wb_.push({at, slot, in.dst[k]});
    }
  }
  // Consume the I-buffer head; a control transfer (or a wait) empties the buffer.
  for (unsigned i = 1; i < ws.ib_count; ++i) ws.ib[i - 1] = ws.ib[i];
  --ws.ib_count;
  ws.control_flush = false;
  if (uc == ptx::UnitClass::kCtrl) ws.fetch_stop = false;
  // A warp that now waits at a barrier or has finished will not issue for a long time either
  // (two-level scheduling moves it out of its active set, as for a long-latency load).
  if (w.state != func::WarpState::kRunning) long_latency_issued_ = true;
  if (w.state == func::WarpState::kAtBarrier) {
    flush(ws, pc + kInstSize, false);  // resumes after the barrier once it releases
    return StallKind::kIssued;
  }
  const Pc next = hw.split.live == 0 ? pc : hw.split.pc;
  if (w.state != func::WarpState::kRunning ||
      (next != in.fallthrough() && !p_.fetch_past_control)) {
    // (With sm.fetch_past_control the entries after a taken branch or a reconvergence stay
    // until the warp's next visit finds its head at the wrong PC, below.)
    flush(ws, next, true);
  } else if (uc == ptx::UnitClass::kCtrl && ws.ib_count == 0 && !p_.fetch_past_control) {
    ws.fetch_pc = next;
  }
  update_fetch_bit(slot);
  check_done(slot, now);
  return StallKind::kIssued;
}

}  // namespace simtsync::sm

namespace simtsync::sm {

void Sm::emit_issue(int sched, int slot, const func::ExecInst& in, Pc pc,
                    const func::StepInfo& info, bool memory, Cycle now) {
  const WarpSlot& ws = slots_[static_cast<size_t>(slot)];
  IssueEvent e;
  e.now = now;
  e.sched = sched;
  e.slot = slot;
  e.cta_slot = ws.cta_slot;
  e.cta = ws.warp ? ws.warp->cta : -1;
  e.pc = pc;
  e.inst = &in;
  e.unit = ptx::opcode_unit(in.op);
  e.active = info.active;
  e.guard = info.guard;
  e.branch = info.branch;
  if (info.branch) {
    e.taken = info.guard;
    e.target = info.target;
    e.backward = info.target <= pc;
  }
  e.setp = info.setp;
  e.setp_a = info.setp_a;
  e.setp_b = info.setp_b;
  e.barrier_arrival = info.barrier_arrival;
  e.memory = memory;
  events_.deliver(e, &ISmObserver::on_issue);
}

}  // namespace simtsync::sm
