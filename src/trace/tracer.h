// The timeline trace (`simtsync run|exec --trace FILE`): a launch observer that subscribes one
// ISmObserver to every SM's event bus and turns the events into trace-event spans, streamed to
// a TraceWriter. Created only when a trace is asked for, so runs without one pay nothing.
//
// Tracks (pid/tid of the trace-event format; one cycle is one microsecond of its time axis):
//  - pid 0 "GPU": kernel launches (tid 0), the watchdog's stop (an instant with its report),
//    counters: BOWS's delay limit per SM (from its records).
//  - pid 1+s "SM s": a track per warp slot (tid = slot) with spans of its state, named by
//    kState (issue, spin, backoff, barrier, memory, stalled, done; args: CTA, warp in CTA, PCs,
//    source line, instructions); a track per CTA slot's barrier phases (tid 1000 + CTA slot:
//    first arrival to release, with the critical, i.e. last arriving, warp); the SM's issue
//    rate (counter).
//  - pid 100000 "locks": a track per contended lock word (owner spans: acquire to release).
// Warp states come from the events only (issues, barrier arrival and release, memory
// completions, exits): a gap of more than `merge_gap` cycles between two issues becomes a span
// of its own, named by what the warp was waiting for; see docs/timeline.md.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/types.h"
#include "timing/gpu/launch_observer.h"
#include "timing/gpu/timing_gpu.h"
#include "trace/trace_writer.h"

namespace simtsync::trace {

struct TraceOptions {
  std::string path;
  Cycle window_start = 0;  // spans are clipped to [window_start, window_end)
  Cycle window_end = kNever;
  Cycle merge_gap = 32;         // issues this close together stay one span
  Cycle counter_period = 1000;  // issue-rate sample period (cycles)
  bool bows = false;            // the issue policy is BOWS: gaps after a spin branch are back-off
};

// Parses "START:END" (either side may be empty: from 0, to the end). Throws usage_error.
void parse_window(const std::string& text, TraceOptions& o);

enum class WarpState : std::uint8_t {
  kNone,
  kIssue,
  kSpin,
  kBackoff,
  kBarrier,
  kMemory,
  kStalled,
  kDone
};
const char* state_name(WarpState s);

class Tracer final : public gpu::ILaunchObserver {
 public:
  explicit Tracer(TraceOptions o);
  ~Tracer() override;

  void launch_begin(const gpu::LaunchBegin& b) override;
  void launch_end(const gpu::LaunchEnd& e) override;
  // Writes the end of the file (with the run's description) and closes it. Throws on a failed
  // write (exit 2).
  void close(const std::string& description);

  const TraceWriter& writer() const { return writer_; }

 private:
  class SmObserver;
  friend class SmObserver;

  // Appends one event (without prefix) to a chunk; flushes the chunk when it is large.
  void emit_gpu(const std::string& event);
  bool in_window(Cycle a, Cycle b) const { return b > o_.window_start && a < o_.window_end; }

  TraceOptions o_;
  TraceWriter writer_;
  std::vector<std::unique_ptr<SmObserver>> sms_;
  // Per launch: PCs inside marked spin loops ([target, branch] of each spin-marked backward
  // branch) and each PC's source line.
  std::vector<std::pair<Pc, Pc>> spin_ranges_;
  std::map<Pc, std::string> lines_;
  // Lock attempts of functions without spin-loop marks (compare-and-swaps in loops), sorted.
  std::vector<Pc> attempt_pcs_;
  Cycle start_ = 0;
  std::string kernel_;
  bool named_locks_ = false;
  unsigned named_sms_ = 0;
  // Lock words: who holds each (key as in sync_status.cc), under lock_mu_ (shared-memory words
  // are touched from SM ticks, global ones from the serial memory phase).
  struct LockOwner {
    int sm = -1, slot = -1, cta = -1, warp = -1;
    Cycle since = 0;
    std::uint64_t failed = 0;  // lanes that failed to take it while held
    Addr addr = 0;
    bool shared = false;
    std::int64_t after_release = -1;  // cycles since the word's last release (-1: never held)
  };
  std::mutex lock_mu_;
  std::unordered_map<std::uint64_t, LockOwner> owners_;  // never iterated
  // Lock words seen contended, by key: their track number (tid under pid 100000).
  std::unordered_map<std::uint64_t, int> lock_tracks_;
  std::unordered_map<std::uint64_t, Cycle> last_release_;  // every word ever released
  std::string watchdog_;  // the report of a launch the watchdog stopped (otherData)
  friend std::string pc_line(const Tracer& t, Pc pc);
  bool in_spin(Pc pc) const;
};

// A tracer for `path` (TraceOptions::window from `window`, "START:END" or empty) listening to
// every launch of `gpu`. The caller keeps it alive while the GPU runs and closes it.
std::unique_ptr<Tracer> attach_tracer(const std::string& path, const std::string& window,
                                      gpu::TimingGpu& gpu);

}  // namespace simtsync::trace
