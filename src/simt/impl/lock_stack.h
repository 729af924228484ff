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
// Not yet wired to instructions: the decoder has no lock/unlock intrinsics and the unit is not
// in reconvergence.def (issue 18); the unit tests drive it through IReconvergence.
#pragma once

#include <array>

#include "simt/impl/ipdom_stack.h"

namespace simtsync::simt {

class LockStack final : public IpdomStack {
 public:
  LockStack(Pc start, LaneMask threads) : IpdomStack(start, threads) {}

  bool lock_sent(Pc pc) override;
  void lock_replied(LaneMask acquired, Pc next) override;
  bool unlock(Pc next) override;
  bool ready() const override { return !waiting_; }
  std::string name() const override { return "lock_stack"; }
  // LR entries on the stack (the per-warp lock counter of sec. 4.4).
  unsigned lock_counter() const { return lock_counter_; }
  unsigned unlock_counter(int lane) const { return unlocks_[static_cast<size_t>(lane)]; }

 protected:
  bool settle() override;

 private:
  // Index of the topmost entry of `kind` at or below `from` (-1: none).
  int find(ReconvergenceEntry::Lock kind, int from) const;

  unsigned lock_counter_ = 0;
  bool waiting_ = false;                // lock requests are out: the warp is not ready
  std::array<unsigned, 64> unlocks_{};  // per-thread unlock counters (warps of up to 64)
};

}  // namespace simtsync::simt
