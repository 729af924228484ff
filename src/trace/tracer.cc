#include "trace/tracer.h"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <iterator>
#include <mutex>

#include "common/error.h"
#include "func/executor.h"
#include "func/program.h"
#include "trace/track_ids.h"

namespace simtsync::trace {
namespace {

constexpr std::size_t kChunk = 1 << 18;

// A JSON string literal of `s`.
std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      out += fmt::format("\\u{:04x}", u);
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// A lock word: a global address, or a shared-memory address on its SM (top bit set), as the
// synchronization status keys them (timing/gpu/sync_status.cc).
std::uint64_t lock_key(int sm, bool shared, Addr a) {
  return shared ? (std::uint64_t{1} << 63) | (static_cast<std::uint64_t>(sm) << 40) | a : a;
}

bool is_store(const func::ExecInst& in) {
  return in.op == ptx::Opcode::kSt || in.op == ptx::Opcode::kRed;
}

bool issuing(WarpState s) {
  return s == WarpState::kIssue || s == WarpState::kSpin || s == WarpState::kSpinDdos;
}

}  // namespace

void parse_window(const std::string& text, TraceOptions& o) {
  const auto colon = text.find(':');
  auto num = [&](std::string_view s, Cycle dflt) {
    if (s.empty()) return dflt;
    Cycle v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size())
      throw usage_error(fmt::format("--trace-window expects START:END in cycles, got '{}'", text));
    return v;
  };
  if (colon == std::string::npos)
    throw usage_error(fmt::format("--trace-window expects START:END in cycles, got '{}'", text));
  o.window_start = num(std::string_view(text).substr(0, colon), 0);
  o.window_end = num(std::string_view(text).substr(colon + 1), kNever);
  if (o.window_end <= o.window_start)
    throw usage_error(fmt::format("--trace-window {}: END must be after START", text));
}

const char* state_name(WarpState s) {
  switch (s) {
    case WarpState::kNone:
      return "none";
    case WarpState::kIssue:
      return "issue";
    case WarpState::kSpin:
      return "spin";
    case WarpState::kBackoff:
      return "backoff";
    case WarpState::kBarrier:
      return "barrier";
    case WarpState::kMemory:
      return "memory";
    case WarpState::kStalled:
      return "stalled";
    case WarpState::kDone:
      return "done";
    case WarpState::kSpinDdos:
      return "spin (DDOS)";
    case WarpState::kData:
      return "data";
    case WarpState::kStructural:
      return "structural";
    case WarpState::kControl:
      return "control";
    case WarpState::kFetch:
      return "fetch";
    case WarpState::kHeld:
      return "held";
    case WarpState::kNotPicked:
      return "not picked";
    case WarpState::kCount:
      break;
  }
  return "?";
}

std::string pc_line(const Tracer& t, Pc pc) {
  auto it = t.lines_.find(pc);
  return it == t.lines_.end() ? std::string() : it->second;
}

bool Tracer::in_spin(Pc pc) const {
  for (const auto& [lo, hi] : spin_ranges_)
    if (pc >= lo && pc <= hi) return true;
  return false;
}

// One SM's part of the trace. Its events arrive from that SM's tick (possibly on a pool
// thread) or from the serial memory-response phase, never both at once, so its own state needs
// no lock; lock words are shared by every SM and kept under Tracer::lock_mu_.
class Tracer::SmObserver final : public sm::ISmObserver {
 public:
  SmObserver(Tracer& t, int sm) : t_(t), sm_(sm), pid_(sm + 1) {}

  void begin(Cycle start, unsigned slots) {
    start_ = start;
    // A DDOS of this SM's own, fed the same events as the policy's (a pure observer: the
    // same classification when the parameters are the same).
    std::fill(std::begin(ddos_counts_), std::end(ddos_counts_), 0);
    ddos_ = std::make_unique<spin::Ddos>(t_.o_.ddos, slots, ddos_counts_, nullptr);
    warps_.clear();
    phases_.clear();
    bucket_ = 0;
    bucket_issues_ = 0;
    any_issue_ = false;
  }

