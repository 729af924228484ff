// The lock stack with a finite hardware stack (seed 004 sec. 7.3: "the depth of the stack would
// need to be increased with overflow being handled by spilling the stack to memory"). The
// hardware holds the top `entries` entries of the warp's stack; the entries below them live in
// memory, in the warp's reserved area (UnitRequest::kUnitAreaBytes), written and read through
// the memory hierarchy like instruction fills (TimedHooks):
// - a push past `entries` spills the lowest hardware entry (a write; the warp does not wait);
// - pops that empty the hardware part fill the new top (a read; the warp waits for it);
// - the lock rules reach below the top (unlock clears the lock-retry and lock entries and hands
//   the PC to the entry below the lock-retry entry, sec. 4.2-4.4): a traversal into the memory
//   part reads every entry from the deepest one touched up to the hardware part (the warp
//   waits) and writes back those that stay in memory.
// The stack's contents are exact at all times (LockStack); what lives where only costs time.
// Threads that exit are cleared from every entry; a spilled entry is corrected as it is read
// back (it is ANDed with the live mask), at no extra cost.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "simt/impl/lock_stack.h"

namespace simtsync::simt {

class SpillingLockStack final : public LockStack, public TimedHooks {
 public:
  SpillingLockStack(Pc start, LaneMask threads, unsigned entries, unsigned entry_bytes);
  std::string report_note() const override;
  // Entries held in memory (the bottom of the stack) and reads still out.
  std::size_t in_memory() const { return base_; }
  unsigned fills_out() const { return fills_out_; }
  Cycle next_event(Cycle) const override { return kNever; }
  bool keeps_time() const override { return false; }
  std::vector<ReconvergenceEntry> entries() const override {
    std::vector<ReconvergenceEntry> e = LockStack::entries();
    for (std::size_t i = 0; i < base_ && i < e.size(); ++i) e[i].spilled = true;
    return e;
  }

 protected:
  SplitState current_state() const override {
    SplitState st = LockStack::current_state();
    st.ready = st.ready && fills_out_ == 0;
    // Ticked only with requests to send or a finished wait to note, not every cycle.
    st.tick = out_head_ < out_.size() || wait_over_;
    return st;
  }
  void on_advance(Pc next_pc) override {
    LockStack::on_advance(next_pc);
    account();
  }
  void on_branch(const BranchOutcome& b) override {
    LockStack::on_branch(b);
    account();
  }
  void on_call(Pc entry, Pc return_pc) override {
    LockStack::on_call(entry, return_pc);
    account();
  }
  bool on_ret() override {
    const bool whole = LockStack::on_ret();
    account();
    return whole;
  }
  void on_exit(LaneMask lanes) override {
    LockStack::on_exit(lanes);
    account();
  }
  LockSend on_lock_sent(Pc pc) override {
    const LockSend s = LockStack::on_lock_sent(pc);
    account();
    return s;
  }
  void on_lock_replied(LaneMask acquired, Pc next) override {
    LockStack::on_lock_replied(acquired, next);
    account();
  }
  void on_lock_granted(LaneMask replied, LaneMask acquired, Pc next) override {
    LockStack::on_lock_granted(replied, acquired, next);
    account();
  }
  LockSend on_try_lock_sent(Pc pc, unsigned attempts) override {
    const LockSend s = LockStack::on_try_lock_sent(pc, attempts);
    account();
    return s;
  }
  LaneMask on_try_lock_replied(LaneMask acquired, Pc next) override {
    const LaneMask failed = LockStack::on_try_lock_replied(acquired, next);
    account();
    return failed;
  }
  bool on_unlock_sent() override {
    const bool held = LockStack::on_unlock_sent();
    account();
    return held;
  }
  bool on_unlock(Pc next) override {
    const bool done = LockStack::on_unlock(next);
    account();
    return done;
  }
  void on_tick(Cycle now) override;
  bool on_pop_request(UnitRequest& out) override;
  void on_request_sent(std::uint64_t) override {}
  void on_memory_reply(const MemoryReply& r) override;

 private:
  // After every change: charge the traversal of the memory part, fill an empty hardware part,
  // spill what no longer fits.
  void account();
  void send(std::size_t index, bool write);

  unsigned entries_;
  unsigned entry_bytes_;
  std::size_t base_ = 0;  // entries [0, base_) live in memory
  unsigned fills_out_ = 0;
  std::vector<UnitRequest> out_;
  std::size_t out_head_ = 0;
  std::uint64_t next_tag_ = 0;
  Cycle wait_start_ = kNever;  // cycle the warp began waiting for fills
  bool wait_over_ = false;     // the fills are back: the wait ends at the next tick
};

std::unique_ptr<IReconvergence> make_spilling_lock_stack(Pc start, LaneMask threads,
                                                         unsigned entries, unsigned entry_bytes);

}  // namespace simtsync::simt
