// Turns a kernel that can never finish into a report instead of a hang.
//
// Two cases: (1) every live warp waits at a barrier that cannot complete (deadlock); (2) the
// machine stops making visible progress (no memory value changes, no warp exits, no barrier
// releases) and, within that quiet epoch, every running warp comes back to an identical state
// (PC, reconvergence entries, registers, local memory) after a backward branch: with memory
// unchanged and execution deterministic, such warps can never leave their loops (livelock, the
// form a SIMT-induced deadlock takes). Hashing only starts once the machine has been quiet for
// `quiet_steps`, so ordinary execution pays nothing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "func/executor.h"

namespace simtsync::func {

// Combines v into the running hash h (the warp-state and memory hashes of the watchdogs).
inline std::uint64_t hash_mix(std::uint64_t h, std::uint64_t v) {
  return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
}

struct WatchdogOptions {
  std::uint64_t quiet_steps = 1'000'000;  // warp instructions without progress before checking
  std::uint64_t max_steps = 0;            // hard limit on warp instructions (0: none)
  std::uint64_t quiet_cycles = 0;         // timing mode: cycles without progress (0: unused)
  // Functional mode: rounds (every running warp steps once per round) without evidence of
  // progress (no warp exited, memory reached no state it had not held since the last exit)
  // before a suspected-livelock stop (0: off); the timing mode counts the same key in cycles
  // (gpu::ProgressWatch).
  std::uint64_t no_completion_window = 50'000'000;
  // Calls in progress per warp (a thread's call depth) before a stack-overflow fault (0: none).
  std::uint32_t max_call_depth = 1024;
};

class Watchdog {
 public:
  explicit Watchdog(WatchdogOptions o) : opts_(o) {}

  // Called after each warp step with the PC it started at. Returns true when a deadlock or
  // livelock has been established; report() then describes it.
  bool after_step(Executor& ex, Warp& w, Pc pc_before, WarpTable& warps);
  // The parallel SM phase (issue 20). True when one of the next `ahead` steps, the first of
  // which will make the launch's step count steps_now + 1, could need more than the launch-wide
  // counters (a quiet epoch or its start, the step limit): that phase runs serially, calling
  // after_step. Depends on simulated state only.
  bool needs_serial(std::uint64_t steps_now, std::uint64_t ahead) const;
  // A step of a phase for which needs_serial() was false, replayed in serial order with the
  // launch's step count and progress as they were after it.
  void replay(std::uint64_t steps, std::uint64_t progress) {
    if (progress != last_progress_ && !quiet_ && !(opts_.max_steps && steps >= opts_.max_steps))
      note_progress(steps, progress);
    else
      check_replay(steps, progress);
  }
  // Called when no warp could run at all.
  void all_blocked(Executor& ex, WarpTable& warps);
  // Stops with a report under the given reason (cycle limit, no evidence of progress, ...): a
  // suspicion, so the report says the kernel was stopped, not that it cannot finish.
  void stop(Executor& ex, WarpTable& warps, const std::string& why) {
    build_report(ex, warps, why, false);
  }
  // Timing mode: the current cycle (quiet_cycles counts from the last progress).
  void set_time(std::uint64_t now) { now_ = now; }
  bool quiet() const { return quiet_; }
  // Timing mode: the cycle of the last visible progress (memory change, warp exit, barrier
  // release) seen by after_step.
  std::uint64_t last_progress_time() const { return last_progress_time_; }
  const std::string& report() const { return report_; }
  const std::string& reason() const { return reason_; }
  // A warp's whole state (reconvergence entries, registers, frame, local memory).
  std::uint64_t hash_state(const Executor& ex, Warp& w) const;

 private:
  // The machine made visible progress at this step.
  void note_progress(std::uint64_t steps, std::uint64_t progress) {
    last_progress_ = progress;
    last_progress_step_ = steps;
    last_progress_time_ = now_;
  }
  // A replayed step without progress: after_step would have done nothing (CHECKs it).
  void check_replay(std::uint64_t steps, std::uint64_t progress) const;
  // `proven`: the report says the kernel cannot finish (else that the watchdog stopped it).
  void build_report(Executor& ex, WarpTable& warps, const std::string& why, bool proven);
  // Report lines on the lock bits waiting threads want (seed 001 sec. 4.4); empty when none.
  std::string lock_bit_causes(const Executor& ex, const WarpTable& warps) const;
  // Threads of lock_stack warps retrying (or queued for) a lock instruction's lock word, who
  // holds each word, and the lock-stack deadlocks of seed 004 sec. 4.5 and 5.2.2.
  std::string lock_instruction_causes(const Executor& ex, const WarpTable& warps) const;

  WatchdogOptions opts_;
  std::uint64_t last_progress_ = ~std::uint64_t{0};
  std::uint64_t last_progress_step_ = 0;
  std::uint64_t last_progress_time_ = 0;
  std::uint64_t now_ = 0;
  std::uint64_t epoch_ = 0;
  bool quiet_ = false;
  // A warp state seen after a backward jump this epoch: its PC, call depth and hash. Below
  // kEagerDepth calls every such state is hashed at once; deeper, hashing costs the whole
  // (growing) reconvergence stack, so a state is only hashed once its PC and depth come back
  // (`hashed` false until then): a state can only repeat at the same PC and depth, so a warp
  // that recurses forever costs O(1) per step instead of O(depth).
  struct Seen {
    Pc pc;
    std::size_t depth;
    std::uint64_t hash;
    bool hashed;
  };
  static constexpr std::size_t kEagerDepth = 16;
  std::vector<std::vector<Seen>> seen_;  // per warp, this epoch
  std::vector<Pc> loop_branch_;          // per warp: the backward branch it cycles through
  std::string report_;
  std::string reason_;
};

}  // namespace simtsync::func