  void end(Cycle cycles) {
    for (std::size_t s = 0; s < warps_.size(); ++s) {
      Warp& w = warps_[s];
      if (in_gap(w)) close_gap(w, static_cast<int>(s), cycles);
      set_state(w, static_cast<int>(s), WarpState::kNone, cycles, w.last_pc);
    }
    for (unsigned k = 0; k < spin::kDdosStatCount; ++k) t_.ddos_counts_[k] += ddos_counts_[k];
    {
      // Holds still open (a deadlocked lock's holder) are drawn up to the end.
      std::lock_guard<std::mutex> g(t_.lock_mu_);
      for (const auto& [k, o] : t_.owners_)
        if (o.sm == sm_) release(k, o, start_ + cycles);
    }
    if (any_issue_) {
      rate(bucket_, bucket_issues_);
      rate(bucket_ + 1, 0);
    }
    flush();
  }

  void flush() {
    t_.writer_.append(chunk_, count_);
    chunk_.clear();
    count_ = 0;
  }

  void on_issue(const sm::IssueEvent& e) override {
    ddos_->on_issue(e);
    Warp& w = at(e.slot);
    const Cycle now = e.now;
    if (in_gap(w)) close_gap(w, e.slot, now);
    const WarpState kind = ddos_->spinning(e.slot) ? WarpState::kSpinDdos
                           : t_.in_spin(e.pc)      ? WarpState::kSpin
                                                   : WarpState::kIssue;
    if (w.st != kind) set_state(w, e.slot, kind, now, e.pc);
    ++w.insts;
    w.ctx = kind;
    w.last_issue = now;
    w.covered = now + 1;
    w.last_pc = e.pc;
    if (e.cta >= 0) w.cta = e.cta;
    if (e.memory && e.inst && !is_store(*e.inst)) ++w.loads;
    w.loads_at_issue = w.loads > 0;
    if (e.barrier_arrival) {
      set_state(w, e.slot, WarpState::kBarrier, now + 1, e.pc);
      if (e.cta_slot >= 0) {
        Phase& p = phase(e.cta_slot);
        if (!p.open) p = Phase{true, now, now, e.slot, 0, e.cta};
        p.last = now;
        p.last_slot = e.slot;
        ++p.arrivals;
      }
    }
    // Issue rate, one sample per period.
    const Cycle b = now / t_.o_.counter_period;
    if (!any_issue_) {
      any_issue_ = true;
      bucket_ = b;
    }
    if (b != bucket_) {
      rate(bucket_, bucket_issues_);
      if (b > bucket_ + 1) rate(bucket_ + 1, 0);
      bucket_ = b;
      bucket_issues_ = 0;
    }
    ++bucket_issues_;
  }

  void on_barrier_release(const sm::BarrierEvent& e) override {
    for (int s : e.slots) {
      Warp& w = at(s);
      if (w.st != WarpState::kBarrier) continue;
      set_state(w, s, WarpState::kStalled, e.now, w.last_pc);
      open_gap(w, e.now);
    }
    if (e.cta_slot < 0) return;
    Phase& p = phase(e.cta_slot);
    if (!p.open) return;
    p.open = false;
    if (!t_.in_window(start_ + p.first, start_ + e.now)) return;
    const Warp& crit = at(p.last_slot);
    const Cycle a = std::max(start_ + p.first, t_.o_.window_start);
    const Cycle z = std::min(start_ + e.now, t_.o_.window_end);
    event(FMT_COMPILE(
              "{{\"ph\":\"X\",\"pid\":{},\"tid\":{},\"ts\":{},\"dur\":{},\"name\":\"barrier {}\","
              "\"cat\":\"barrier\",\"args\":{{\"cta\":{},\"barrier\":{},\"warps\":{},"
              "\"critical_slot\":{},\"critical_warp\":{},\"critical_arrival\":{}}}}}"),
          pid_, kBarrierTid + e.cta_slot, a, std::max<Cycle>(1, z - a), e.barrier, p.cta, e.barrier,
          p.arrivals, p.last_slot, crit.warp, start_ + p.last);
  }

