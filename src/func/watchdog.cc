#include "func/watchdog.h"

#include <fmt/format.h>

#include <cstring>
#include <map>

namespace simtsync::func {
std::uint64_t Watchdog::hash_state(const Executor& ex, Warp& w) const {
  std::uint64_t h = 0;
  for (const auto& e : w.simt->entries()) h = hash_mix(hash_mix(hash_mix(h, e.pc), e.rpc), e.mask);
  const DecodedFunction& fn = ex.program().functions()[static_cast<size_t>(w.function)];
  for (std::uint32_t r = 0; r < fn.nregs; ++r) {
    const std::uint64_t* v = w.reg(fn.reg_base + r);
    for (unsigned l = 0; l < w.size(); ++l) h = hash_mix(h, v[l]);
  }
  h = hash_mix(h, w.frame_base);
  if (w.local_stride() > 0) {
    for (unsigned l = 0; l < w.size(); ++l) {
      const std::uint8_t* p = w.local(l, 0, 1);
      for (std::uint64_t i = 0; i < w.local_stride(); i += 8) {
        std::uint64_t v;
        std::memcpy(&v, p + i, 8);
        h = hash_mix(h, v);
      }
    }
  }
  return h;
}

bool Watchdog::after_step(Executor& ex, Warp& w, Pc pc_before, std::vector<Warp>& warps) {
  if (opts_.max_steps && ex.steps() >= opts_.max_steps) {
    build_report(
        ex, warps,
        fmt::format("the step limit of {} warp instructions was reached (watchdog.max_steps)",
                    opts_.max_steps),
        false);
    return true;
  }
  if (ex.progress() != last_progress_) {
    last_progress_ = ex.progress();
    last_progress_step_ = ex.steps();
    last_progress_time_ = now_;
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
  const std::uint64_t h = hash_state(ex, w);
  auto& seen = seen_[static_cast<size_t>(w.global_id)];
  for (const auto& [pc, hh] : seen) {
    if (pc == w.simt->pc() && hh == h) {
      w.cycling = true;
      loop_branch_[static_cast<size_t>(w.global_id)] = pc_before;
      break;
    }
  }
  if (!w.cycling) {
    if (seen.size() >= 16) seen.erase(seen.begin());
    seen.emplace_back(w.simt->pc(), h);
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

void Watchdog::all_blocked(Executor& ex, std::vector<Warp>& warps) {
  build_report(ex, warps, "deadlock: every live warp waits at a barrier that cannot complete",
               true);
}

void Watchdog::build_report(Executor& ex, std::vector<Warp>& warps, const std::string& why,
                            bool proven) {
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
    out += fmt::format("  spin loop at {} (PC {:#x} in '{}', branch back to {}): {} warp(s) "
                       "cycle through it\n",
                       prog.source_of(*in), pc - fn->base_pc, fn->name, label, count);
  }
  // Every live warp, grouped by identical reconvergence state.
  std::map<std::string, std::vector<std::string>> groups;
  for (const auto& w : warps) {
    if (w.state == WarpState::kFinished || !w.simt) continue;  // exited or not dispatched
    std::string st;
    auto entries = w.simt->entries();
    for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
      const DecodedFunction* fn = nullptr;
      const ExecInst* in = it->pc == kExitPc ? nullptr : prog.at(it->pc, &fn);
      std::string where = in ? fmt::format("{}+{:#x} ({})", fn->name, it->pc - fn->base_pc,
                                           prog.source_of(*in))
                             : std::string("function exit");
      std::string rpc = it->rpc == kExitPc       ? "exit"
                        : it->rpc >= kExitPc - 1 ? "-"
                                                 : fmt::format("{:#x}", it->rpc);
      st += fmt::format("      {}PC {} RPC {} mask {:#010x}\n", it->call ? "[call] " : "",
                        where, rpc, it->mask);
    }
    std::string head = w.state == WarpState::kAtBarrier
                           ? fmt::format("waiting at barrier {}", w.barrier_id)
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
