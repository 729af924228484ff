#include "simt/impl/lock_stack.h"

#include <fmt/format.h>

#include <memory>

#include "config/plugin.h"
#include "simt/impl/lock_stack_spill.h"

namespace simtsync::simt {

using Lock = ReconvergenceEntry::Lock;

int LockStack::find(Lock kind, int from) {
  // A traversal from `from` down: every entry on the way is read.
  for (int i = from; i >= 0; --i)
    if (stack_[static_cast<size_t>(i)].lock == kind) {
      touch(i);
      return i;
    }
  touch(0);
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
  note_depth();
  return kLockFirst;
}

LockHooks::LockSend LockStack::on_try_lock_sent(Pc pc, unsigned attempts) {
  ReconvergenceEntry& top = stack_.back();
  waiting_ = true;
  ++counters_[kTryInsts];
  counters_[kTryRequests] += static_cast<std::uint64_t>(popcount(top.mask));
  if (top.lock == Lock::kTry && top.pc == pc) {
    ++counters_[kTryRetries];
    return kLockRetry;
  }
  // The current entry waits at the try-lock; TR holds the threads with attempts left.
  try_left_ = std::max(1u, attempts);
  ReconvergenceEntry tr{pc, kNoRpc, top.mask, false};
  tr.lock = Lock::kTry;
  stack_.push_back(tr);
  note_depth();
  return kLockFirst;
}

LaneMask LockStack::on_try_lock_replied(LaneMask acquired, Pc next) {
  waiting_ = false;
  ReconvergenceEntry& tr = stack_.back();
  if (tr.lock != Lock::kTry) return 0;
  acquired &= tr.mask;
  tr.mask &= ~acquired;
  for (int lane : lanes(acquired)) {
    auto& held = try_held_[static_cast<size_t>(lane)];
    if (held < kTryNest)
      try_depth_[static_cast<size_t>(lane)][held] =
          static_cast<std::uint8_t>(std::min(lock_counter_, 255u));
    held = static_cast<std::uint8_t>(std::min<unsigned>(held + 1u, 255u));
  }
  counters_[kTryAcquired] += static_cast<std::uint64_t>(popcount(acquired));
  if (try_left_ > 0) --try_left_;
  LaneMask failed = 0;
  if (try_left_ == 0 || tr.mask == 0) {
    // Out of attempts: the rest leave the retry mechanism with a failure (sec. 9.2.2), and the
    // warp goes on after the try-lock, every thread with its result.
    failed = tr.mask;
    counters_[kTryFailed] += static_cast<std::uint64_t>(popcount(failed));
    stack_.pop_back();
    stack_.back().pc = next;
    settle();
  }
  return failed;
}

bool LockStack::try_unlock(LaneMask m) const {
  // Every unlocking thread's innermost lock is a try-held one, taken inside as many blocking
  // locks as are held now (no blocking lock was taken after it).
  for (int lane : lanes(m)) {
    const unsigned h = try_held_[static_cast<size_t>(lane)];
    if (h == 0 || h > kTryNest || try_depth_[static_cast<size_t>(lane)][h - 1] != lock_counter_)
      return false;
  }
  return m != 0;
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
  ++counters_[kPushes];
  note_depth();
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
    ++counters_[kPushes];
    note_depth();
    waiting_ = false;
    return;
  }
  // Nothing granted: wait while requests are parked; otherwise the LR entry retries.
  waiting_ = (parked_ & top.mask) != 0;
}

bool LockStack::on_unlock_sent() {
  unlocking_try_ = try_unlock(stack_.back().mask);
  if (!unlocking_try_ && find(Lock::kHeld, static_cast<int>(stack_.size()) - 1) < 0) return false;
  waiting_ = true;
  return true;
}

bool LockStack::on_unlock(Pc next) {
  waiting_ = false;
  if (unlocking_try_) {
    // A try-held lock: no entry to retire; the threads go on like after any instruction.
    unlocking_try_ = false;
    for (int lane : lanes(stack_.back().mask)) --try_held_[static_cast<size_t>(lane)];
    stack_.back().pc = next;
    settle();
    return true;
  }
  const int tos = static_cast<int>(stack_.size()) - 1;
  const int l = find(Lock::kHeld, tos);
  const int lr = l < 0 ? -1 : find(Lock::kRetry, l);
  if (l < 0 || lr < 0) return false;
  const LaneMask m = stack_.back().mask;
  auto clear = [&](int i) {
    touch(i);
    stack_[static_cast<size_t>(i)].mask &= ~m;
  };
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
      touch(outer < 0 ? 0 : outer);
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
        touch(lr - 1);
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
    if (top.lock == Lock::kTry) break;   // try-lock attempts left: they retry
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
                                                const config::PluginParams& p) {
  const auto entries = static_cast<unsigned>(p.get_int("stack_entries"));
  if (entries == 0) return std::make_unique<LockStack>(start, threads);
  return make_spilling_lock_stack(start, threads, entries,
                                  static_cast<unsigned>(p.get_int("stack_entry_bytes")));
}
void declare_lock_stack(config::PluginDecl& d) {
  d.add_int("stack_entries", 32, 0, 1 << 20,
            "lock_stack: entries the hardware reconvergence stack holds per warp; entries "
            "beyond them are spilled to memory and filled back through the memory hierarchy "
            "(0: unbounded, never spilled)",
            "seed 004 sec. 7.3: the stack is sized for the divergence of every thread of a warp "
            "(32 entries for 32 threads), lock entries beyond it spill to memory; no existing "
            "workload goes deeper than 9 entries at test size, so nothing spills by default")
      .add_int("stack_entry_bytes", 16, 4, 128,
               "lock_stack: bytes one stack entry takes in memory when spilled (next PC, "
               "reconvergence PC, active mask, entry type)",
               "estimate: 4-byte PC, RPC and mask and a type word, as GPGPU-Sim's SIMT stack "
               "entry; the seed gives no size")
      .stat("lock_entry_pushes", "lock (L) entries pushed on the reconvergence stack")
      .stat("try_lock_instructions", "try-lock instructions issued (first tries and retries)")
      .stat("try_lock_attempts", "threads' try-lock requests sent (compare-and-swaps)")
      .stat("try_lock_acquired", "threads that acquired a lock with a try-lock")
      .stat("try_lock_failed",
            "threads whose try-lock failed (attempts spent): they took the alternate path")
      .stat("try_lock_retries", "try-lock retries from the try (TR) entry")
      .stat("stack_spills", "reconvergence-stack entries written to memory (finite stack)")
      .stat("stack_fills", "reconvergence-stack entries read back from memory (finite stack)")
      .stat("stack_memory_bytes", "bytes of stack spill and fill traffic")
      .stat("stack_fill_stall_cycles", "cycles warps waited for stack fills")
      .stat("stack_max_depth", "the deepest reconvergence stack (entries) any warp reached",
            StatSum::kMax)
      .ratio("try_lock_success_rate", "try_lock_acquired", "try_lock_attempts",
             "share of try-lock requests that acquired the lock");
}

}  // namespace simtsync::simt