  void on_cta_launch(const sm::CtaEvent& e) override {
    ddos_->on_cta_launch(e);
    for (std::size_t i = 0; i < e.slots.size(); ++i) {
      Warp& w = at(e.slots[i]);
      set_state(w, e.slots[i], WarpState::kNone, e.now, w.last_pc);
      w = Warp{};
      w.cta = e.cta;
      w.warp = static_cast<int>(i);
      w.st = WarpState::kStalled;
      w.since = e.now;
      w.last_issue = e.now;
      open_gap(w, e.now);
      if (!named(e.slots[i])) name_warp(e.slots[i]);
    }
    if (e.cta_slot >= 0 && !named_cta(e.cta_slot)) name_cta(e.cta_slot);
  }

  void on_warp_exit(const sm::WarpExitEvent& e) override {
    ddos_->on_warp_exit(e);
    Warp& w = at(e.slot);
    if (in_gap(w)) close_gap(w, e.slot, e.now);
    set_state(w, e.slot, WarpState::kDone, e.now, w.last_pc);
  }

  // Why each of a scheduler's warps did not issue this cycle: runs of one reason per warp.
  void on_sched_cycle(const sm::SchedCycleEvent& e) override {
    for (std::size_t i = 0; i < e.slots.size(); ++i) {
      const sm::WarpCycle r = e.why[i];
      if (r == sm::WarpCycle::kIssued) continue;
      Warp& w = at(e.slots[i]);
      if (!in_gap(w)) continue;
      // No live warp in a slot whose warp has not exited: it finished and its memory drains.
      note_run(w, e.slots[i], r == sm::WarpCycle::kNone ? WarpState::kDone : gap_state(w, r),
               e.now);
    }
  }

  // Who is in a slot (the lock queues name the warps parked).
  std::pair<int, int> who(int slot) {
    const Warp& w = at(slot);
    return {w.cta, w.warp};
  }

  void on_cta_exit(const sm::CtaEvent& e) override {
    for (int s : e.slots) {
      Warp& w = at(s);
      set_state(w, s, WarpState::kNone, e.now, w.last_pc);
    }
  }

  void on_memory(const sm::MemoryEvent& e) override {
    if (!e.inst) return;
    if (e.last && !is_store(*e.inst)) {
      Warp& w = at(e.slot);
      if (w.loads > 0) --w.loads;
    }
    if (e.last && e.access) locks(e);
  }

 private:
  struct Warp {
    WarpState st = WarpState::kNone;
    Cycle since = 0;
    Pc pc = 0;  // first PC of the span (issue, spin) or where it waits
    std::uint64_t insts = 0;
    Cycle last_issue = 0;
    Pc last_pc = 0;
    int cta = -1, warp = -1;
    unsigned loads = 0;  // loads and atomics in flight
    bool loads_at_issue = false;
    WarpState ctx = WarpState::kIssue;  // the kind of its last issue (issue, spin, spin (DDOS))
    // The time since `covered` (the end of what the current span's state is known to cover):
    // the latest run of one state (from the scheduler cycles) and the cycles of the shorter
    // runs before it.
    WarpState run = WarpState::kNone;
    Cycle run_since = 0, covered = 0;
    std::array<Cycle, static_cast<std::size_t>(WarpState::kCount)> stretch{};
    bool stretch_any = false;
  };
  struct Phase {
    bool open = false;
    Cycle first = 0, last = 0;
    int last_slot = -1;
    unsigned arrivals = 0;
    int cta = -1;
  };

  Warp& at(int slot) {
    if (static_cast<std::size_t>(slot) >= warps_.size())
      warps_.resize(static_cast<std::size_t>(slot) + 1);
    return warps_[static_cast<std::size_t>(slot)];
  }
  Phase& phase(int cta_slot) {
    if (static_cast<std::size_t>(cta_slot) >= phases_.size())
      phases_.resize(static_cast<std::size_t>(cta_slot) + 1);
    return phases_[static_cast<std::size_t>(cta_slot)];
  }

  // A warp whose time the scheduler cycles name: not at a barrier, not done, not free.
  static bool in_gap(const Warp& w) {
    return w.st != WarpState::kNone && w.st != WarpState::kBarrier && w.st != WarpState::kDone;
  }

  void clear_stretch(Warp& w) {
    if (w.stretch_any) w.stretch.fill(0);
    w.stretch_any = false;
  }
  void open_gap(Warp& w, Cycle now) {
    w.covered = now;
    w.run = WarpState::kNone;
    clear_stretch(w);
  }

