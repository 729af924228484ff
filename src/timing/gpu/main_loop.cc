// The main loop of one launch: memory side, then responses to the SMs, then each SM's tick
// (an SM that made no progress sleeps until its next internal event, a memory response or a
// new CTA; skipped cycles are charged to its schedulers' last stall reasons), then completed
// CTAs are released and new ones dispatched; the cycle limit is checked every cycle and the
// evidence of progress (progress_watch.h) every 65536. When nothing at all can happen any more
// the launch is a deadlock.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <functional>
#include <iterator>

#include "common/check.h"
#include "func/launch_setup.h"
#include "timing/gpu/launch.h"
#include "timing/gpu/progress_watch.h"

namespace simtsync::gpu {
namespace {

// A progress line on stderr for long runs: on a terminal one line rewritten in place twice a
// second; otherwise (a batch job, a sweep's log) a full line every `seconds` of wall time, so
// that output stays quiet for runs shorter than that. `seconds` 0 turns both off
// (watchdog.progress_seconds). The clock is read only every 65536 loop iterations.
class ProgressLine {
 public:
  ProgressLine(const std::string& kernel, double seconds)
      : kernel_(kernel),
        tty_(::isatty(STDERR_FILENO) != 0),
        on_(seconds > 0),
        period_(tty_ ? std::chrono::milliseconds(500)
                     : std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                           std::chrono::duration<double>(seconds))) {}
  ~ProgressLine() {
    if (printed_ && tty_) std::fprintf(stderr, "\n");
  }
  // True every 65536 loop iterations (then maybe() may print).
  bool due() { return on_ && (++count_ & 0xffff) == 0; }
  void maybe(Cycle now, std::uint64_t warp_instructions, std::size_t done, std::size_t total) {
    const auto t = std::chrono::steady_clock::now();
    if (t - last_ < period_) return;
    last_ = t;
    const double secs = std::chrono::duration<double>(t - start_).count();
    std::fprintf(stderr, "%s[simtsync] %s: cycle %llu, %.0f KIPS, CTAs %zu/%zu done, %.0f s%s",
                 tty_ ? "\r" : "", kernel_.c_str(), static_cast<unsigned long long>(now),
                 static_cast<double>(warp_instructions) / secs / 1e3, done, total, secs,
                 tty_ ? "   " : "\n");
    if (!tty_) std::fflush(stderr);
    printed_ = true;
  }

