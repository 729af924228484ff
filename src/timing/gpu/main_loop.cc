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

}  // namespace

func::LaunchResult run_main_loop(Launch& l) {
  const GpuParams& p = l.p;
  func::LaunchResult result;
  Cycle& now = l.now;
  std::vector<Cycle> wake(l.sms.size(), 0);
  std::vector<Cycle> last_tick(l.sms.size(), 0);
  ProgressLine progress(l.li.kernel->name, p.progress_seconds);
  ProgressWatch watch(p);
  mem::IMemPort& memory = *l.memory;
  func::Executor& ex0 = *l.executors.front();
  mem::MemRequest resp;
  while (l.done_ctas < l.ctas.size()) {
    l.dog.set_time(now);
    memory.tick(now);
    for (auto& s : l.sms)
      while (memory.pop_response(s->id(), now, resp)) s->memory_response(resp, now);
    bool progressed = false;
    for (size_t i = 0; i < l.sms.size(); ++i) {
      sm::Sm& s = *l.sms[i];
      if (now < wake[i] && !s.take_wakeup()) continue;
      if (now > last_tick[i] + 1) s.account_skipped(now - last_tick[i] - 1);
      last_tick[i] = now;
      const bool pr = s.tick(now);
      progressed |= pr;
      wake[i] = pr ? now + 1 : s.next_event(now);
    }
    bool freed = false;
    for (auto& s : l.sms) {
      if (!s->has_completed()) continue;
      for (int c : s->take_completed()) {
        func::release_cta(l.ctas[static_cast<size_t>(c)], l.warps);
        l.cta_sm[static_cast<size_t>(c)] = -1;
        ++l.done_ctas;
        freed = true;
      }
    }
    if (freed) l.dispatch();
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
      Cycle t = memory.next_event();
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
    if (now > last_tick[i]) l.sms[i]->account_skipped(now - last_tick[i]);
  result.cycles = now + 1;
  for (const auto& ex : l.executors) func::accumulate(result.stats, ex->stats());
  return result;
}

}  // namespace simtsync::gpu
