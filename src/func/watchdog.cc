#include "func/watchdog.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <tuple>

#include "common/check.h"

namespace simtsync::func {
namespace {

// A hash of runs of 8-byte words in four independent chains: one chain waits on each mix in
// turn, and a loop's quiet epoch hashes its warp (registers and local memory) at every backward
// jump (4.7% of TSP at paper size, whose climbers keep their tours in local memory: issue 48).
class Chains {
 public:
  explicit Chains(std::uint64_t h) : c_{h, 1, 2, 3} {}
  // Words at p, p + 8, ... below p + bytes.
  void words(const std::uint8_t* p, std::size_t bytes) {
    std::size_t i = 0;
    for (; i + 32 <= bytes; i += 32)
      for (unsigned k = 0; k < 4; ++k) c_[k] = hash_mix(c_[k], word(p + i + 8 * k));
    for (; i < bytes; i += 8) c_[0] = hash_mix(c_[0], word(p + i));
  }
  std::uint64_t value() const { return hash_mix(hash_mix(hash_mix(c_[0], c_[1]), c_[2]), c_[3]); }

 private:
  static std::uint64_t word(const std::uint8_t* p) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }
  std::uint64_t c_[4];
};

}  // namespace

std::uint64_t Watchdog::hash_state(const Executor& ex, Warp& w) const {
  std::uint64_t h = 0;
  for (const auto& e : w.simt->entries()) h = hash_mix(hash_mix(hash_mix(h, e.pc), e.rpc), e.mask);
  const DecodedFunction& fn = ex.program().functions()[static_cast<size_t>(w.function)];
  if (fn.nregs > 0) {
    // The function's registers are one block (register-major, a lane per word).
    Chains c(h);
    c.words(reinterpret_cast<const std::uint8_t*>(w.reg(fn.reg_base)),
            std::size_t{fn.nregs} * w.size() * 8);
    h = c.value();
  }
  h = hash_mix(h, w.frame_base);
  if (w.local_stride() > 0) {
    Chains c(h);
    for (unsigned l = 0; l < w.size(); ++l) c.words(w.local(l, 0, 1), w.local_stride());
    h = c.value();
  }
  return h;
}

bool Watchdog::after_step(Executor& ex, Warp& w, Pc pc_before, WarpTable& warps) {
  if (opts_.max_steps && ex.steps() >= opts_.max_steps) {
    build_report(
        ex, warps,
        fmt::format("the step limit of {} warp instructions was reached (watchdog.max_steps)",
                    opts_.max_steps),
        false);
    return true;
  }
  if (ex.progress() != last_progress_) {
    note_progress(ex.steps(), ex.progress());
    if (quiet_) {
      quiet_ = false;
      ++epoch_;
    }
    return false;
  }
  if (!quiet_) {
    const bool quiet_by_steps = ex.steps() - last_progress_step_ >= opts_.quiet_steps;
    const bool quiet_by_time =
        opts_.quiet_cycles > 0 && now_ - last_progress_time_ >= opts_.quiet_cycles;
    if (!quiet_by_steps && !quiet_by_time) return false;
    quiet_ = true;
    ++epoch_;
    seen_.assign(warps.size(), {});
    loop_branch_.assign(warps.size(), 0);
    for (auto& x : warps) x.cycling = false;
  }
  if (w.state != WarpState::kRunning || w.simt->finished()) return false;
  if (w.simt->pc() > pc_before || w.cycling) return false;
  // A backward jump in a quiet epoch: has this warp been in exactly this state before?
  auto& seen = seen_[static_cast<size_t>(w.global_id)];
  const Pc pc = w.simt->pc();
  const std::size_t depth = w.calls.size();
  Seen* unhashed = nullptr;
  if (depth > kEagerDepth) {
    // Deep in calls: hash only a state whose PC and depth were seen before (see Seen).
    bool again = false;
    for (auto& e : seen) {
      if (e.pc != pc || e.depth != depth) continue;
      again = true;
      if (!e.hashed) unhashed = &e;
    }
    if (!again) {
      if (seen.size() >= 16) seen.erase(seen.begin());
      seen.push_back({pc, depth, 0, false});
      return false;
    }
  }
  const std::uint64_t h = hash_state(ex, w);
  if (unhashed) {
    unhashed->hash = h;
    unhashed->hashed = true;
  }
  for (const auto& e : seen) {
    if (e.hashed && &e != unhashed && e.pc == pc && e.depth == depth && e.hash == h) {
      w.cycling = true;
      loop_branch_[static_cast<size_t>(w.global_id)] = pc_before;
      break;
    }
  }
  if (!w.cycling) {
    if (unhashed) return false;
    if (seen.size() >= 16) seen.erase(seen.begin());
    seen.push_back({pc, depth, h, true});
    return false;
  }
  for (const auto& x : warps)
    if (x.simt && x.state == WarpState::kRunning && !x.simt->finished() && !x.cycling) return false;
  build_report(ex, warps,
               "livelock: no warp can make progress (every running warp repeats the same state "
               "with memory unchanged)",
               true);
  return true;
}

