#include "simt/impl/lock_stack.h"

namespace simtsync::simt {

using Lock = ReconvergenceEntry::Lock;

int LockStack::find(Lock kind, int from) const {
  for (int i = from; i >= 0; --i)
    if (stack_[static_cast<size_t>(i)].lock == kind) return i;
  return -1;
}

bool LockStack::lock_sent(Pc pc) {
  ReconvergenceEntry& top = stack_.back();
  waiting_ = true;
  // A retry: the LR entry on top sends again from its lock instruction (sec. 4.1).
  if (top.lock == Lock::kRetry && top.pc == pc) return true;
  // The current entry waits at the lock; LR holds every thread that sent a request (Fig. 4.1a).
  ReconvergenceEntry lr{pc, kNoRpc, top.mask, false};
  lr.lock = Lock::kRetry;
  stack_.push_back(lr);
  ++lock_counter_;
  return true;
}

void LockStack::lock_replied(LaneMask acquired, Pc next) {
  waiting_ = false;
  ReconvergenceEntry& top = stack_.back();
  acquired &= top.mask;
  if (acquired == 0) return;  // nobody took it: the LR entry retries
  // The threads that took the lock run the critical section (Fig. 4.1b).
  ReconvergenceEntry l{next, kNoRpc, acquired, false};
  l.lock = Lock::kHeld;
  stack_.push_back(l);
}

bool LockStack::unlock(Pc next) {
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
      if (lr > 0) stack_[static_cast<size_t>(lr - 1)].pc = top.pc;
      stack_.pop_back();
      continue;
    }
    if (top.lock == Lock::kRetry) {
      if (top.mask != 0) break;  // the others retry the lock
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

}  // namespace simtsync::simt