  // The state a cycle with scheduler reason `r` shows. Inside a spin loop everything but a
  // policy's hold is spinning (waiting for the loop's own loads and atomics, or for an issue
  // slot); BOWS holds a warp only to back it off.
  WarpState gap_state(const Warp& w, sm::WarpCycle r) const {
    using sm::WarpCycle;
    if (r == WarpCycle::kHeld) return t_.o_.bows ? WarpState::kBackoff : WarpState::kHeld;
    if (w.ctx != WarpState::kIssue) return w.ctx;
    switch (r) {
      case WarpCycle::kStructural:
        return WarpState::kStructural;
      case WarpCycle::kData:
        return w.loads > 0 ? WarpState::kMemory : WarpState::kData;
      case WarpCycle::kBarrier:
        return WarpState::kBarrier;
      case WarpCycle::kControl:
        return WarpState::kControl;
      case WarpCycle::kFetch:
        return WarpState::kFetch;
      case WarpCycle::kExit:
        return WarpState::kDone;
      case WarpCycle::kNotPicked:
        return WarpState::kNotPicked;
      default:
        return WarpState::kStalled;
    }
  }

  // Scheduler cycle `now` showed state g for the warp (until its next cycle says otherwise).
  void note_run(Warp& w, int slot, WarpState g, Cycle now) {
    if (w.run == g) return;
    if (w.run == WarpState::kNone) {
      // The first reason since the last issue (the SM may have slept since): from there.
      w.run = g;
      w.run_since = w.covered;
      return;
    }
    end_run(w, slot, now);
    w.run = g;
    w.run_since = now;
  }

  // The run [run_since, t) ended: the current span's own state extends the span; a run of
  // another state at least merge_gap long becomes the next span; shorter ones wait.
  void end_run(Warp& w, int slot, Cycle t) {
    if (w.run == WarpState::kNone || t <= w.run_since) return;
    const Cycle len = t - w.run_since;
    if (w.run == w.st) {
      w.covered = t;
      clear_stretch(w);
    } else if (len >= t_.o_.merge_gap) {
      show_stretch(w, slot, w.run_since);
      set_state(w, slot, w.run, w.covered, w.last_pc);
      w.covered = t;
      clear_stretch(w);
    } else {
      w.stretch[static_cast<std::size_t>(w.run)] += len;
      w.stretch_any = true;
    }
  }

  // Short runs between `covered` and `until`: a span of their own when together longer than
  // merge_gap, named by the state that took most of their cycles (without runs, the SM slept:
  // waiting on memory when a load was in flight at the last issue); else they join the next
  // span.
  void show_stretch(Warp& w, int slot, Cycle until) {
    if (until <= w.covered + t_.o_.merge_gap) return;
    WarpState g = issuing(w.ctx) && w.ctx != WarpState::kIssue ? w.ctx
                  : w.loads_at_issue                           ? WarpState::kMemory
                                                               : WarpState::kStalled;
    if (w.stretch_any) {
      auto best = std::max_element(w.stretch.begin(), w.stretch.end());
      g = static_cast<WarpState>(best - w.stretch.begin());
    }
    set_state(w, slot, g, w.covered, w.last_pc);
    w.covered = until;
    clear_stretch(w);
  }

  // The gap since the last issue ends at `now` (an issue, the warp's exit, the launch's end).
  void close_gap(Warp& w, int slot, Cycle now) {
    end_run(w, slot, now);
    w.run = WarpState::kNone;
    show_stretch(w, slot, now);
    clear_stretch(w);
  }

  void set_state(Warp& w, int slot, WarpState s, Cycle now, Pc pc) {
    if (w.st == s) return;
    span(w, slot, now);
    w.st = s;
    w.since = now;
    w.pc = pc;
    w.insts = 0;
  }

