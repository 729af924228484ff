#include "timing/gpu/progress_watch.h"

#include <fmt/format.h>

#include <algorithm>

#include "func/watchdog.h"
#include "timing/gpu/launch.h"

namespace simtsync::gpu {
namespace {

bool live(const func::Warp& w) {
  return w.simt && w.state != func::WarpState::kFinished;
}

}  // namespace

ProgressWatch::ProgressWatch(const GpuParams& p)
    : window_(p.no_completion_window),
      starvation_window_(p.starvation_window),
      // Enough memory samples inside one window that its evidence is never stale by much.
      memory_interval_(std::clamp<Cycle>(p.no_completion_window / 16, kSampleCycles,
                                         Cycle{64} * kSampleCycles)) {}

std::uint64_t ProgressWatch::memory_hash(const Launch& l) {
  std::uint64_t h = l.gmem ? l.gmem->content_hash() : 0;
  for (const auto& c : l.ctas) {  // the resident CTAs
    h = func::hash_mix(h, static_cast<std::uint64_t>(c.index));
    for (std::uint8_t b : c.shared) h = func::hash_mix(h, b);
  }
  for (const auto& s : l.sms) {
    const std::uint8_t* bits = s->lock_bits();
    if (!bits) continue;
    for (unsigned i = 0; i < l.p.sm.shared_lock_bits; ++i) h = func::hash_mix(h, bits[i]);
  }
  return h;
}

std::string ProgressWatch::sample(Launch& l, Cycle now) {
  next_ = now + kSampleCycles;
  const bool cas_suspect = watch_cas(l, now);
  if (!cas_suspect) {
    cas_sampled_since_ = 0;
    cas_states_.clear();
  } else {
    if (cas_sampled_since_ == 0) cas_sampled_since_ = cas_new_state_ = now;
    if (cas_states_.insert(l.gmem ? l.gmem->content_hash() : 0).second) cas_new_state_ = now;
  }
  std::size_t live_warps = 0;
  for (const auto& w : l.warps) live_warps += live(w) ? 1 : 0;
  // Only completions start CTAs, so between completions the live count falls only by exits.
  if (l.done_ctas != done_ctas_ || live_warps != live_warps_) {
    done_ctas_ = l.done_ctas;
    live_warps_ = live_warps;
    last_evidence_ = now;
    states_.clear();
    seen_progress_ = ~std::uint64_t{0};  // the next memory sample is a fresh reference
    next_memory_ = now + memory_interval_;
    // Losing from here on, if at all; the warps that are gone are forgotten.
    std::unordered_map<int, CasWatch> kept;
    for (const auto& w : l.warps) {
      const auto it = cas_.find(w.global_id);
      if (it == cas_.end() || !live(w)) continue;
      it->second.restart(it->second.wins, it->second.losses);
      kept.emplace(w.global_id, std::move(it->second));
    }
    cas_.swap(kept);
    return {};
  }
  std::string why = check_memory(l, now, window_ != 0 && now >= next_memory_);
  if (why.empty()) why = check_starvation(l, now);
  if (why.empty()) why = check_cas_starvation(l, now);
  return why;
}

std::string ProgressWatch::check_memory(Launch& l, Cycle now, bool due) {
  const bool expiring = window_ != 0 && now - last_evidence_ > window_;
  if (!due && !expiring) return {};
  next_memory_ = now + memory_interval_;
  // The functional progress counter moves on every memory value change (and exit, barrier
  // release): unchanged, memory is what the last sample hashed.
  const std::uint64_t progress = l.executors.front()->progress();
  if (progress != seen_progress_) {
    seen_progress_ = progress;
    ++memory_samples_;
    if (states_.insert(memory_hash(l)).second) {
      ++new_states_;
      // The first sample after a completion only sets the reference.
      if (states_.size() > 1) last_evidence_ = now;
      return {};
    }
    ++revisits_;
  }
  if (!expiring) return {};
  return fmt::format(
      "suspected livelock: for {} cycles no CTA completed, no warp exited and memory reached no "
      "state it had not held before ({} memory samples, {} of them a return to an earlier "
      "state); watchdog.no_completion_window = {} sets the window (0: off)",
      now - last_evidence_, states_.size() + revisits_, revisits_, window_);
}

std::string ProgressWatch::scheduler_hint(const Launch& l, const std::vector<bool>& still) {
  // Under the fixed scheduler priority, scheduler 0 of an SM issues first every cycle, so its
  // spinning warps take each LD/ST queue entry that frees and the other schedulers' warps (a
  // lock holder among them) may never issue: most warps that did not advance are then on a
  // scheduler other than 0.
  const unsigned n = l.p.sm.num_schedulers;
  if (n < 2 || l.p.sm.rotate_scheduler_priority) return {};
  unsigned on_first = 0, on_others = 0;
  for (const auto& sm : l.sms) {
    const auto& slots = sm->slots();
    for (std::size_t s = 0; s < slots.size(); ++s) {
      const func::Warp* w = slots[s].warp;
      if (!w || !still[static_cast<size_t>(w->global_id)]) continue;
      ++(s % n == 0 ? on_first : on_others);
    }
  }
  // Warps spread evenly over the schedulers put 1/n of them on scheduler 0.
  if (on_others == 0 || on_first * n > on_first + on_others) return {};
  return fmt::format(
      "; {} of them are on scheduler 0 of their SM and {} on the others: with "
      "sm.scheduler_priority = fixed scheduler 0 issues first every cycle and its warps can take "
      "every LD/ST queue entry, so sm.scheduler_priority=rotate may let them run",
      on_first, on_others);
}

std::string ProgressWatch::check_starvation(Launch& l, Cycle now) {
  if (starvation_window_ == 0 || !l.dog.quiet()) return {};
  func::Executor& ex = *l.executors.front();
  const Cycle epoch = l.dog.last_progress_time();
  auto snapshot = [&] {
    quiet_epoch_ = epoch;
    snapshot_at_ = now;
    snapshot_.assign(l.warps.size(), 0);
    for (auto& w : l.warps)
      if (live(w) && w.state == func::WarpState::kRunning)
        snapshot_[static_cast<size_t>(w.global_id)] = l.dog.hash_state(ex, w) | 1;
  };
  if (epoch != quiet_epoch_) {
    snapshot();
    return {};
  }
  if (now - snapshot_at_ < starvation_window_) return {};
  unsigned cycling = 0, still = 0, at_barrier = 0;
  std::vector<bool> is_still(l.warps.size(), false);
  for (auto& w : l.warps) {
    if (!live(w)) continue;
    if (w.state == func::WarpState::kAtBarrier) {
      ++at_barrier;
    } else if (w.cycling) {
      ++cycling;
    } else if (snapshot_[static_cast<size_t>(w.global_id)] == (l.dog.hash_state(ex, w) | 1)) {
      ++still;
      is_still[static_cast<size_t>(w.global_id)] = true;
    } else {
      snapshot();  // a warp moved (its registers change): watch again from here
      return {};
    }
  }
  if (cycling == 0) return {};
  return fmt::format(
      "suspected livelock (starvation): for {} cycles memory did not change, no warp exited and "
      "no barrier released, while {} warp(s) repeated the same state in a spin loop and {} "
      "warp(s) did not advance at all{} (the issue scheduler never picks them?){}; "
      "watchdog.starvation_window = {} sets the window (0: off)",
      now - epoch, cycling, still,
      at_barrier ? fmt::format(", {} waiting at a barrier", at_barrier) : std::string(),
      scheduler_hint(l, is_still), starvation_window_);
}

bool ProgressWatch::watch_cas(const Launch& l, Cycle now) {
  // Who took which word since the last sample (the word of a warp's last compare-and-swap: a
  // warp that took one word and then tried another is counted on the second).
  struct Win {
    int cta;
    std::uint64_t n;
  };
  std::unordered_map<Addr, std::vector<Win>> wins;
  for (const auto& w : l.warps) {
    if (w.cas_wins == 0 && w.cas_losses == 0) continue;
    if (!live(w)) {
      cas_.erase(w.global_id);
      continue;
    }
    CasWatch& c = cas_[w.global_id];
    if (w.cas_wins != c.wins) {
      wins[w.cas_addr].push_back({w.cta, w.cas_wins - c.wins});
      c.restart(w.cas_wins, w.cas_losses);
      continue;
    }
    if (w.cas_losses == c.losses) {
      c.restart(c.wins, w.cas_losses);  // not trying now: not starving at a compare-and-swap
      continue;
    }
    if (c.losing_since == 0) c.losing_since = now;
    c.losses = w.cas_losses;
  }
  bool suspect = false;
  for (const auto& w : l.warps) {
    const auto it = cas_.find(w.global_id);
    if (it == cas_.end() || it->second.losing_since == 0) continue;
    CasWatch& c = it->second;
    if (const auto f = wins.find(w.cas_addr); f != wins.end()) {
      for (const Win& x : f->second) {
        if (x.cta == w.cta) continue;
        c.rival_wins += x.n;
        auto r = std::find_if(c.rivals.begin(), c.rivals.end(),
                              [&](const auto& e) { return e.first == x.cta; });
        if (r != c.rivals.end())
          r->second = now;
        else if (c.rivals.size() < kMaxRivals)
          c.rivals.emplace_back(x.cta, now);
      }
    }
    // Half the window in, memory is sampled at every sample (not only every memory_interval_),
    // so that "no new state" covers the rest of it; earlier, a warp that merely waits its turn
    // at a busy lock would make every sample hash memory.
    suspect |= starvation_window_ != 0 && now - c.losing_since >= starvation_window_ / 2 &&
               c.rival_wins >= 2;
  }
  return suspect;
}

std::string ProgressWatch::check_cas_starvation(const Launch& l, Cycle now) const {
  // Global memory hashed at every sample for half the window without a new state.
  const Cycle half = starvation_window_ / 2;
  if (starvation_window_ == 0 || cas_sampled_since_ == 0 || now - cas_new_state_ < half) return {};
  const func::Warp* worst = nullptr;
  const CasWatch* wc = nullptr;
  std::vector<int> starved;  // CTAs with a starved warp
  for (const auto& w : l.warps) {
    const auto it = cas_.find(w.global_id);
    if (it == cas_.end() || !live(w)) continue;
    const CasWatch& c = it->second;
    // Its rivals took the word at least twice: it was free at times, and this warp never got it.
    if (c.losing_since == 0 || now - c.losing_since < starvation_window_ || c.rival_wins < 2)
      continue;
    if (std::find(starved.begin(), starved.end(), w.cta) == starved.end()) starved.push_back(w.cta);
    if (!worst || c.losing_since < wc->losing_since) {
      worst = &w;
      wc = &c;
    }
  }
  if (!worst) return {};
  int sm = -1;
  for (const auto& c : l.ctas)
    if (c.index == worst->cta) sm = c.sm;
  // The compare-and-swap's PC as the watchdog's report writes PCs: function+offset (source).
  const func::DecodedFunction* fn = nullptr;
  const func::ExecInst* in = l.prog.at(worst->cas_pc, &fn);
  const std::string where = in && fn
                                ? fmt::format("PC {}+{:#x} ({})", fn->name,
                                              worst->cas_pc - fn->base_pc, l.prog.source_of(*in))
                                : fmt::format("PC {}", worst->cas_pc);
  auto list = [](const std::vector<int>& ctas, int skip) {
    std::string s;
    unsigned shown = 0;
    for (int c : ctas) {
      if (c == skip) continue;
      if (++shown > 8) return s + ", ...";
      s += fmt::format("{}{}", s.empty() ? "" : ", ", c);
    }
    return s;
  };
  std::sort(starved.begin(), starved.end());
  std::vector<int> recent;  // rivals that took the word within the window
  for (const auto& [c, at] : wc->rivals)
    if (now - at < starvation_window_) recent.push_back(c);
  std::sort(recent.begin(), recent.end());
  return fmt::format(
      "starvation: CTA {} (warp {} on SM {}) lost every compare-and-swap on [{:#x}] for {} "
      "cycles ({} attempts in a row, at {}) while other CTAs took that word {} times (in the "
      "last {} cycles CTA(s) {}){}; no CTA completed and no warp exited in that time and global "
      "memory reached no state it had not held before in the last {} cycles, so whatever it would "
      "release next (a lock, a semaphore's permit) the others wait for in vain (the spin "
      "loops' timing repeats exactly and a rival reaches the word first each time it is free: "
      "docs/timing-model.md, \"Starvation at a compare-and-swap\"; a back-off in the spin loop "
      "breaks the pattern); watchdog.starvation_window = {} sets the window (0: off)",
      worst->cta, worst->warp_in_cta, sm, worst->cas_addr, now - wc->losing_since,
      worst->cas_losses, where, wc->rival_wins, starvation_window_, list(recent, -1),
      starved.size() > 1
          ? fmt::format("; CTA(s) {} ({} starved CTAs in all) lost every one for at least {} "
                        "cycles too",
                        list(starved, worst->cta), starved.size(), starvation_window_)
          : std::string(),
      now - cas_new_state_, starvation_window_);
}

}  // namespace simtsync::gpu
