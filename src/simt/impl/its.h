// Independent thread scheduling (NVIDIA Volta and later): every thread has its own program
// counter and call context; the warp runs one group at a time, the live, unblocked threads that
// share a PC and a call context. Nothing ties a thread to its warp-mates' progress, so a thread
// spinning on a lock its warp-mate holds cannot keep that warp-mate from running (seed 003
// sec. II, seed 004 Example 4 deadlock a stack, not this unit).
//
// Scheduling (docs/reconvergence.md, "its"): the chosen group runs greedily; it yields when it
// diverges, takes a backward branch, blocks (barrier, warp sync, a return that waits for the
// rest of its call) or reaches the reconvergence point of a divergent branch it took while
// threads that took the same branch have not arrived there (it parks so that they can catch
// up). At a yield the unit picks: a group one of whose threads has waited `starvation_limit`
// decisions or more (the longest waiting first: forward progress for every thread), else the
// unparked group at the lowest PC (lagging threads catch up, groups at one PC merge), else the
// parked group at the lowest PC. Deterministic: ties go to the group with the lowest lane.
//
// Calls: each call is a record (the threads that entered it, the return PC, the caller's
// record). Threads in different records never merge, whatever their PC. A thread that returns
// waits at the function's exit until every live thread of its call has returned; then all of
// them resume together in the caller (ret() is true once, for the last returning group), which
// is what the executor's per-call frames expect.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "simt/i_reconvergence.h"

namespace simtsync::simt {

class Its final : public IReconvergence {
 public:
  static constexpr unsigned kDefaultStarvationLimit = 16;

  Its(Pc start, LaneMask threads, unsigned starvation_limit = kDefaultStarvationLimit);

  bool barrier_complete() const override {
    return live_ != 0 && bar_ != 0 && (bar_ & live_) == live_;
  }
  LaneMask call_mask() const override;
  std::vector<ReconvergenceEntry> entries() const override;
  std::string name() const override { return "its"; }
  // Statistics, in the order declare_its declares them.
  enum Stat : unsigned { kSplits, kReconverged, kFifoSwitches, kStatCount };
  void collect(std::span<std::uint64_t> out) const override { put_counters(out, counters_); }

  // For tests and reports: the call depth of a thread (0: kernel level), the scheduling
  // decisions taken so far, the threads blocked at a barrier, held at a warp sync, or waiting
  // for the rest of their call to return.
  unsigned depth(unsigned lane) const;
  Pc thread_pc(unsigned lane) const { return th_[lane].pc; }
  std::uint64_t decisions() const { return decisions_; }
  LaneMask at_barrier() const { return bar_ & live_; }
  LaneMask held() const { return sync_ & live_; }
  LaneMask returned() const { return ret_ & live_; }

 protected:
  void on_advance(Pc next_pc) override;
  void on_branch(const BranchOutcome& b) override;
  void on_call(Pc entry, Pc return_pc) override;
  bool on_ret() override;
  void on_exit(LaneMask lanes) override;
  LaneMask on_barrier_arrive(LaneMask arriving) override;
  void on_barrier_release() override;
  bool on_warp_sync(LaneMask members) override;
  SplitState current_state() const override {
    SplitState st;
    st.pc = pc_;
    st.active = active_;
    st.live = live_;
    return st;
  }

 private:
  // A reconvergence point a thread may wait at: the immediate post-dominator of a divergent
  // branch it took, in the call context of that branch.
  struct Join {
    Pc pc = 0;
    std::uint32_t ctx = 0;
    bool operator==(const Join&) const = default;
  };
  struct Thread {
    Pc pc = 0;
    std::uint32_t ctx = 0;     // call record (0: kernel level)
    LaneMask sync_need = 0;    // held at a warp sync: the members it waits for
    bool sync_pass = false;    // its warp sync completed while it was held: run it once
    std::uint64_t waited = 0;  // decisions since it last ran
    std::vector<Join> joins;   // innermost last
  };
  struct Call {
    std::uint32_t parent = 0;
    Pc return_pc = 0;
    LaneMask mask = 0;  // threads that entered
    LaneMask returned = 0;
    bool used = false;
  };
  struct Group {
    Pc pc = 0;
    std::uint32_t ctx = 0;
    LaneMask mask = 0;
    std::uint64_t waited = 0;
  };
  static constexpr std::size_t kMaxJoins = 16;

  LaneMask runnable() const { return live_ & ~bar_ & ~sync_ & ~ret_; }
  // Runnable threads at (pc, ctx).
  LaneMask runnable_at(Pc pc, std::uint32_t ctx) const;
  // Threads of `g` (all at pc, ctx) that reached a join other threads of the same branch have
  // not reached yet.
  bool parked(Pc pc, std::uint32_t ctx, LaneMask g) const;
  void pop_joins(Pc pc, std::uint32_t ctx, LaneMask g);
  std::vector<Group> groups(LaneMask m) const;
  // After a report: the running group goes on (merging threads that wait at its PC) unless it
  // must yield or is gone; then a new group is chosen.
  void settle(bool yield);
  void choose();
  // Names a blocked group when nothing can run (every live thread waits): the executor then
  // re-executes its instruction, which completes a barrier arrival or finds the deadlock.
  void name_blocked();
  void complete_call(std::uint32_t c);
  // Calls whose live threads have all returned after exits: their threads run the return again.
  void wake_calls();
  // Releases warp syncs whose live members are all held (after exits, or an arrival).
  void release_syncs();
  std::uint32_t new_call();

  unsigned starvation_limit_;
  std::array<Thread, 64> th_;
  std::vector<Call> calls_;  // [0]: kernel level
  std::vector<std::uint32_t> free_calls_;
  LaneMask live_ = 0;
  LaneMask bar_ = 0;     // blocked at a CTA barrier
  LaneMask sync_ = 0;    // held at a warp-synchronizing instruction
  LaneMask ret_ = 0;     // returned, waiting for the rest of their call
  LaneMask joined_ = 0;  // threads with a non-empty join stack
  Pc pc_ = 0;
  std::uint32_t ctx_ = 0;
  LaneMask active_ = 0;
  std::uint64_t decisions_ = 0;
  std::array<std::uint64_t, kStatCount> counters_{};
};

}  // namespace simtsync::simt