  void span(const Warp& w, int slot, Cycle end) {
    if (w.st == WarpState::kNone || end <= w.since) return;
    const Cycle a0 = start_ + w.since, z0 = start_ + end;
    if (!t_.in_window(a0, z0)) return;
    const Cycle a = std::max(a0, t_.o_.window_start), z = std::min(z0, t_.o_.window_end);
    const std::string line = pc_line(t_, w.pc);
    event(FMT_COMPILE(
              "{{\"ph\":\"X\",\"pid\":{},\"tid\":{},\"ts\":{},\"dur\":{},\"name\":\"{}\",\"cat\":"
              "\"warp\",\"args\":{{\"cta\":{},\"warp\":{},\"pc\":\"{:#x}\",\"line\":{},\"insts\":{}"
              "}}}}"),
          pid_, slot, a, z - a, state_name(w.st), w.cta, w.warp, w.pc, json_string(line), w.insts);
  }

  void rate(Cycle bucket, std::uint64_t issues) {
    const Cycle ts = start_ + bucket * t_.o_.counter_period;
    if (ts < t_.o_.window_start || ts >= t_.o_.window_end) return;
    event(FMT_COMPILE("{{\"ph\":\"C\",\"pid\":{},\"tid\":0,\"ts\":{},\"name\":\"issue rate\","
                      "\"args\":{{\"ipc\":{:.4f}}}}}"),
          pid_, ts, static_cast<double>(issues) / static_cast<double>(t_.o_.counter_period));
  }

  bool named(int slot) {
    if (static_cast<std::size_t>(slot) >= names_.size()) names_.resize(slot + 1, false);
    return names_[static_cast<std::size_t>(slot)];
  }
  void name_warp(int slot) {
    names_[static_cast<std::size_t>(slot)] = true;
    if (!process_named_) {
      process_named_ = true;
      event(FMT_COMPILE(
                "{{\"ph\":\"M\",\"pid\":{},\"tid\":0,\"name\":\"process_name\",\"args\":{{\"name\":"
                "\"SM {}\"}}}}"),
            pid_, sm_);
      event(FMT_COMPILE(
                "{{\"ph\":\"M\",\"pid\":{},\"tid\":0,\"name\":\"process_sort_index\",\"args\":{{"
                "\"sort_index\":{}}}}}"),
            pid_, pid_);
    }
    event(FMT_COMPILE(
              "{{\"ph\":\"M\",\"pid\":{},\"tid\":{},\"name\":\"thread_name\",\"args\":{{\"name\":"
              "\"warp slot {}\"}}}}"),
          pid_, slot, slot);
  }
  bool named_cta(int cta_slot) {
    if (static_cast<std::size_t>(cta_slot) >= cta_names_.size())
      cta_names_.resize(cta_slot + 1, false);
    return cta_names_[static_cast<std::size_t>(cta_slot)];
  }
  void name_cta(int cta_slot) {
    cta_names_[static_cast<std::size_t>(cta_slot)] = true;
    event(FMT_COMPILE(
              "{{\"ph\":\"M\",\"pid\":{},\"tid\":{},\"name\":\"thread_name\",\"args\":{{\"name\":"
              "\"CTA slot {} barriers\"}}}}"),
          pid_, kBarrierTid + cta_slot, cta_slot);
  }

