#include "simt/impl/lock_stack.h"

#include <fmt/format.h>

#include <memory>

#include "config/plugin.h"

namespace simtsync::simt {

using Lock = ReconvergenceEntry::Lock;

int LockStack::find(Lock kind, int from) const {
  for (int i = from; i >= 0; --i)
    if (stack_[static_cast<size_t>(i)].lock == kind) return i;
  return -1;
}

LockHooks::LockSend LockStack::on_lock_sent(Pc pc) {
  ReconvergenceEntry& top = stack_.back();
  // Lock queuing grants an outer lock lane by lane: with some of its requests still queued (or
  // granted and waiting to run), a nested lock by the lanes running now can wait for a lock
  // held by one of those warp-mates, which cannot run until these are through.
  if ((parked_ | granted_) != 0 && !(top.lock == Lock::kRetry && top.pc == pc))
    return kLockNestedQueued;
  waiting_ = true;
  parked_ = top.mask;
  // A retry: the LR entry on top sends again from its lock instruction (sec. 4.1).
  if (top.lock == Lock::kRetry && top.pc == pc) return kLockRetry;
  // The current entry waits at the lock; LR holds every thread that sent a request (Fig. 4.1a).
  ReconvergenceEntry lr{pc, kNoRpc, top.mask, false};
  lr.lock = Lock::kRetry;
  stack_.push_back(lr);
  ++lock_counter_;
  return kLockFirst;
}

void LockStack::on_lock_replied(LaneMask acquired, Pc next) {
  waiting_ = false;
  parked_ = 0;
  ReconvergenceEntry& top = stack_.back();
  acquired &= top.mask;
  if (acquired == 0) return;  // nobody took it: the LR entry retries
  // The threads that took the lock run the critical section (Fig. 4.1b).
  ReconvergenceEntry l{next, kNoRpc, acquired, false};
  l.lock = Lock::kHeld;
  stack_.push_back(l);
  ++pushes_;
}

void LockStack::on_lock_granted(LaneMask replied, LaneMask acquired, Pc next) {
  replied &= parked_;
  parked_ &= ~replied;
  granted_ |= acquired & replied;  // the others were turned away (a full queue): they retry
  granted_next_ = next;
  // Outside the critical section (the LR entry on top, waiting): they start it now. Inside it,
  // they wait until its L entry pops (sec. 6.3).
  if (stack_.back().lock == Lock::kRetry) push_granted();
}

void LockStack::push_granted() {
  ReconvergenceEntry& top = stack_.back();
  const LaneMask run = granted_ & top.mask;
  if (run != 0) {
    granted_ &= ~run;
    ReconvergenceEntry l{granted_next_, kNoRpc, run, false};
    l.lock = Lock::kHeld;
    stack_.push_back(l);
    ++pushes_;
    waiting_ = false;
    return;
  }
  // Nothing granted: wait while requests are parked; otherwise the LR entry retries.
  waiting_ = (parked_ & top.mask) != 0;
}

bool LockStack::on_unlock_sent() {
  if (find(Lock::kHeld, static_cast<int>(stack_.size()) - 1) < 0) return false;
  waiting_ = true;
  return true;
}

bool LockStack::on_unlock(Pc next) {
  waiting_ = false;
  const int tos = static_cast<int>(stack_.size()) - 1;
  const int l = find(Lock::kHeld, tos);
  const int lr = l < 0 ? -1 : find(Lock::kRetry, l);
  if (l < 0 || lr < 0) return false;
  const LaneMask m = stack_.back().mask;
  auto clear = [&](int i) { stack_[static_cast<size_t>(i)].mask &= ~m; };
  if (lock_counter_ <= 1) {
    // One lock (sec. 4.2, 4.3): the unlocking threads leave the L and LR entries; the top entry
    // goes on past the unlock (a divergent entry above L is not popped: it runs to its RPC).
    clear(l);
    clear(lr);
  } else {
    // Nested locks (sec. 4.4). The unlocking threads' count of unlocks says which lock this is.
    unsigned u = 0;
    for (int lane : lanes(m)) u = std::max(u, ++unlocks_[static_cast<size_t>(lane)]);
    if (u == 1) {
      // The innermost lock: only its LR entry loses them; L keeps running them (Fig. 4.4c).
      clear(find(Lock::kRetry, tos));
    } else {
      // An outer lock at nesting depth lock_counter - u: every entry from its LR up to the
      // topmost LR loses them (they have run the code in between, Fig. 4.4e); at depth 0 the
      // last lock is released and the topmost L loses them too.
      const unsigned depth = u >= lock_counter_ ? 0 : lock_counter_ - u;
      int outer = -1;
      unsigned seen = 0;
      for (int i = 0; i <= tos && outer < 0; ++i)
        if (stack_[static_cast<size_t>(i)].lock == Lock::kRetry && seen++ == depth) outer = i;
      const int top_lr = find(Lock::kRetry, tos);
      for (int i = outer < 0 ? top_lr : outer; i <= top_lr; ++i) clear(i);
      if (depth == 0) {
        clear(l);
        for (int lane : lanes(m)) unlocks_[static_cast<size_t>(lane)] = 0;
      }
    }
  }
  stack_.back().pc = next;
  settle();
  return true;
}

bool LockStack::settle() {
  for (;;) {
    if (stack_.size() <= 1) break;
    ReconvergenceEntry& top = stack_.back();
    if (top.lock == Lock::kHeld && top.mask == 0) {
      // Every holder is through: the entry below its LR continues where the L entry was.
      const int lr = find(Lock::kRetry, static_cast<int>(stack_.size()) - 2);
      if (lr > 0) {
        ReconvergenceEntry& below = stack_[static_cast<size_t>(lr - 1)];
        below.pc = top.pc;
        if (below.lock == Lock::kNone && below.rpc < kNoRpc && below.rpc != kExitPc)
          handoff_ = {static_cast<std::size_t>(lr - 1), top.pc, below.rpc};
      }
      stack_.pop_back();
      continue;
    }
    if (top.lock == Lock::kRetry) {
      if (top.mask != 0) {
        // The others retry the lock, or, with queuing, wait for (or start on) their grants.
        if ((parked_ | granted_) & top.mask) push_granted();
        break;
      }
      stack_.pop_back();
      if (lock_counter_ > 0) --lock_counter_;
      continue;
    }
    if (top.lock == Lock::kHeld) break;  // holders run; reconvergence never pops L
    // Ordinary entries: the IPDOM rules, one step, then look again.
    const std::size_t before = stack_.size();
    const bool returned = IpdomStack::settle();
    if (returned) return true;
    if (stack_.size() == before) break;
  }
  return false;
}

std::string LockStack::report_note() const {
  // Still on the stack, still short of its RPC, and handed a PC past it: it cannot reconverge.
  if (handoff_.pc == 0 || handoff_.depth >= stack_.size()) return "";
  const ReconvergenceEntry& e = stack_[handoff_.depth];
  if (e.rpc != handoff_.rpc || e.lock != Lock::kNone || handoff_.pc <= handoff_.rpc) return "";
  return fmt::format(
      "an unlock sent threads {:#010x} on at PC {:#x}, past their entry's reconvergence point "
      "{:#x}: the entry cannot pop and the threads below it cannot run (a branch outside the "
      "critical section reconverging inside it, seed 004 sec. 4.5 Example 12)",
      e.mask, handoff_.pc, handoff_.rpc);
}

std::unique_ptr<IReconvergence> make_lock_stack(Pc start, LaneMask threads,
                                                const config::PluginParams&) {
  return std::make_unique<LockStack>(start, threads);
}
void declare_lock_stack(config::PluginDecl& d) {
  d.stat("lock_entry_pushes", "lock (L) entries pushed on the reconvergence stack");
}

}  // namespace simtsync::simt
