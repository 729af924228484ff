// The micro-operations of a shared atomic's retry loop (atomic_loop.h): the loop's own part of
// the issue stage. Sm::try_issue hands a slot whose loop is running here.
#include "timing/sm/sm.h"

namespace simtsync::sm {

StallKind Sm::issue_atomic_step(int slot, Cycle now) {
  // One micro-operation of a shared atomic's retry loop (seed 001 Listings 1 and 3): per round
  // LDSLK (the lanes still trying), the modify step(s) (`cas`: compare and select; the others:
  // one operation), STSUL (the lanes that took their bit) and the branch back; the modify and
  // STSUL are predicated on the LDSLK's result, so they issue even when no lane took a bit.
  using Step = AtomicLoop::Step;
  WarpSlot& ws = slots_[static_cast<size_t>(slot)];
  AtomicLoop& lp = atomic_loops_[static_cast<size_t>(slot)];
  if (lp.step == Step::kWait) {
    blocked_ |= std::uint64_t{1} << slot;  // the LDSLK's data clears it (finish_access)
    return StallKind::kData;
  }
  if (lp.ready > now) return StallKind::kData;
  const func::ExecInst& in = *lp.acc->inst;
  const bool float_op = ptx::dtype_is_float(in.a.type);
  const OpClass oc = lp.step == Step::kModify ? (float_op ? OpClass::kFp : OpClass::kInt)
                     : lp.step == Step::kStore || lp.step == Step::kLoad ? OpClass::kMem
                                                                         : OpClass::kCtrl;
  const UnitKind uk = oc == OpClass::kMem ? UnitKind::kLdst : UnitKind::kSp;
  Cycle* pipe = free_pipe(uk, now);
  if (!pipe) return StallKind::kStructural;
  if (lp.step == Step::kStore && !shared_.can_accept(now)) return StallKind::kStructural;
  if (lp.step == Step::kLoad && ldst_queue_.size() >= p_.ldst_queue) {
    ldst_blocked_ |= std::uint64_t{1} << slot;
    return StallKind::kStructural;
  }
  occupy(pipe, oc, uk, now);
  ++stats_.atomic_uops;
  ++ws.issued;
  switch (lp.step) {
    case Step::kModify:
      // `cas` compares, then selects: two dependent operations.
      lp.ready = now + p_.latency[static_cast<int>(oc)];
      lp.cas_second = in.a.op == ptx::Mod::kCasOp && !lp.cas_second;
      lp.step = lp.cas_second ? Step::kModify : Step::kStore;
      break;
    case Step::kStore:
      shared_.accept_stsul(*lp.acc, lp.winners, now);
      lp.step = Step::kBranch;
      lp.ready = now + 1;
      break;
    case Step::kBranch:
      lp.ready = now + p_.latency[static_cast<int>(OpClass::kCtrl)];
      if (lp.remaining == 0) {
        // Every lane is done: the atomic completes (its result registers are ready).
        func::MemAccess* acc = lp.acc;
        lp = {};
        loop_slots_ &= ~(std::uint64_t{1} << slot);
        finish_access(slot, acc, now);
        return StallKind::kIssued;
      }
      lp.step = Step::kLoad;
      break;
    case Step::kLoad:
      ldst_queue_.push_back({slot, lp.acc});
      lp.step = Step::kWait;
      break;
    case Step::kWait:
      break;
  }
  note_slot_ready(slot, lp.ready);
  return StallKind::kIssued;
}

}  // namespace simtsync::sm