  // Lock words: who holds each one (from successful lock attempts to the next write that is
  // not an attempt), as the synchronization status decides it.
  void locks(const sm::MemoryEvent& e) {
    const func::MemAccess& acc = *e.access;
    const func::ExecInst& in = *e.inst;
    const bool attempt = in.sync_role == func::SyncRole::kLockAttempt ||
                         in.lock_op == func::IntrinsicOp::kLock ||
                         std::binary_search(t_.attempt_pcs_.begin(), t_.attempt_pcs_.end(), in.pc);
    const bool writes = is_store(in) || in.op == ptx::Opcode::kAtom ||
                        in.lock_op == func::IntrinsicOp::kStoreUnlock ||
                        in.lock_op == func::IntrinsicOp::kUnlock;
    if (!attempt && !writes) return;
    auto shared = [&](unsigned l) {
      return func::is_lock_bit(in.lock_op) ||
             acc.space[l] == static_cast<std::uint8_t>(ptx::Space::kShared);
    };
    std::lock_guard<std::mutex> g(t_.lock_mu_);
    if (!attempt && t_.owners_.empty()) return;
    const Cycle now = start_ + e.now;
    const Warp& me = at(e.slot);
    if (attempt) {
      for (LaneMask m = e.lanes & ~e.succeeded; m; m &= m - 1) {
        const auto l = static_cast<unsigned>(std::countr_zero(m));
        auto it = t_.owners_.find(lock_key(sm_, shared(l), acc.addr[l]));
        if (it != t_.owners_.end()) ++it->second.failed;
      }
      for (LaneMask m = e.succeeded; m; m &= m - 1) {
        const auto l = static_cast<unsigned>(std::countr_zero(m));
        const std::uint64_t k = lock_key(sm_, shared(l), acc.addr[l]);
        LockOwner& o = t_.owners_[k];
        if (o.sm >= 0) release(k, o, now);
        o = LockOwner{sm_, e.slot, me.cta, me.warp, now, 0, 0, acc.addr[l], shared(l)};
        // A hand-over: how long the word was free before this warp took it.
        if (auto r = t_.last_release_.find(k); r != t_.last_release_.end())
          o.after_release = static_cast<std::int64_t>(now - r->second);
      }
      return;
    }
    for (LaneMask m = e.lanes; m; m &= m - 1) {
      const auto l = static_cast<unsigned>(std::countr_zero(m));
      const std::uint64_t k = lock_key(sm_, shared(l), acc.addr[l]);
      auto it = t_.owners_.find(k);
      if (it == t_.owners_.end()) continue;
      release(k, it->second, now);
      t_.owners_.erase(it);
    }
  }

 private:
  // A hold ends: a span on the word's track when the word is contended (some attempt failed
  // while it was held, now or earlier).
  void release(std::uint64_t k, const LockOwner& o, Cycle now) {
    t_.last_release_[k] = now;
    auto tr = t_.lock_tracks_.find(k);
    if (tr == t_.lock_tracks_.end()) {
      if (o.failed == 0 && o.queued == 0) return;
      const int id = static_cast<int>(t_.lock_tracks_.size());
      tr = t_.lock_tracks_.emplace(k, id).first;
      if (!t_.named_locks_) {
        t_.named_locks_ = true;
        event(
            FMT_COMPILE(
                "{{\"ph\":\"M\",\"pid\":{},\"tid\":0,\"name\":\"process_name\",\"args\":{{\"name\":"
                "\"locks\"}}}}"),
            kLockPid);
      }
      event(FMT_COMPILE(
                "{{\"ph\":\"M\",\"pid\":{},\"tid\":{},\"name\":\"thread_name\",\"args\":{{\"name\":"
                "\"lock {}{:#x}\"}}}}"),
            kLockPid, id, o.shared ? fmt::format("shared SM {} ", o.sm) : std::string(), o.addr);
    }
    if (!t_.in_window(o.since, now + 1)) return;
    const Cycle a = std::max(o.since, t_.o_.window_start);
    const Cycle z = std::min(std::max(now, o.since + 1), t_.o_.window_end);
    event(
        FMT_COMPILE(
            "{{\"ph\":\"X\",\"pid\":{},\"tid\":{},\"ts\":{},\"dur\":{},\"name\":\"held by {}.{}\","
            "\"cat\":\"lock\",\"args\":{{\"addr\":\"{:#x}\",\"space\":\"{}\",\"sm\":{},\"slot\":{},"
            "\"cta\":{},\"warp\":{},\"failed_attempts\":{},\"queued\":{},\"after_release\":{}}}}}"),
        kLockPid, tr->second, a, std::max<Cycle>(1, z - a), o.cta, o.warp, o.addr,
        o.shared ? "shared" : "global", o.sm, o.slot, o.cta, o.warp, o.failed, o.queued,
        o.after_release);
  }

  // Formats one event straight into the chunk (no string per event; formats compiled).
  template <class S, class... Args>
  void event(const S& f, const Args&... args) {
    chunk_ += TraceWriter::event_prefix();
    fmt::format_to(std::back_inserter(chunk_), f, args...);
    ++count_;
    if (chunk_.size() >= kChunk) flush();
  }

