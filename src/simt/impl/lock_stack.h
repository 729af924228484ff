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
// Registered as `lock_stack` (reconvergence.def); the executor drives it from the lock
// instructions simtsync_lock/simtsync_unlock (workloads/include/simtsync.cuh).
#pragma once

#include <array>
#include <string>

#include "simt/impl/ipdom_stack.h"

namespace simtsync::simt {

class LockStack final : public IpdomStack, public LockHooks {
 public:
  LockStack(Pc start, LaneMask threads) : IpdomStack(start, threads), LockHooks(this) { publish(); }
  // Lock counter, queue and grant state beyond the entries.
  bool state_is_entries() const override { return false; }

  // Statistics (declare_lock_stack): lock_entry_pushes.
  void collect(std::span<std::uint64_t> out) const override { put_counters(out, {&pushes_, 1}); }
  std::string report_note() const override;
  // Threads whose lock requests wait in a partition's queue, and those granted but not yet
  // running their critical section (lock queuing).
  LaneMask parked() const { return parked_; }
  LaneMask granted() const { return granted_; }
  std::string name() const override { return "lock_stack"; }
  // LR entries on the stack (the per-warp lock counter of sec. 4.4).
  unsigned lock_counter() const { return lock_counter_; }
  unsigned unlock_counter(int lane) const { return unlocks_[static_cast<size_t>(lane)]; }

 protected:
  bool settle() override;
  // The stack's state; not ready while lock requests are out.
  SplitState current_state() const override {
    SplitState st = IpdomStack::current_state();
    st.ready = !waiting_;
    return st;
  }
  LockSend on_lock_sent(Pc pc) override;
  void on_lock_replied(LaneMask acquired, Pc next) override;
  void on_lock_granted(LaneMask replied, LaneMask acquired, Pc next) override;
  bool on_unlock_sent() override;
  bool on_unlock(Pc next) override;

 private:
  // Index of the topmost entry of `kind` at or below `from` (-1: none).
  int find(ReconvergenceEntry::Lock kind, int from) const;
  // Lock queuing: the granted threads start their critical section when the LR entry is on top.
  void push_granted();

  unsigned lock_counter_ = 0;
  bool waiting_ = false;                // lock requests are out: the warp is not ready
  std::uint64_t pushes_ = 0;            // L entries pushed
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
};

}  // namespace simtsync::simt