bool Watchdog::needs_serial(std::uint64_t steps_now, std::uint64_t ahead) const {
  const std::uint64_t last = steps_now + ahead;
  return quiet_ || (opts_.max_steps && last >= opts_.max_steps) ||
         last - last_progress_step_ >= opts_.quiet_steps ||
         (opts_.quiet_cycles > 0 && now_ - last_progress_time_ >= opts_.quiet_cycles);
}

void Watchdog::check_replay(std::uint64_t steps, std::uint64_t progress) const {
  // The step limit and the start of a quiet epoch, which needs_serial() ruled out.
  SIMTSYNC_CHECK(!quiet_ && !(opts_.max_steps && steps >= opts_.max_steps));
  SIMTSYNC_CHECK(progress == last_progress_ && steps - last_progress_step_ < opts_.quiet_steps);
}

void Watchdog::all_blocked(Executor& ex, WarpTable& warps) {
  bool lock_wait = false;
  for (const auto& w : warps)
    lock_wait |= w.state == WarpState::kRunning && w.simt && !w.simt->ready();
  build_report(ex, warps,
               lock_wait ? "deadlock: every live warp waits at a barrier that cannot complete or "
                           "for a lock that is never released"
                         : "deadlock: every live warp waits at a barrier that cannot complete",
               true);
}

namespace {

// "CTA.warp lane L" of a thread.
std::string thread_name(const Warp& w, unsigned lane) {
  return fmt::format("{}.{} lane {}", w.cta, w.warp_in_cta, lane);
}

}  // namespace