  Tracer& t_;
  int sm_, pid_;
  std::unique_ptr<spin::Ddos> ddos_;
  std::uint64_t ddos_counts_[spin::kDdosStatCount] = {};
  Cycle start_ = 0;
  std::vector<Warp> warps_;
  std::vector<Phase> phases_;
  std::vector<bool> names_, cta_names_;
  bool process_named_ = false;
  std::string chunk_;
  std::uint64_t count_ = 0;
  Cycle bucket_ = 0;
  std::uint64_t bucket_issues_ = 0;
  bool any_issue_ = false;
};

// Here rather than in tracer_memory.cc: it needs SmObserver complete.
Tracer::Waiter Tracer::waiter(const mem::Packet& p, unsigned lane, Cycle now) const {
  Waiter w;
  w.sm = p.sm;
  w.slot = hier_->warp_slot_of(p);
  w.lane = lane;
  w.since = now;
  if (w.sm >= 0 && static_cast<std::size_t>(w.sm) < sms_.size() && w.slot >= 0)
    std::tie(w.cta, w.warp) = sms_[static_cast<std::size_t>(w.sm)]->who(w.slot);
  return w;
}

Tracer::Tracer(TraceOptions o) : o_(std::move(o)), writer_(o_.path) {}
Tracer::~Tracer() = default;

void Tracer::emit_gpu(const std::string& event) {
  std::string s(TraceWriter::event_prefix());
  s += event;
  writer_.append(s, 1);
}

void Tracer::launch_begin(const gpu::LaunchBegin& b) {
  start_ = b.start;
  kernel_ = b.kernel;
  spin_ranges_.clear();
  lines_.clear();
  attempt_pcs_.clear();
  for (const func::DecodedFunction& f : b.prog->functions()) {
    bool marked = false;
    for (const func::ExecInst& in : f.code) {
      lines_[in.pc] = b.prog->source_of(in);
      if (in.spin_mark && in.target_pc <= in.pc) spin_ranges_.emplace_back(in.target_pc, in.pc);
      marked = marked || in.spin_mark;
    }
    if (marked) continue;
    // A function without spin-loop marks (a CUDA program under exec): a loop that holds a
    // compare-and-swap or a lock-bit load is taken for a lock loop, and those for attempts.
    auto acquire = [](const func::ExecInst& e) {
      return (e.op == ptx::Opcode::kAtom && e.a.op == ptx::Mod::kCasOp) ||
             e.lock_op == func::IntrinsicOp::kLoadLock;
    };
    for (const func::ExecInst& br : f.code) {
      if (br.op != ptx::Opcode::kBra || br.target_pc > br.pc) continue;
      bool lock_loop = false;
      for (const func::ExecInst& in : f.code)
        if (in.pc >= br.target_pc && in.pc <= br.pc && acquire(in)) {
          lock_loop = true;
          attempt_pcs_.push_back(in.pc);
        }
      if (lock_loop) spin_ranges_.emplace_back(br.target_pc, br.pc);
    }
  }
  std::sort(attempt_pcs_.begin(), attempt_pcs_.end());
  while (sms_.size() < b.sms.size())
    sms_.push_back(std::make_unique<SmObserver>(*this, static_cast<int>(sms_.size())));
  for (std::size_t i = 0; i < b.sms.size(); ++i) {
    sms_[i]->begin(b.start, b.sms[i]->num_slots());
    b.sms[i]->events().subscribe(sms_[i].get());
    b.sms[i]->events().subscribe_cycles(sms_[i].get());
  }
  hier_ = b.hier;
  atomics_.clear();
  if (hier_) hier_->observe_atomics(this);
  if (b.index == 0)
    emit_gpu(
        "{\"ph\":\"M\",\"pid\":0,\"tid\":0,\"name\":\"thread_name\",\"args\":{\"name\":"
        "\"kernels\"}}");
}

