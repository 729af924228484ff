#include "func/functional_runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "func/launch_setup.h"
#include "ptx/printer.h"

namespace simtsync::func {
namespace {

// Global memory with the resident CTAs' shared memory and lock bits: what the watchdogs below
// call memory.
std::uint64_t memory_hash(const GlobalMemory& mem, const CtaTable& ctas) {
  std::uint64_t h = mem.content_hash();
  for (const auto& c : ctas) {
    h = hash_mix(h, static_cast<std::uint64_t>(c.index));
    for (std::uint8_t b : c.shared) h = hash_mix(h, b);
    for (unsigned i = 0; c.lock_bits && i < c.lock_count; ++i) h = hash_mix(h, c.lock_bits[i]);
  }
  return h;
}

// The functional mode's no-completion window (watchdog.no_completion_window, counted in rounds
// here: a round steps every running warp once, so rounds play the part of the timing mode's
// cycles, and a kernel with many warps is not stopped sooner than one with few): the timing
// mode's gpu::ProgressWatch. Evidence of progress: a warp exited, or global memory (with the
// CTAs' shared memory and lock bits) reached a state it had not held at any sample since the
// last exit. Samples every kSample rounds; memory is hashed at most every window / 16 rounds,
// and only after a span without exits.
class NoCompletionWindow {
 public:
  static constexpr std::uint64_t kSample = std::uint64_t{1} << 16;

  explicit NoCompletionWindow(std::uint64_t window)
      : window_(window), interval_(std::clamp<std::uint64_t>(window / 16, kSample, 64 * kSample)) {}

  bool due(std::uint64_t round) const { return window_ != 0 && round >= next_; }

  // Returns the reason to stop, or "".
  std::string sample(std::uint64_t now, const Executor& ex, const GlobalMemory& mem,
                     const CtaTable& ctas, std::size_t finished) {
    next_ = now + kSample;
    if (finished != finished_) {
      finished_ = finished;
      last_evidence_ = now;
      states_.clear();
      seen_progress_ = ~std::uint64_t{0};
      next_memory_ = now + interval_;
      return {};
    }
    const bool expiring = now - last_evidence_ > window_;
    if (now < next_memory_ && !expiring) return {};
    next_memory_ = now + interval_;
    if (ex.progress() != seen_progress_) {
      seen_progress_ = ex.progress();
      ++samples_;
      if (states_.insert(memory_hash(mem, ctas)).second) {
        if (states_.size() > 1) last_evidence_ = now;
        return {};
      }
      ++revisits_;
    }
    if (!expiring) return {};
    return fmt::format(
        "suspected livelock: for {} rounds (each running warp one instruction) no warp exited and "
        "memory reached no state "
        "it had not held before ({} memory samples, {} of them a return to an earlier state); "
        "watchdog.no_completion_window = {} sets the window, in rounds in the "
        "functional mode (0: off)",
        now - last_evidence_, samples_, revisits_, window_);
  }

 private:
  std::uint64_t window_, interval_;
  std::uint64_t next_ = kSample, next_memory_ = 0, last_evidence_ = 0;
  std::size_t finished_ = 0;
  std::uint64_t seen_progress_ = ~std::uint64_t{0};
  std::unordered_set<std::uint64_t> states_;
  std::uint64_t samples_ = 0, revisits_ = 0;
};

// Livelock by recurrence (issue 50): a kernel whose spinning warps keep changing memory (a
// try-lock that takes Y, fails on Z, releases Y and retries) never leaves memory unchanged, so
// the watchdog's quiet-memory check never starts, and its states repeat, so only the window
// above ends it, after 50 million rounds. The functional mode is deterministic: if, with no warp
// exited, the whole machine (memory, shared memory and lock bits, each warp's state, PC, active
// mask, reconvergence entries, registers and local memory, and the CTAs' barriers) is at the
// end of a round in a state it held at the end of an earlier round, it repeats that cycle for
// ever. Sampled at round ends once twice watchdog.quiet_steps warp instructions ran without an
// exit (and not while memory is quiet: the watchdog proves that case itself), then every `interval`
// rounds, which grows with the memory and registers to hash (at most about 1/32 of the rounds'
// work); the sampled sequence repeats within one period of the cycle. Only for reconvergence
// units whose entries are their whole state (IReconvergence::state_is_entries: the IPDOM stack)
// and that keep no time. Up to kMaxStates samples per exit-free span.
class Recurrence {
 public:
  static constexpr std::uint64_t kQuiet = std::uint64_t{1} << 12;
  static constexpr std::size_t kMaxStates = 1 << 14;

