// The timeline trace (`simtsync run|exec --trace FILE`): a launch observer that subscribes one
// ISmObserver to every SM's event bus and turns the events into trace-event spans, streamed to
// a TraceWriter. Created only when a trace is asked for, so runs without one pay nothing.
//
// Tracks (pid/tid of the trace-event format; one cycle is one microsecond of its time axis):
//  - pid 0 "GPU": kernel launches (tid 0), the watchdog's stop (an instant with its report),
//    counters: BOWS's delay limit per SM (from its records).
//  - pid 0 also: counters of each L2 slice's atomic unit (packets waiting, packets replying;
//    the mean over each counter period, on change).
//  - pid 1+s "SM s": a track per warp slot (tid = slot) with spans of its state, named by
//    state_name() (issue, spin, spin (DDOS), backoff, barrier, memory, data, structural,
//    control, fetch, held, not picked, stalled, done; args: CTA, warp in CTA, PCs, source line,
//    instructions); a track per CTA slot's barrier phases (tid 1000 + CTA slot: first arrival
//    to release, with the critical, i.e. last arriving, warp); the SM's issue rate (counter).
//  - pid 100000 "locks": a track per contended lock word (owner spans: acquire to release);
//    under lock queuing, a track per queued word (tid 10000 + n: the requests parked behind its
//    holder, one span per queue content, and an instant per hand-over).
// Warp states come from the SM's events (issues, barrier arrival and release, memory
// completions, exits) and from each scheduler cycle's reason per warp (SchedCycleEvent): a run
// of one reason of at least `merge_gap` cycles is a span of its own; shorter runs join the
// next span (or, more than merge_gap of them together, make one named by the reason that took
// most of their cycles). DDOS (a copy of the policy's detector, or one with the seed's
// parameters when the policy has none) names the issue spans of warps it classifies as
// spinning. See docs/timeline.md.
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
#include "timing/mem/atomic_unit.h"
#include "timing/sched/ddos.h"
#include "trace/trace_writer.h"

namespace simtsync::trace {

struct TraceOptions {
  std::string path;
  Cycle window_start = 0;  // spans are clipped to [window_start, window_end)
  Cycle window_end = kNever;
  Cycle merge_gap = 32;         // issues this close together stay one span
  Cycle counter_period = 1000;  // issue-rate sample period (cycles)
  bool bows = false;            // the issue policy is BOWS: its holds are back-off
  spin::DdosParams ddos;        // the detector naming `spin (DDOS)` spans
  bool policy_ddos = false;     // ... is a copy of the policy's own (else the seed's defaults)
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
  kDone,
  kSpinDdos,    // issuing while DDOS classifies the warp as spinning
  kData,        // the scheduler found it waiting on the scoreboard, a fence or a lock reply
  kStructural,  // ... its unit or the LD/ST queue busy
  kControl,     // ... its I-buffer emptied by a control transfer
  kFetch,       // ... its I-buffer empty otherwise
  kHeld,        // the policy did not offer it (not BOWS: BOWS's holds are kBackoff)
  kNotPicked,   // offered behind the warp that issued
  kCount
};
const char* state_name(WarpState s);

class Tracer final : public gpu::ILaunchObserver, public mem::IAtomicObserver {
 public:
  explicit Tracer(TraceOptions o);
  ~Tracer() override;

  void launch_begin(const gpu::LaunchBegin& b) override;
  void launch_end(const gpu::LaunchEnd& e) override;
  // Writes the end of the file (with the run's description) and closes it. Throws on a failed
  // write (exit 2).
  void close(const std::string& description);

  const TraceWriter& writer() const { return writer_; }

  // The atomic units (mem::IAtomicObserver; from the serial memory phase).
  void atomic_occupancy(unsigned slice, std::size_t waiting, std::size_t replying) override;
  void lock_parked(unsigned slice, Addr addr, const mem::Packet& p, unsigned lane) override;
  void lock_handed(unsigned slice, Addr addr, const mem::Packet& next) override;

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
    std::uint64_t queued = 0;  // lanes that parked in its lock queue while held
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
  // DDOS's counters summed over the SMs' copies (otherData: a test compares them with the
  // policy's own).
  std::uint64_t ddos_counts_[spin::kDdosStatCount] = {};
  // Atomic units: per slice, the occupancy since the last change and its integral over the
  // current counter period.
  struct Occupancy {
    Cycle at = 0, bucket = 0;
    std::size_t waiting = 0, replying = 0;
    double sum_w = 0, sum_r = 0;
    double shown_w = -1, shown_r = -1;
    bool any = false;
  };
  std::vector<Occupancy> atomics_;
  mem::MemoryHierarchy* hier_ = nullptr;
  void occupancy_to(unsigned slice, Cycle now);
  void flush_occupancy(unsigned slice, Occupancy& o, Cycle len);
  // Lock queues: the requests parked behind each word's holder, in arrival order.
  struct Waiter {
    int sm = -1, slot = -1, cta = -1, warp = -1;
    unsigned lane = 0;
    Cycle since = 0;
  };
  struct LockQueue {
    int track = -1;
    Cycle since = 0;  // the current content's span starts
    std::vector<Waiter> waiting;
  };
  std::unordered_map<Addr, LockQueue> queues_;
  int queue_tracks_ = 0;
  void queue_span(Addr addr, LockQueue& q, Cycle now);
  Waiter waiter(const mem::Packet& p, unsigned lane, Cycle now) const;
  friend std::string pc_line(const Tracer& t, Pc pc);
  bool in_spin(Pc pc) const;
};

// A tracer for `path` (TraceOptions::window from `window`, "START:END" or empty) listening to
// every launch of `gpu`. The caller keeps it alive while the GPU runs and closes it.
std::unique_ptr<Tracer> attach_tracer(const std::string& path, const std::string& window,
                                      gpu::TimingGpu& gpu);

}  // namespace simtsync::trace