void Tracer::launch_end(const gpu::LaunchEnd& e) {
  for (auto& s : sms_) s->end(e.cycles);
  for (unsigned k = 0; k < atomics_.size(); ++k) {
    Occupancy& o = atomics_[k];
    if (!o.any) continue;
    occupancy_to(k, e.start + e.cycles);
    if (o.at > o.bucket * o_.counter_period)
      flush_occupancy(k, o, o.at - o.bucket * o_.counter_period);
  }
  // Requests still parked when the launch ends (a lock never released) are drawn to the end.
  for (auto& [addr, q] : queues_) {
    if (!q.waiting.empty()) queue_span(addr, q, e.start + e.cycles);
    q.waiting.clear();
  }
  hier_ = nullptr;
  const func::LaunchResult& r = *e.result;
  if (in_window(e.start, e.start + e.cycles + 1)) {
    const Cycle a = std::max(e.start, o_.window_start);
    const Cycle z = std::min(e.start + std::max<Cycle>(1, e.cycles), o_.window_end);
    emit_gpu(fmt::format(
        "{{\"ph\":\"X\",\"pid\":0,\"tid\":0,\"ts\":{},\"dur\":{},\"name\":{},\"cat\":\"kernel\","
        "\"args\":{{\"launch\":{},\"cycles\":{},\"completed\":{}}}}}",
        a, std::max<Cycle>(1, z - a), json_string(kernel_), e.index, e.cycles, r.completed));
  }
  // BOWS's delay limit per SM (its records: cycle, limit).
  for (const auto& [sm, rec] : e.records) {
    if (rec->kind != "bows_delay_limit") continue;
    double cycle = 0, limit = 0;
    for (const auto& [k, v] : rec->fields) {
      if (k == "cycle") cycle = v;
      if (k == "limit") limit = v;
    }
    const Cycle ts = e.start + static_cast<Cycle>(cycle);
    if (ts < o_.window_start || ts >= o_.window_end) continue;
    emit_gpu(fmt::format(
        "{{\"ph\":\"C\",\"pid\":0,\"tid\":0,\"ts\":{},\"name\":\"BOWS delay limit SM {}\","
        "\"args\":{{\"cycles\":{}}}}}",
        ts, sm, limit));
  }
  if (!r.completed) {
    emit_gpu(fmt::format(
        "{{\"ph\":\"i\",\"s\":\"g\",\"pid\":0,\"tid\":0,\"ts\":{},\"name\":\"watchdog stop\","
        "\"cat\":\"watchdog\",\"args\":{{\"reason\":{},\"report\":{}}}}}",
        std::clamp(e.start + e.cycles, o_.window_start,
                   o_.window_end == kNever ? kNever : o_.window_end - 1),
        json_string(r.watchdog_reason), json_string(r.watchdog_report)));
    if (watchdog_.empty()) watchdog_ = r.watchdog_report;
  }
  // Open holds were drawn by end(); the words' tracks stay known.
  {
    std::lock_guard<std::mutex> g(lock_mu_);
    owners_.clear();
  }
  writer_.flush();
}

void Tracer::close(const std::string& description) {
  std::string other = fmt::format(
      "\"tool\":\"simtsync\",\"time_unit\":\"1 us of ts = 1 core cycle\",\"run\":{},"
      "\"merge_gap\":{},\"window_start\":{},\"window_end\":{},\"ddos\":{{\"source\":\"{}\","
      "\"spinning_entries\":{},\"sib_confirmations\":{}}}",
      json_string(description), o_.merge_gap, o_.window_start,
      o_.window_end == kNever ? std::string("null") : std::to_string(o_.window_end),
      o_.policy_ddos ? "policy" : "seed defaults", ddos_counts_[spin::kDdosSpinningEntries],
      ddos_counts_[spin::kDdosSibConfirmations]);
  if (!watchdog_.empty()) other += ",\"watchdog_report\":" + json_string(watchdog_);
  writer_.close(other);
}

std::unique_ptr<Tracer> attach_tracer(const std::string& path, const std::string& window,
                                      gpu::TimingGpu& gpu) {
  TraceOptions o;
  o.path = path;
  if (!window.empty()) parse_window(window, o);
  const sched::SchedulerParams& sp = gpu.params().sm.scheduler;
  o.bows = sp.impl == "bows";
  // The DDOS that names `spin (DDOS)` spans: the policy's own parameters when it runs one.
  if (o.bows && sp.params.get_string("sib_source") == "ddos") {
    o.ddos = spin::ddos_params(sp.params);
    o.policy_ddos = true;
  }
  auto t = std::make_unique<Tracer>(o);
  gpu.set_launch_observer(t.get());
  return t;
}

}  // namespace simtsync::trace
