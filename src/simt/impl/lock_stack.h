// The IPDOM stack with lock semantics of seed 004 ch. 4: `lock` and `unlock` instructions push
// and retire lock-retry (LR) and lock (L) entries so that a textbook critical section runs under
// SIMT. `lock` at A pushes LR{A, mask of the senders} (a retry from an LR already on top at A
// pushes nothing); the replies push L{next, acquired} when any lane took the lock, else the LR
// entry makes the rest retry. `unlock` takes the unlocking lanes out of the lock entries and
// sends them on past the unlock; an L entry that empties pops and hands its PC to the entry
// below its LR (where the warp continues once everyone is through); an LR entry that empties
// pops. Divergence inside a critical section (sec. 4.3) works because unlock never pops the top
// entry itself; nested locks (sec. 4.4) use a per-warp lock counter (LR entries on the stack)
// and per-thread unlock counters.
//
// Lock queuing (seed 004 sec. 5.2, 6.3): a request for a held lock waits in the memory
// partition, so grants come lane by lane and never fail. A grant that arrives while the warp is
// outside the critical section pushes an L entry at once; one that arrives inside it is kept
// and pushed when the L entry pops; threads whose requests are still parked are never retried:
// the warp waits for their grants instead.
//
// Try-locks (seed 004 sec. 9.2.2, future work there): `try_lock` at A with a bound of n attempts
// pushes a try entry TR{A, senders}; each reply takes the threads that acquired out of it (they
// wait below it, holding the lock) and, once n attempts are spent, the rest too: they fail.
// With nobody left in TR it pops and the whole warp goes on after the try-lock, where the
// program branches on the result (the alternate path for the failed threads). A failed thread
// never enters the retry mechanism again and no L entry is pushed: a try-held lock is released
// by an unlock that, for those threads, is an ordinary instruction (per-thread try-hold
// counters say which lock an unlock releases: a try-held lock taken inside the innermost
// blocking lock, or a blocking one).
//
// A finite stack (`stack_entries`, 32 by default; seed 004 sec. 7.3: "overflow being handled by
// spilling the stack to memory") is lock_stack_spill.h, which derives from this class (0: this
// class alone, unbounded); find() and the
// entries the lock rules change report which entries below the top they touched (touched()).
//
// Registered as `lock_stack` (reconvergence.def); the executor drives it from the lock
// instructions simtsync_lock/simtsync_unlock/simtsync_try_lock (workloads/include/simtsync.cuh).
#pragma once

#include <array>
#include <string>

#include "simt/impl/ipdom_stack.h"

namespace simtsync::simt {

class LockStack : public IpdomStack, public LockHooks {
 public:
  LockStack(Pc start, LaneMask threads) : IpdomStack(start, threads), LockHooks(this) { publish(); }
  // Lock counter, queue and grant state beyond the entries.
  bool state_is_entries() const override { return false; }

  // Statistics, in declare_lock_stack's order.
  enum Counter : unsigned {
    kPushes,       // L entries pushed
    kTryInsts,     // try-lock instructions issued (first tries and retries)
    kTryRequests,  // lanes' try-lock requests (compare-and-swaps sent)
    kTryAcquired,  // threads that acquired with a try-lock
    kTryFailed,    // threads whose try-lock failed (attempts spent)
    kTryRetries,   // try-lock retries from the TR entry
    kSpills,       // entries written to memory (finite stack)
    kFills,        // entries read back from memory
    kStackBytes,   // bytes of spill and fill traffic
    kFillStall,    // cycles the warp waited for fills
    kMaxDepth,     // deepest stack (entries), summed as a maximum
    kNumCounters
  };
  void collect(std::span<std::uint64_t> out) const override { put_counters(out, counters_); }
  std::string report_note() const override;
  // Threads whose lock requests wait in a partition's queue, and those granted but not yet
  // running their critical section (lock queuing).
  LaneMask parked() const { return parked_; }
  LaneMask granted() const { return granted_; }
  std::string name() const override { return "lock_stack"; }
  // LR entries on the stack (the per-warp lock counter of sec. 4.4).
  unsigned lock_counter() const { return lock_counter_; }
  unsigned unlock_counter(int lane) const { return unlocks_[static_cast<size_t>(lane)]; }
  // Locks a thread holds from try-locks.
  unsigned try_held(int lane) const { return try_held_[static_cast<size_t>(lane)]; }
  std::uint64_t counter(Counter c) const { return counters_[c]; }

 protected:
  bool settle() override;
  void on_branch(const BranchOutcome& b) override {
    IpdomStack::on_branch(b);
    note_depth();
  }
  void on_call(Pc entry, Pc return_pc) override {
    IpdomStack::on_call(entry, return_pc);
    note_depth();
  }
  void note_depth() {
    if (stack_.size() > counters_[kMaxDepth]) counters_[kMaxDepth] = stack_.size();
  }
  // The stack's state; not ready while lock requests are out.
  SplitState current_state() const override {
    SplitState st = IpdomStack::current_state();
    st.ready = !waiting_;
    return st;
  }
  LockSend on_lock_sent(Pc pc) override;
  void on_lock_replied(LaneMask acquired, Pc next) override;
  void on_lock_granted(LaneMask replied, LaneMask acquired, Pc next) override;
  LockSend on_try_lock_sent(Pc pc, unsigned attempts) override;
  LaneMask on_try_lock_replied(LaneMask acquired, Pc next) override;
  bool on_unlock_sent() override;
  bool on_unlock(Pc next) override;

  // Entries below the top the lock rules read or changed since the last take_touched() (the
  // finite stack charges a memory access for each one that lives in memory).
  void touch(int i) {
    if (i >= 0 && i < touched_low_) touched_low_ = i;
  }
  int take_touched() {
    const int t = touched_low_;
    touched_low_ = kUntouched;
    return t;
  }
  static constexpr int kUntouched = 1 << 30;
  std::array<std::uint64_t, kNumCounters> counters_{};

 private:
  // Index of the topmost entry of `kind` at or below `from` (-1: none).
  int find(ReconvergenceEntry::Lock kind, int from);
  // Lock queuing: the granted threads start their critical section when the LR entry is on top.
  void push_granted();

  // Lanes that hold try-locks: their innermost try-held lock was taken at lock-counter depth d.
  bool try_unlock(LaneMask m) const;
  static constexpr unsigned kTryNest = 4;  // try-held locks per thread at once

  unsigned lock_counter_ = 0;
  bool waiting_ = false;  // lock requests are out: the warp is not ready
  int touched_low_ = kUntouched;
  unsigned try_left_ = 0;       // attempts left to the try-lock in progress (TR on top)
  bool unlocking_try_ = false;  // the unlock in flight releases try-held locks
  // The last hand-over of a popped L entry's PC to an ordinary entry with an RPC (depth, the
  // PC handed over, that entry's RPC): Example 12 of sec. 4.5 when the PC lies past the RPC.
  struct Handoff {
    std::size_t depth = 0;
    Pc pc = 0, rpc = 0;
  } handoff_;
  LaneMask parked_ = 0;                 // lock queuing: requests not granted yet
  LaneMask granted_ = 0;                // lock queuing: granted, L entry not pushed yet
  Pc granted_next_ = 0;                 // where granted threads start (after the lock)
  std::array<unsigned, 64> unlocks_{};  // per-thread unlock counters (warps of up to 64)
  std::array<std::uint8_t, 64> try_held_{};                         // per-thread try-held locks
  std::array<std::array<std::uint8_t, kTryNest>, 64> try_depth_{};  // lock_counter_ at each
};

}  // namespace simtsync::simt