  // `warm_steps`: warp instructions without an exit before the first sample, so that a kernel
  // whose memory stays unchanged gets the watchdog's own proof first (its report names each
  // spin loop).
  explicit Recurrence(std::uint64_t warm_steps) : warm_steps_(warm_steps) {}

  bool due(std::uint64_t round) const { return round >= next_; }

  std::string sample(std::uint64_t round, const Executor& ex, const GlobalMemory& mem,
                     const CtaTable& ctas, WarpTable& warps, const Watchdog& dog,
                     std::size_t finished) {
    if (finished != finished_ || states_.size() >= kMaxStates) {
      if (finished != finished_) {
        span_start_ = round;
        span_steps_ = ex.steps();
      }
      finished_ = finished;
      states_.clear();
      next_ = round + kQuiet;
      return {};
    }
    if (ex.steps() - span_steps_ < warm_steps_ || dog.quiet()) {
      next_ = round + kQuiet;
      return {};
    }
    std::uint64_t work = mem.page_count() * (GlobalMemory::kPageSize / 8), running = 0;
    std::uint64_t h = memory_hash(mem, ctas);
    for (const auto& c : ctas) {
      work += c.shared.size();
      for (const NamedBarrier& b : c.barriers) h = hash_mix(hash_mix(h, b.arrived), b.expected);
    }
    for (Warp& w : warps) {
      h = hash_mix(hash_mix(h, static_cast<std::uint64_t>(w.global_id)),
                   static_cast<std::uint64_t>(WarpState{w.state}));
      if (w.state == WarpState::kFinished || !w.simt) continue;
      if (w.simt->timed() || !w.simt->state_is_entries()) {  // state the hash cannot see
        next_ = ~std::uint64_t{0};
        return {};
      }
      ++running;
      h = hash_mix(hash_mix(h, w.simt->pc()), w.simt->active());
      for (const auto& e : w.simt->entries())
        h = hash_mix(hash_mix(hash_mix(h, e.pending), static_cast<std::uint64_t>(e.lock)),
                     (static_cast<std::uint64_t>(e.table) << 8) | (e.call ? 1u : 0u) |
                         (e.blocked ? 2u : 0u) | (e.spilled ? 4u : 0u));
      h = hash_mix(h, dog.hash_state(ex, w));
      work += std::uint64_t{w.size()} * 8;
    }
    next_ = round + std::max<std::uint64_t>(1024, 32 * work / std::max<std::uint64_t>(1, running));
    const auto [it, fresh] = states_.emplace(h, round);
    if (fresh) return {};
    return fmt::format(
        "livelock: no warp exited for {} rounds and the whole machine (memory, shared memory and "
        "lock bits, every warp's PC, reconvergence entries, registers and local memory) is back "
        "in the state it held {} rounds earlier, so it repeats that cycle for ever (memory "
        "changes inside the cycle: a lock taken and released again is not progress)",
        round - span_start_, round - it->second);
  }