 private:
  std::string kernel_;
  bool tty_;
  bool on_;
  std::chrono::steady_clock::duration period_;
  bool printed_ = false;
  std::uint64_t count_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_ = start_;
};

// Fewer awake SMs than this tick on the calling thread: handing a phase to the workers costs
// about a microsecond, more than a few SMs' ticks. (Which thread ticks an SM never changes a
// result, so this is a speed choice only.)
constexpr std::size_t kMinParallelSms = 8;

// Per-SM results of one SM phase, a cache line each (workers write them).
struct alignas(64) SmSlot {
  Cycle wake = 0;       // the SM sleeps until this cycle (or a wake-up)
  Cycle last_tick = 0;  // the last cycle it ticked
  bool progressed = false;
  std::exception_ptr error;  // what its tick threw (a kernel fault), rethrown in SM order
};

// The SM phase of cycle `now`: every SM that is awake ticks. Each SM touches only its own
// state, its executor's counters and its side of the memory port (which keeps its sends until
// commit()); nothing one SM does this cycle is seen by another before the next cycle
// (docs/parallel-sm-phase.md). So the SMs may tick in any order and on any thread, with one
// exception: the watchdog reads the launch-wide step and progress counts at every step, and
// near a quiet epoch or the step limit it may act on them. When needs_serial() says it might,
// the SMs tick in order, each folding its counters before the next, and each step goes to the
// watchdog directly, as a serial simulator would do it; otherwise the steps are logged per SM
// and replayed afterwards with the counts a serial order gives. Returns whether any SM made
// progress.
// `wake` (each SM's wake cycle, contiguous: the scan below reads one array, not an SM or a
// SmSlot each) and `maybe_woken` (SMs whose wake-up flag may be set: it is set only by a
// memory response or a new CTA, so the flag of every other SM is known to be clear and is not
// read) are the main loop's.
bool sm_phase(Launch& l, Cycle now, std::vector<SmSlot>& slot, std::vector<std::size_t>& awake,
              std::vector<Cycle>& wake, std::vector<char>& maybe_woken) {
  awake.clear();
  for (size_t i = 0; i < l.sms.size(); ++i) {
    if (now >= wake[i]) {
      awake.push_back(i);
    } else if (maybe_woken[i]) {
      maybe_woken[i] = 0;
      if (l.sms[i]->take_wakeup()) awake.push_back(i);
    }
  }
  auto tick = [&l, &slot, now](std::size_t i) {
    sm::Sm& s = *l.sms[i];
    SmSlot& o = slot[i];
    if (now > o.last_tick + 1) s.account_skipped(now - o.last_tick - 1);
    o.last_tick = now;
    o.progressed = s.tick(now);
    o.wake = o.progressed ? now + 1 : s.next_event(now);
  };
  bool progressed = false;
  const std::uint64_t max_steps =
      std::uint64_t{l.p.num_sms} * std::max(1u, l.p.sm.num_schedulers);  // one per scheduler
  l.serial_phase = l.dog.needs_serial(l.shared.steps, max_steps);
  if (l.serial_phase) {
    for (std::size_t i : awake) {
      tick(i);
      l.executors[i]->fold();
      progressed |= slot[i].progressed;
      wake[i] = slot[i].wake;
    }
    return progressed;
  }
  auto guarded = [&](std::size_t i) {
    try {
      tick(i);
    } catch (...) {
      slot[i].error = std::current_exception();
    }
  };
  if (l.pool && awake.size() >= kMinParallelSms) {
    // Each thread ticks the awake SMs of its own block of SM indices, the same block every
    // cycle, so an SM's state stays in one core's caches.
    const std::size_t parts = l.pool->threads(), n = l.sms.size();
    l.pool->run_parts([&](unsigned part) {
      const std::size_t lo = part * n / parts, hi = (part + 1) * n / parts;
      for (std::size_t i : awake)
        if (i >= lo && i < hi) guarded(i);
    });
  } else {
    for (std::size_t i : awake) guarded(i);
  }
  // A serial order would have stopped at the first SM that faulted.
  for (std::size_t i : awake)
    if (slot[i].error) std::rethrow_exception(slot[i].error);
  std::uint64_t steps = l.shared.steps, progress = l.shared.progress;
  for (std::size_t i : awake) {
    auto& log = l.step_log[i];
    SIMTSYNC_CHECK(log.size() <= std::max(1u, l.p.sm.num_schedulers));
    for (const auto& [s, p] : log) l.dog.replay(steps + s, progress + p);
    log.clear();
    func::Executor& ex = *l.executors[i];
    steps += ex.local_steps();
    progress += ex.local_progress();
    ex.fold();  // only SMs that ticked have counts since the last fold
    progressed |= slot[i].progressed;
    wake[i] = slot[i].wake;
  }
  return progressed;
}

}  // namespace