// The shared-memory lock bits live threads wait for, who holds each, and the deadlocks of seed
// 001 sec. 4.4 this makes: a thread waiting for a bit it holds itself through an aliased word
// (alias deadlock); a holder in the waiter's own warp that has left the lock loop and waits at
// the reconvergence point for the lanes waiting for it (SIMD deadlock); a holder in another warp
// parked at a reconvergence point while its warp-mates spin (the same across warps); a holder
// waiting at a barrier. Causes come first, then threads whose holder itself waits for a bit (a
// chain).
std::string Watchdog::lock_bit_causes(const Executor& ex, const WarpTable& warps) const {
  const LockBitLedger ledger = ex.lock_ledger();
  if (ledger.waiting.empty()) return "";
  std::map<int, const Warp*> by_id;
  for (const auto& w : warps) by_id[w.global_id] = &w;
  auto live = [&](int id) -> const Warp* {
    auto it = by_id.find(id);
    return it == by_id.end() || it->second->state == WarpState::kFinished ? nullptr : it->second;
  };
  // (rank, thread key, line): rank 0 alias, 1 SIMD, 2 other holder, 3 chain.
  std::vector<std::tuple<int, std::uint64_t, std::string>> lines;
  for (const auto& [key, entry] : ledger.waiting) {
    const auto& [bit_ptr, want] = entry;
    const Warp* w = live(want.warp);
    if (*bit_ptr == 0 || !w) continue;  // the bit is free again, or the thread has exited
    const std::string me = thread_name(*w, want.lane);
    auto h = ledger.holders.find(bit_ptr);
    if (h == ledger.holders.end()) {
      lines.emplace_back(2, key,
                         fmt::format("{} waits for lock bit {} (shared [{:#x}]), holder unknown",
                                     me, want.bit, want.addr));
      continue;
    }
    const LockBitLedger::Attempt& held = h->second;
    const Warp* hw = live(held.warp);
    const std::string holder = hw ? thread_name(*hw, held.lane) : fmt::format("warp {}", held.warp);
    const std::string aliased = held.addr != want.addr ? ", an aliased word" : "";
    auto chained = ledger.waiting.find(LockBitLedger::key(held.warp, held.lane));
    if (held.warp == want.warp && held.lane == want.lane) {
      lines.emplace_back(0, key,
                         fmt::format("alias deadlock: {} holds lock bit {} (taken for shared "
                                     "[{:#x}]) and waits for shared [{:#x}], which maps to the "
                                     "same bit",
                                     me, want.bit, held.addr, want.addr));
    } else if (hw && chained != ledger.waiting.end() && *chained->second.first != 0) {
      lines.emplace_back(3, key,
                         fmt::format("{} waits for lock bit {} (shared [{:#x}]) held by {} "
                                     "(taken for shared [{:#x}]{}), which itself waits for "
                                     "lock bit {}",
                                     me, want.bit, want.addr, holder, held.addr, aliased,
                                     chained->second.second.bit));
    } else if (held.warp == want.warp) {
      lines.emplace_back(1, key,
                         fmt::format("SIMD deadlock: {} waits for lock bit {} (shared [{:#x}]) "
                                     "held by {} of the same warp (taken for shared [{:#x}]{}), "
                                     "which waits for it at a reconvergence point and cannot "
                                     "run its unlock",
                                     me, want.bit, want.addr, holder, held.addr, aliased));
    } else if (hw && hw->simt && hw->state == WarpState::kRunning &&
               ((hw->simt->live() & ~hw->simt->active()) >> held.lane & 1)) {
      // The holder has left its lock loop and waits at a reconvergence point of its own warp,
      // whose other lanes spin: it runs its unlock only once they are through (seed 001 sec.
      // 4.4.1 across warps: each warp's spinning lanes wait for bits the other's parked lanes
      // hold).
      unsigned mates = 0;
      for (const auto& [k2, e2] : ledger.waiting)
        mates += e2.second.warp == held.warp && *e2.first != 0 ? 1 : 0;
      lines.emplace_back(1, key,
                         fmt::format("SIMT deadlock across warps: {} waits for lock bit {} "
                                     "(shared [{:#x}]) held by {} (taken for shared [{:#x}]{}), "
                                     "which waits at a reconvergence point for its warp, where "
                                     "{} thread(s) wait for held bits, and cannot run its unlock",
                                     me, want.bit, want.addr, holder, held.addr, aliased, mates));
    } else {
      const std::string state = !hw ? "has exited"
                                : hw->state == WarpState::kAtBarrier
                                    ? fmt::format("waits at barrier {}", hw->barrier_id)
                                    : "is running";
      lines.emplace_back(2, key,
                         fmt::format("{} waits for lock bit {} (shared [{:#x}]) held by {} "
                                     "(taken for shared [{:#x}]{}), which {}",
                                     me, want.bit, want.addr, holder, held.addr, aliased, state));
    }
  }
  if (lines.empty()) return "";
  std::sort(lines.begin(), lines.end());
  constexpr std::size_t kShown = 8;
  std::string out =
      fmt::format("  shared-memory lock bits: {} thread(s) wait for a held bit\n", lines.size());
  for (std::size_t i = 0; i < lines.size() && i < kShown; ++i)
    out += "    " + std::get<2>(lines[i]) + "\n";
  if (lines.size() > kShown) out += fmt::format("    ... and {} more\n", lines.size() - kShown);
  return out;
}

