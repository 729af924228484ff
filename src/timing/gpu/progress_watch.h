// The timing watchdog's evidence of progress beyond CTA completion, so that a slow but
// progressing launch (a heavily contended lock hands off every few thousand cycles and no CTA
// completes for tens of millions of cycles) is never stopped as a livelock, while a starved lock
// holder is caught long before the no-completion backstop.
//
// Sampled by the main loop every kSampleCycles cycles of simulated time (it only reads state,
// so simulated timing is unaffected). Evidence of progress:
//   - a CTA completed or a warp exited;
//   - global memory (with the running CTAs' shared memory and the SMs' lock bits) reached a
//     state it had not held at any sample since the last completion or exit (a lock hand-off
//     that inserts a key does; a lock merely taken and released again does not).
// Three suspicions stop the launch (the func::Watchdog report says "stopped", not "cannot
// finish"):
//   - no evidence for watchdog.no_completion_window cycles;
//   - starvation: memory unchanged, no exit and no barrier release (func::Watchdog::quiet) and,
//     for watchdog.starvation_window cycles, every running warp either repeats a state in a
//     spin loop or has not advanced at all (the issue scheduler never picks it);
//   - starvation at a compare-and-swap: for watchdog.starvation_window cycles a warp lost every
//     compare-and-swap it made on a global word while warps of other CTAs took that word at
//     least twice, no CTA completed, no warp exited, and in the second half of the window
//     global memory reached no state it had not held since that half began (a CTA
//     that holds a semaphore's permit and needs the semaphore's lock to post it back, losing
//     every race for the lock to the CTAs that spin on it: docs/timing-model.md).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "common/types.h"

namespace simtsync::gpu {

struct Launch;
struct GpuParams;

class ProgressWatch {
 public:
  static constexpr Cycle kSampleCycles = Cycle{1} << 16;

  explicit ProgressWatch(const GpuParams& p);

  // The cycle of the next sample (the main loop calls sample() once now reaches it).
  Cycle next_sample() const { return next_; }
  // Takes a sample; returns the reason to stop as a suspected livelock, or "".
  std::string sample(Launch& l, Cycle now);

  // For tests and reports.
  std::uint64_t memory_samples() const { return memory_samples_; }
  std::uint64_t new_states() const { return new_states_; }

 private:
  std::string check_memory(Launch& l, Cycle now, bool due);
  std::string check_starvation(Launch& l, Cycle now);
  // Follows every warp's compare-and-swap wins and losses (func::Warp::cas_*) from the last
  // sample; true when a warp has lost for half the starvation window while others took its
  // word (global memory is then hashed at every sample, so that "no new state" covers the rest).
  bool watch_cas(const Launch& l, Cycle now);
  std::string check_cas_starvation(const Launch& l, Cycle now) const;
  static std::uint64_t memory_hash(const Launch& l);
  // A hint for the starvation report: under the fixed scheduler priority, the warps that did
  // not advance (`still`, by global id) sit mostly on schedulers after scheduler 0.
  static std::string scheduler_hint(const Launch& l, const std::vector<bool>& still);

  Cycle window_;             // watchdog.no_completion_window (0: off)
  Cycle starvation_window_;  // watchdog.starvation_window (0: off)
  Cycle memory_interval_;    // cycles between memory samples
  Cycle next_ = kSampleCycles;
  Cycle next_memory_ = 0;

  // Evidence.
  std::size_t done_ctas_ = 0;
  std::size_t live_warps_ = 0;
  Cycle last_evidence_ = 0;
  std::uint64_t seen_progress_ = 0;           // func progress counter at the last sample
  std::unordered_set<std::uint64_t> states_;  // memory hashes since the last exit/completion
  std::uint64_t memory_samples_ = 0, new_states_ = 0, revisits_ = 0;

  // Starvation: the quiet epoch watched (its start cycle) and each warp's state then.
  Cycle quiet_epoch_ = ~Cycle{0};
  Cycle snapshot_at_ = 0;
  std::vector<std::uint64_t> snapshot_;  // per global warp id (0: not running)

  // Starvation at a compare-and-swap, per warp (global id) that made one: its wins and losses
  // in a row at the last sample, since when it has lost every one (0: it has not), and how
  // often warps of other CTAs took its word since then (and which CTAs, with the sample at
  // which each last did, for at most kMaxRivals of them).
  static constexpr std::size_t kMaxRivals = 64;
  struct CasWatch {
    std::uint64_t wins = 0, losses = 0;
    Cycle losing_since = 0;
    std::uint64_t rival_wins = 0;
    std::vector<std::pair<int, Cycle>> rivals;
    // Not losing (again): counts from `w` wins and `l` losses on.
    void restart(std::uint64_t w, std::uint64_t l) {
      wins = w;
      losses = l;
      losing_since = 0;
      rival_wins = 0;
      rivals.clear();
    }
  };
  std::unordered_map<int, CasWatch> cas_;
  // While a warp has lost for half the window: since when global memory is hashed at every
  // sample (0: it is not), the hashes seen since then, and the last sample with a new one.
  // Global memory only: the CTAs' shared-memory flags of a spin loop combine into new states
  // for a long time while the global words repeat.
  Cycle cas_sampled_since_ = 0;
  std::unordered_set<std::uint64_t> cas_states_;
  Cycle cas_new_state_ = 0;
};

}  // namespace simtsync::gpu
