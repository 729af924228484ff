// LD/ST unit: memory instructions wait here in issue order. Shared-memory accesses are served
// by the SM's shared-memory unit (banks, lock unit) and take effect when it accepts them;
// kernel parameters go through the constant cache like constant loads (or, resident, take the
// constant-cache latency), a callee's parameters that latency; global, local and constant
// accesses go through the memory port (coalescer, caches, interconnect, partitions),
// which may refuse (back-pressure) and decides when they take effect.
#include <algorithm>
#include <bit>

#include "timing/sm/sm.h"

namespace simtsync::sm {
namespace {

// Accesses that must see the point of coherence skip L1: .volatile, .cg/.cv, and acquire or
// relaxed accesses at gpu or system scope.
bool bypasses_l1(const func::ExecInst& in) {
  if (in.a.volatile_) return true;
  if (in.ir)
    for (ptx::Mod m : in.ir->mods)
      if (m == ptx::Mod::kCg || m == ptx::Mod::kCv) return true;
  return in.a.sem.has_value() && in.a.scope.has_value() && *in.a.scope != ptx::Mod::kCta;
}

}  // namespace

void Sm::pop_ldst() {
  ldst_waiting_ &= ~(std::uint64_t{1} << ldst_queue_.front().slot);  // its access was performed
  ldst_queue_.erase(ldst_queue_.begin());
  ldst_blocked_ = 0;
}

void Sm::ldst(Cycle now) {
  for (size_t i = 0; i < shared_pending_.size();) {
    if (shared_pending_[i].at <= now) {
      const SharedPending sp = shared_pending_[i];
      shared_pending_.erase(shared_pending_.begin() + static_cast<std::ptrdiff_t>(i));
      finish_access(sp.slot, sp.access, now);
    } else {
      ++i;
    }
  }
  // Instruction-cache fills go first: a warp without instructions cannot issue at all.
  if (!ifill_queue_.empty()) {
    mem::MemRequest f;
    f.kind = mem::ReqKind::kLoad;
    f.space = mem::ReqSpace::kInst;
    f.sm = id_;
    f.warp_slot = -1;
    f.first_address = ifill_queue_.front();
    f.issued = now;
    if (!port_.try_send(f, now)) {
      ldst_refused_ = true;
      ldst_retry_at_ = port_.retry_at(id_, now);
      return;
    }
    ldst_refused_ = false;
    ifill_inflight_.push_back(ifill_queue_.front());
    ifill_queue_.erase(ifill_queue_.begin());
  }
  // Then the reconvergence units' own traffic (table spills and fills).
  if (!unit_queue_.empty()) {
    if (!port_.try_send(unit_queue_.front(), now)) {
      ldst_refused_ = true;
      ldst_retry_at_ = port_.retry_at(id_, now);
      return;
    }
    ldst_refused_ = false;
    // The request has left: its unit frees what held it (a spill-request buffer).
    if (simt::TimedHooks* unit = request_unit(unit_queue_.front()))
      unit->request_sent(unit_queue_.front().unit_tag);
    unit_queue_.erase(unit_queue_.begin());
  }
  if (ldst_queue_.empty()) return;
  const LdstEntry e = ldst_queue_.front();
  func::MemAccess& acc = *e.access;
  func::Warp& w = *slots_[static_cast<size_t>(e.slot)].warp;
  const func::ExecInst& in = *acc.inst;
  const auto space = static_cast<ptx::Space>(acc.space[func::first_lane(acc.mask)]);
  const bool atomic = in.op == ptx::Opcode::kAtom || in.op == ptx::Opcode::kRed;
  // The shared-memory unit takes an access whose lanes are all in shared memory; a generic
  // access whose lanes span shared and global memory goes to the memory side whole (only the
  // memory side performs global lanes, so the SM phase never writes global memory).
  if (space == ptx::Space::kShared && func::all_lanes_shared(acc)) {
    if (!shared_.can_accept(now)) return;
    const Cycle before = shared_.stats().conflict_cycles;
    AtomicLoop& lp = atomic_loops_[static_cast<size_t>(e.slot)];
    if (lp.acc == e.access) {
      // An LDSLK round of a shared atomic's retry loop: the lanes that take their lock bit
      // perform their read-modify-write now (the bit keeps the word theirs until their STSUL).
      const bool first = lp.remaining == acc.mask;
      std::uint64_t won = 0;
      const Cycle done = shared_.accept_ldslk(acc, lp.remaining, first, &won, now);
      ex_.perform(w, acc, won, first);
      lp.winners = won;
      lp.remaining &= ~won;
      ++stats_.atomic_rounds;
      stats_.shared_conflict_cycles += shared_.stats().conflict_cycles - before;
      shared_pending_.push_back({done, e.slot, e.access});
      pop_ldst();
      return;
    }
    ex_.perform(w, acc);  // the shared-memory unit is the serialization point
    const Cycle done = shared_.accept(acc, atomic, now);
    stats_.shared_conflict_cycles += shared_.stats().conflict_cycles - before;
    shared_pending_.push_back({done, e.slot, e.access});
    pop_ldst();
    return;
  }
  // A callee's parameters are in its frame; a kernel's are in constant bank 0, read through
  // the constant cache (mem.const_cache.kernel_params = cached) or always resident.
  const bool kernel_param =
      in.a.space == ptx::Space::kParam && in.mem.base != func::MemRef::Base::kFrame;
  if (in.a.space == ptx::Space::kParam && !(kernel_param && p_.kernel_params_cached)) {
    ex_.perform(w, acc);
    shared_pending_.push_back({now + p_.const_latency, e.slot, e.access});
    pop_ldst();
    return;
  }
  mem::MemRequest r;
  r.kind = atomic                      ? mem::ReqKind::kAtomic
           : in.op == ptx::Opcode::kSt ? mem::ReqKind::kStore
                                       : mem::ReqKind::kLoad;
  r.sm = id_;
  r.warp_slot = e.slot;
  r.access = e.access;
  r.issued = now;
  r.space = in.a.space == ptx::Space::kConst || kernel_param ? mem::ReqSpace::kConst
            : space == ptx::Space::kLocal                    ? mem::ReqSpace::kLocal
                                                             : mem::ReqSpace::kGlobal;
  r.bypass_l1 = bypasses_l1(in);
  if (!port_.try_send(r, now)) {
    ++stats_.memory_refusals;
    // Retried after the next memory response wakes this SM, or when the port says it can
    // take it (its coalescer is still busy with the previous request).
    ldst_refused_ = true;
    ldst_retry_at_ = port_.retry_at(id_, now);
    return;
  }
  ldst_refused_ = false;
  pop_ldst();
}

}  // namespace simtsync::sm