std::string Watchdog::lock_instruction_causes(const Executor& ex, const WarpTable& warps) const {
  const Program& prog = ex.program();
  const LaunchInfo& li = ex.launch();
  const std::uint64_t threads = std::uint64_t{li.block.x} * li.block.y * li.block.z;
  const std::uint64_t wpc = li.warps_per_cta;
  std::map<std::pair<std::uint64_t, std::uint64_t>, const Warp*> by_cta_warp;
  for (const auto& w : warps)
    by_cta_warp[{static_cast<std::uint64_t>(w.cta), static_cast<std::uint64_t>(w.warp_in_cta)}] =
        &w;
  std::vector<std::string> lines;
  std::size_t waiting = 0;
  for (const auto& w : warps) {
    if (w.state == WarpState::kFinished || !w.simt || !w.simt->locks()) continue;
    const auto entries = w.simt->entries();
    // Threads at their lock instruction: the LR entry on top.
    if (entries.empty() || entries.back().lock != simt::ReconvergenceEntry::Lock::kRetry) continue;
    const ExecInst* in = prog.at(entries.back().pc);
    if (!in || in->lock_op != IntrinsicOp::kLock || in->mem.base != MemRef::Base::kReg) continue;
    for (int lane : lanes(entries.back().mask)) {
      const unsigned l = static_cast<unsigned>(lane);
      const Addr a = w.reg(in->mem.reg)[l] + static_cast<Addr>(in->mem.offset);
      std::uint32_t word = kLockFree;
      if (ex.memory().valid(a, 4)) ex.memory().read_small(a, &word, 4);
      ++waiting;
      const std::string me = thread_name(w, l);
      if (word == kLockFree) {
        lines.push_back(
            fmt::format("{} waits at simtsync_lock ({}) for lock word [{:#x}], "
                        "which is free",
                        me, prog.source_of(*in), a));
        continue;
      }
      // The holder from its unique thread id (its linear index in the grid).
      const std::uint64_t cta = word / threads, t = word % threads;
      const std::uint64_t warp = (t / li.warp_size) % std::max<std::uint64_t>(wpc, 1);
      auto h = by_cta_warp.find({cta, warp});
      const unsigned hl = static_cast<unsigned>(t % li.warp_size);
      if (h == by_cta_warp.end()) {
        lines.push_back(
            fmt::format("{} waits for lock word [{:#x}] held by thread id {}", me, a, word));
        continue;
      }
      const Warp& hw = *h->second;
      const std::string holder = thread_name(hw, hl);
      if (&hw == &w) {
        const bool runs = (w.simt->active() >> hl) & 1;
        lines.push_back(fmt::format(
            "lock-stack deadlock: {} waits at simtsync_lock ({}) for lock word [{:#x}] held by "
            "{} of the same warp, which {} (seed 004 sec. 4.5, Examples 12-13; with lock "
            "queuing sec. 5.2.2)",
            me, prog.source_of(*in), a, holder,
            runs ? "retries with it" : "is not at the top of the stack and cannot run its unlock"));
      } else {
        const std::string state = hw.state == WarpState::kFinished ? "has exited (never unlocked)"
                                  : hw.state == WarpState::kAtBarrier
                                      ? fmt::format("waits at barrier {}", hw.barrier_id)
                                      : "is running";
        lines.push_back(
            fmt::format("{} waits at simtsync_lock ({}) for lock word [{:#x}] held "
                        "by {}, which {}",
                        me, prog.source_of(*in), a, holder, state));
      }
    }
  }
  if (lines.empty()) return "";
  // Deadlock causes first.
  std::stable_sort(lines.begin(), lines.end(), [](const std::string& x, const std::string& y) {
    return (x.find("deadlock") != std::string::npos) > (y.find("deadlock") != std::string::npos);
  });
  constexpr std::size_t kShown = 4;
  std::string out =
      fmt::format("  lock instructions: {} thread(s) wait at simtsync_lock\n", waiting);
  for (std::size_t i = 0; i < lines.size() && i < kShown; ++i) out += "    " + lines[i] + "\n";
  if (lines.size() > kShown) out += fmt::format("    ... and {} more\n", lines.size() - kShown);
  return out;
}