func::LaunchResult run_main_loop(Launch& l) {
  const GpuParams& p = l.p;
  func::LaunchResult result;
  Cycle& now = l.now;
  std::vector<SmSlot> slot(l.sms.size());
  std::vector<std::size_t> awake, touched, asked;
  awake.reserve(l.sms.size());
  touched.reserve(l.sms.size());
  asked.reserve(l.sms.size());
  std::vector<Cycle> wake(l.sms.size(), 0);
  std::vector<char> maybe_woken(l.sms.size(), 1);  // the first CTAs were just dispatched
  ProgressLine progress(l.li.kernel->name, p.progress_seconds);
  ProgressWatch watch(p);
  mem::IMemPort& memory = *l.memory;
  func::Executor& ex0 = *l.executors.front();
  mem::MemRequest resp;
  while (l.done_ctas < l.ctas.size()) {
    l.dog.set_time(now);
    memory.tick(now);
    touched.clear();
    if (memory.any_response())
      for (auto i = static_cast<std::size_t>(memory.next_responder(-1)); i < l.sms.size();
           i = static_cast<std::size_t>(memory.next_responder(static_cast<int>(i)))) {
        sm::Sm& s = *l.sms[i];
        bool got = false;
        while (memory.pop_response(s.id(), now, resp)) {
          s.memory_response(resp, now);
          got = true;
        }
        if (got) {
          touched.push_back(i);
          maybe_woken[i] = 1;
        }
      }
    const bool progressed = sm_phase(l, now, slot, awake, wake, maybe_woken);
    memory.commit();
    bool freed = false;
    // A CTA completes only in its SM's tick or memory response: only those SMs are asked, in
    // SM order.
    asked.clear();
    std::merge(awake.begin(), awake.end(), touched.begin(), touched.end(),
               std::back_inserter(asked));
    asked.erase(std::unique(asked.begin(), asked.end()), asked.end());
    for (std::size_t i : asked) {
      sm::Sm* s = l.sms[i].get();
      if (!s->has_completed()) continue;
      for (int c : s->take_completed()) {
        func::destroy_cta(static_cast<std::size_t>(c), l.ctas, l.warps);
        ++l.done_ctas;
        freed = true;
      }
    }
    if (freed) {
      l.dispatch();
      std::fill(maybe_woken.begin(), maybe_woken.end(), 1);  // some SMs got CTAs
    }
    if (progress.due()) {
      std::uint64_t wi = 0;
      for (const auto& s : l.sms) wi += s->stats().warp_instructions;
      progress.maybe(now, wi, l.done_ctas, l.ctas.size());
    }
    if (l.stop) break;
    if (l.done_ctas == l.ctas.size()) break;
    if (p.max_cycles && now >= p.max_cycles) {
      result.watchdog_reason =
          fmt::format("suspected livelock: the cycle limit of {} (watchdog.max_cycles) was reached",
                      p.max_cycles);
      l.dog.stop(ex0, l.warps, result.watchdog_reason);
      break;
    }
    // Evidence of progress beyond CTA completion (progress_watch.h), sampled every 65536 cycles.
    if (now >= watch.next_sample()) {
      result.watchdog_reason = watch.sample(l, now);
      if (!result.watchdog_reason.empty()) {
        l.dog.stop(ex0, l.warps, result.watchdog_reason);
        break;
      }
    }
    Cycle next = now + 1;
    if (!progressed && !freed) {
      const Cycle mem_next = memory.next_event();
      Cycle t = mem_next;
      for (size_t i = 0; i < l.sms.size(); ++i)
        if (!l.sms[i]->idle()) t = std::min(t, std::max(wake[i], now + 1));
      if (t == mem::kNever) {
        // Nothing can happen any more: every live warp waits at a barrier.
        l.dog.all_blocked(ex0, l.warps);
        result.watchdog_reason = l.dog.reason();
        l.stop = true;
        break;
      }
      next = std::max(next, t);
      // While memory is busy this loop used to visit every cycle (issue 48 lets it skip idle
      // memory stretches): the progress samples and the cycle limit still see the cycles they
      // saw then.
      if (mem_next != mem::kNever) {
        next = std::min(next, std::max(now + 1, watch.next_sample()));
        if (p.max_cycles) next = std::min(next, std::max(now + 1, p.max_cycles));
        // An SM that got a response while it was due anyway keeps its wake-up flag, which the
        // next iteration takes (sm_phase): that was the next cycle, so it stays so.
        if (std::find(maybe_woken.begin(), maybe_woken.end(), 1) != maybe_woken.end())
          next = now + 1;
      }
    }
    now = next;
  }
  if (l.stop || !result.watchdog_reason.empty()) {
    if (result.watchdog_reason.empty()) result.watchdog_reason = l.dog.reason();
    result.watchdog_report =
        fmt::format("timing model stopped at cycle {}\n{}", now, l.dog.report());
  } else {
    result.completed = true;
  }
  for (size_t i = 0; i < l.sms.size(); ++i)
    if (now > slot[i].last_tick) l.sms[i]->account_skipped(now - slot[i].last_tick);
  result.cycles = now + 1;
  for (const auto& ex : l.executors) func::accumulate(result.stats, ex->stats());
  return result;
}

}  // namespace simtsync::gpu