 private:
  std::uint64_t warm_steps_;
  std::uint64_t next_ = kQuiet, span_start_ = 0, span_steps_ = 0;
  std::size_t finished_ = 0;
  std::unordered_map<std::uint64_t, std::uint64_t> states_;  // state hash -> round first seen
};

}  // namespace

std::size_t resident_ctas(std::uint64_t resident_warps, const LaunchInfo& li) {
  const std::uint64_t grid = li.grid.count();
  if (resident_warps == 0) return static_cast<std::size_t>(grid);
  return static_cast<std::size_t>(
      std::min(grid, std::max<std::uint64_t>(1, resident_warps / li.warps_per_cta)));
}

LaunchResult FunctionalRunner::run(const DecodedFunction& kernel, Dim3 grid, Dim3 block,
                                   std::uint32_t dynamic_shared) {
  LaunchInfo li = make_launch_info(kernel, grid, block, opts_.warp_size, dynamic_shared);
  li.lock_bits = opts_.lock_bits;
  li.max_call_depth = opts_.watchdog.max_call_depth;
  if (opts_.reconvergence.make) li.reconvergence = &opts_.reconvergence;
  // CTAs become resident in launch order while the resident warps stay within
  // sim.functional_resident_warps (0: the whole grid at once), and leave when they complete.
  CtaTable ctas;
  WarpTable warps;
  begin_grid(li, ctas, warps);
  const std::size_t max_resident = resident_ctas(opts_.resident_warps, li);
  const std::size_t cta_words = std::size_t{li.warps_per_cta} * prog_.total_regs() * li.warp_size;
  RegisterArena arena(max_resident * cta_words);
  std::vector<std::size_t> free_slots;  // arena slots (one CTA's registers each) not in use
  for (std::size_t i = max_resident; i-- > 0;) free_slots.push_back(i);
  std::unordered_map<std::size_t, std::size_t> slot_of;  // resident CTA -> its arena slot
  std::vector<std::size_t> completed;                    // CTAs whose last warp exited this round
  auto admit = [&] {
    while (ctas.created() < ctas.size() && !free_slots.empty()) {
      slot_of[ctas.created()] = free_slots.back();
      create_cta(prog_, li, ctas, warps, arena.data() + free_slots.back() * cta_words);
      free_slots.pop_back();
    }
  };
  // Completed CTAs leave (their registers zeroed for the next) and pending ones take their room.
  auto retire = [&] {
    for (std::size_t c : completed) {
      const std::size_t slot = slot_of.at(c);
      slot_of.erase(c);
      std::fill_n(arena.data() + slot * cta_words, cta_words, std::uint64_t{0});
      free_slots.push_back(slot);
      destroy_cta(c, ctas, warps);
    }
    completed.clear();
    admit();
  };
  admit();

  Executor ex(prog_, mem_, li, warps, ctas);
  Watchdog dog(opts_.watchdog);
  NoCompletionWindow window(opts_.watchdog.no_completion_window);
  Recurrence recurrence(2 * opts_.watchdog.quiet_steps);
  std::size_t finished = 0;
  LaunchResult result;
  auto stopped = [&] {
    result.watchdog_reason = dog.reason();
    result.watchdog_report = dog.report();
    result.stats = ex.stats();
    result.printf_output = Executor::merged_printf({&ex});
    return result;
  };
  std::size_t live = warps.live_count();
  // Units that keep time (AWARE's timeouts and insertion latency) count rounds of this loop as
  // cycles; their memory requests (table spills and fills) are answered at once.
  Cycle round = 0;
  // After retire() every resident CTA has a warp that has not exited.
  while (warps.live_count() > 0 || ctas.created() < ctas.size()) {
    bool any_ran = false;
    live = 0;
    ++round;
    for (Warp& w : warps) {
      if (w.state != WarpState::kRunning) {
        if (w.state == WarpState::kAtBarrier) ++live;
        continue;
      }
      if (simt::TimedHooks* t = w.simt->timed()) {
        t->tick(round);
        simt::UnitRequest q;
        while (t->pop_request(q)) {
          t->request_sent(q.tag);
          simt::MemoryReply rep;
          rep.from_unit = true;
          rep.tag = q.tag;
          t->memory_reply(rep);
        }
        if (!w.simt->ready()) {
          ++live;
          any_ran |= t->next_event(round) != kNever;  // waits for time, not another warp
          continue;
        }
      }
      const Pc before = w.simt->pc();
      if (opts_.trace) {
        const DecodedFunction* fn = nullptr;
        if (const ExecInst* in = prog_.at(before, &fn))
          fmt::print(stderr, "w{:<4} {:#06x} {:#010x}  {}\n", w.global_id, before - fn->base_pc,
                     w.simt->active(), ptx::print_instruction(*fn->ir, *in->ir));
      }
      ex.step(w);
      any_ran = true;
      if (w.state != WarpState::kFinished) {
        ++live;
      } else {
        ++finished;
        if (ctas[static_cast<std::size_t>(w.cta)].live_warps == 0)
          completed.push_back(static_cast<std::size_t>(w.cta));
      }
      bool stop = dog.after_step(ex, w, before, warps);
      if (!stop && window.due(round)) {
        if (std::string why = window.sample(round, ex, mem_, ctas, finished); !why.empty()) {
          dog.stop(ex, warps, why);
          stop = true;
        }
      }
      if (stop) return stopped();
    }
    if (!any_ran && live > 0) {
      dog.all_blocked(ex, warps);
      return stopped();
    }
    if (recurrence.due(round)) {
      if (std::string why = recurrence.sample(round, ex, mem_, ctas, warps, dog, finished);
          !why.empty()) {
        dog.stop(ex, warps, why);
        return stopped();
      }
    }
    retire();
  }
  result.completed = true;
  result.stats = ex.stats();
  result.printf_output = Executor::merged_printf({&ex});
  return result;
}

}  // namespace simtsync::func