void Watchdog::build_report(Executor& ex, WarpTable& warps, const std::string& why, bool proven) {
  reason_ = why;
  const Program& prog = ex.program();
  std::string out = fmt::format("simtsync watchdog: kernel '{}' {}: {}\n", ex.launch().kernel->name,
                                proven ? "cannot finish" : "stopped", why);
  // Spinning loops first: the backward branches warps cycle through.
  std::map<Pc, int> loops;
  for (const auto& w : warps)
    if (w.cycling && static_cast<size_t>(w.global_id) < loop_branch_.size())
      ++loops[loop_branch_[static_cast<size_t>(w.global_id)]];
  for (const auto& [pc, count] : loops) {
    const DecodedFunction* fn = nullptr;
    const ExecInst* in = prog.at(pc, &fn);
    if (!in) continue;
    std::string label;
    if (in->ir)
      for (const auto& op : in->ir->operands)
        if (op.kind == ptx::Operand::Kind::kLabel) label = op.name;
    // The analysis runs here when decoding did not need it (issue 46).
    std::string verdict;
    try {
      verdict = prog.deadlock_flagged(*in) ? "flags this loop (a unit with delayed "
                                             "reconvergence or SSDE would avoid it)"
                                           : "does not flag this loop";
    } catch (const analysis::AnalysisTooLarge&) {
      verdict = "was not run (the function is past the analysis budget, sim.analysis_budget)";
    }
    out += fmt::format(
        "  spin loop at {} (PC {:#x} in '{}', branch back to {}): {} warp(s) "
        "cycle through it; the SIMT-deadlock analysis {}\n",
        prog.source_of(*in), pc - fn->base_pc, fn->name, label, count, verdict);
  }
  out += lock_bit_causes(ex, warps);
  out += lock_instruction_causes(ex, warps);
  // Every live warp, grouped by identical reconvergence state.
  std::map<std::string, std::vector<std::string>> groups;
  for (const auto& w : warps) {
    if (w.state == WarpState::kFinished || !w.simt) continue;  // exited or not dispatched
    std::string st;
    auto entries = w.simt->entries();
    for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
      const DecodedFunction* fn = nullptr;
      const ExecInst* in = it->pc == kExitPc ? nullptr : prog.at(it->pc, &fn);
      std::string where =
          in ? fmt::format("{}+{:#x} ({})", fn->name, it->pc - fn->base_pc, prog.source_of(*in))
             : std::string("function exit");
      std::string rpc = it->rpc == kExitPc       ? "exit"
                        : it->rpc >= kExitPc - 1 ? "-"
                                                 : fmt::format("{:#x}", it->rpc);
      using Table = simt::ReconvergenceEntry::Table;
      const char* kind = it->table == Table::kReconvergence                   ? "[RT] "
                         : it->table == Table::kSplit && it->blocked          ? "[split, held] "
                         : it->table == Table::kSplit                         ? "[split] "
                         : it->call                                           ? "[call] "
                         : it->lock == simt::ReconvergenceEntry::Lock::kRetry ? "[lock-retry] "
                         : it->lock == simt::ReconvergenceEntry::Lock::kHeld  ? "[lock] "
                         : it->lock == simt::ReconvergenceEntry::Lock::kTry   ? "[try-lock] "
                                                                              : "";
      st += fmt::format("      {}{}PC {} RPC {} mask {:#010x}", kind,
                        it->spilled ? "[in memory] " : "", where, rpc, it->mask);
      st += it->table == Table::kReconvergence ? fmt::format(" pending {:#010x}\n", it->pending)
                                               : std::string("\n");
    }
    if (const std::string note = w.simt->report_note(); !note.empty())
      st += fmt::format("      note: {}\n", note);
    std::string head =
        w.state == WarpState::kAtBarrier ? fmt::format("waiting at barrier {}", w.barrier_id)
        : !w.simt->ready()
            ? (w.simt->locks() ? "waiting for lock replies" : "waiting for its reconvergence unit")
            : (w.cycling ? "spinning" : "running");
    groups[head + "\n" + st].push_back(fmt::format("{}.{}", w.cta, w.warp_in_cta));
  }
  for (const auto& [state, ids] : groups) {
    std::string list;
    for (size_t i = 0; i < ids.size(); ++i) {
      if (i == 12) {
        list += fmt::format(" ... ({} warps)", ids.size());
        break;
      }
      list += (i ? " " : "") + ids[i];
    }
    auto nl = state.find('\n');
    out += fmt::format("  warps [CTA.warp] {}: {}\n    reconvergence stack (top first):\n{}", list,
                       state.substr(0, nl), state.substr(nl + 1));
  }
  report_ = out;
}

}  // namespace simtsync::func
