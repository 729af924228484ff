#include "func/executor.h"

#include <fmt/format.h>

#include <cassert>
#include <cstring>

#include "common/error.h"

namespace simtsync::func {

using ptx::Opcode;

Executor::Executor(const Program& prog, GlobalMemory& mem, const LaunchInfo& launch,
                   WarpTable& warps, CtaTable& ctas, ExecShared* shared)
    : prog_(prog),
      mem_(mem),
      rd_(mem),
      launch_(launch),
      warps_(warps),
      ctas_(ctas),
      shared_(shared ? shared : &own_shared_) {
  shared_->ledgers.push_back(&locks_);
  const simt::UnitChoice* unit = launch.reconvergence;
  if (unit && unit->stats && !unit->stats->empty())
    stats_.reconvergence = {unit->impl, unit->stats,
                            std::vector<std::uint64_t>(unit->stats->size(), 0)};
}

LockBitLedger ExecShared::merged_locks() const {
  LockBitLedger m;
  for (const LockBitLedger* l : ledgers) {
    m.holders.insert(l->holders.begin(), l->holders.end());
    m.waiting.insert(l->waiting.begin(), l->waiting.end());
  }
  return m;
}

std::uint64_t Executor::special(const Warp& w, const Src& s, unsigned lane) const {
  const Cta& c = ctas_[static_cast<size_t>(w.cta)];
  auto comp = [&](const Dim3& d) -> std::uint64_t {
    return s.component == 1 ? d.y : s.component == 2 ? d.z : d.x;
  };
  switch (s.sreg) {
    case ptx::SpecialReg::kTid:
      return w.tid[s.component < 0 ? 0 : s.component][lane];
    case ptx::SpecialReg::kNtid:
      return comp(launch_.block);
    case ptx::SpecialReg::kCtaid:
      return comp(c.ctaid);
    case ptx::SpecialReg::kNctaid:
      return comp(launch_.grid);
    case ptx::SpecialReg::kLaneid:
      return lane;
    case ptx::SpecialReg::kWarpid:
      return static_cast<std::uint64_t>(w.warp_in_cta);
    case ptx::SpecialReg::kNwarpid:
      return launch_.warps_per_cta;
    case ptx::SpecialReg::kSmid:
      return 0;
    case ptx::SpecialReg::kNsmid:
      return 1;
    case ptx::SpecialReg::kGridid:
      return 0;
    case ptx::SpecialReg::kLanemaskEq:
      return std::uint64_t{1} << lane;
    case ptx::SpecialReg::kLanemaskLe:
      return (std::uint64_t{2} << lane) - 1;
    case ptx::SpecialReg::kLanemaskLt:
      return (std::uint64_t{1} << lane) - 1;
    case ptx::SpecialReg::kLanemaskGe:
      return ~((std::uint64_t{1} << lane) - 1) & 0xffffffffu;
    case ptx::SpecialReg::kLanemaskGt:
      return ~((std::uint64_t{2} << lane) - 1) & 0xffffffffu;
    case ptx::SpecialReg::kClock:
      return clock() & 0xffffffffu;
    case ptx::SpecialReg::kClockHi:
      return clock() >> 32;
    case ptx::SpecialReg::kClock64:
    case ptx::SpecialReg::kGlobaltimer:
      return clock();
    case ptx::SpecialReg::kGlobaltimerLo:
      return clock() & 0xffffffffu;
    case ptx::SpecialReg::kGlobaltimerHi:
      return clock() >> 32;
    case ptx::SpecialReg::kDynamicSmemSize:
      return launch_.dynamic_shared;
    case ptx::SpecialReg::kTotalSmemSize:
      return c.shared.size();
    case ptx::SpecialReg::kWarpsz:
      return launch_.warp_size;
  }
  return 0;
}

std::uint64_t Executor::value_slow(const Warp& w, const Src& s, unsigned lane) const {
  switch (s.kind) {
    case Src::Kind::kReg:
      return w.reg(s.reg)[lane] ^ (s.negate ? 1 : 0);
    case Src::Kind::kImm:
      return s.imm;
    case Src::Kind::kSpecial:
      return special(w, s, lane);
    case Src::Kind::kFrameAddr:
      return w.frame_base + s.imm;
    case Src::Kind::kNone:
      return 0;
  }
  return 0;
}

LaneMask Executor::guard_mask(const Warp& w, const ExecInst& in, LaneMask active) const {
  if (in.guard == kNoReg) return active;
  const std::uint64_t* p = w.reg(in.guard);
  LaneMask m = 0;
  for (int l : lanes(active))
    if ((p[l] != 0) != in.guard_negate) m |= LaneMask{1} << l;
  return m;
}

void Executor::fault(const Warp& w, unsigned lane, const ExecInst& in,
                     const std::string& what) const {
  const Cta& c = ctas_[static_cast<size_t>(w.cta)];
  const DecodedFunction& fn = prog_.function_at(in.pc);
  throw Error(
      ExitCode::kKernelFault,
      fmt::format("kernel fault in '{}': {}\n  CTA ({},{},{}) thread ({},{},{}) warp {} "
                  "lane {}\n  at PC {:#x} ({}+{:#x}) `{}` ({})",
                  launch_.kernel->name, what, c.ctaid.x, c.ctaid.y, c.ctaid.z, w.tid[0][lane],
                  w.tid[1][lane], w.tid[2][lane], w.warp_in_cta, lane, in.pc, fn.name,
                  in.pc - fn.base_pc, in.ir ? ptx::opcode_name(in.op) : "?", prog_.source_of(in)));
}

void Executor::finish_lanes(Warp& w, LaneMask m) {
  w.simt->exit(m);
  if (w.simt->finished() && w.state != WarpState::kFinished) {
    w.state = WarpState::kFinished;
    UnitCounters& u = stats_.reconvergence;
    if (!u.values.empty()) {  // the unit declares statistics: sum its counters as declared
      unit_counters_.assign(u.values.size(), 0);
      w.simt->collect(unit_counters_);
      config::accumulate(u.values, unit_counters_, *u.decl);
    }
    ++progress_;
    Cta& c = ctas_[static_cast<size_t>(w.cta)];
    --c.live_warps;
    // A warp that exits no longer holds back barriers waiting for the whole CTA.
    release_barriers(c);
  }
}

void Executor::exec_alu(Warp& w, const ExecInst& in, LaneMask m) {
  switch (in.op) {
    case Opcode::kSetp:
    case Opcode::kSet:
    case Opcode::kSelp:
    case Opcode::kSlct:
    case Opcode::kTestp:
      exec_compare(w, in, m);
      break;
    case Opcode::kMov:
    case Opcode::kCvta:
    case Opcode::kIsspacep:
      exec_move(w, in, m);
      break;
    case Opcode::kCvt:
      exec_cvt(w, in, m);
      break;
    default:
      if (ptx::dtype_is_float(in.a.type) || ptx::opcode_unit(in.op) == ptx::UnitClass::kSfu) {
        if (ptx::opcode_unit(in.op) == ptx::UnitClass::kSfu) ++stats_.sfu_ops;
        exec_float(w, in, m);
      } else {
        exec_int(w, in, m);
      }
  }
}

const ExecInst* Executor::peek(const Warp& w) const {
  const DecodedFunction& fn = prog_.functions()[static_cast<size_t>(w.function)];
  const Pc pc = w.simt->pc();
  const std::uint64_t idx = (pc - fn.base_pc) / kInstSize;
  if (pc < fn.base_pc || idx >= fn.code.size()) return nullptr;
  return &fn.code[idx];
}

StepResult Executor::step(Warp& w, MemAccess* defer, StepInfo* info) {
  // The state the SM reads every cycle is what the unit computes (debug builds: the sanitizer
  // build runs this on every step).
  assert(!w.simt || w.simt->state_is_current());
  const StepResult r = execute(w, defer, info);
  assert(!w.simt || w.simt->state_is_current());
  // A unit with splits (AWARE, ITS) that holds some threads at a barrier while others run: when
  // the others exit or park (waiting in the RT for the held ones), the warp arrives now.
  if (w.barrier_lanes != 0 && w.state == WarpState::kRunning && w.simt->barrier_complete()) {
    arrive_at_barrier(w, static_cast<unsigned>(w.pending_barrier), info);
    if (r == StepResult::kExecuted && w.state == WarpState::kAtBarrier)
      return StepResult::kBarrierWait;
  }
  return r;
}

StepResult Executor::execute(Warp& w, MemAccess* defer, StepInfo* info) {
  if (w.state == WarpState::kFinished) return StepResult::kFinished;
  if (w.state == WarpState::kAtBarrier) return StepResult::kBarrierWait;
  ++steps_;
  // The running threads' own call frame (the innermost one under a stack: a no-op scan).
  if (!w.calls.empty() && !(w.calls.back().mask & w.simt->active()))
    w.select_frame(w.simt->active());
  const DecodedFunction& fn = prog_.functions()[static_cast<size_t>(w.function)];
  const Pc pc = w.simt->pc();
  const std::uint64_t idx = (pc - fn.base_pc) / kInstSize;
  if (pc < fn.base_pc || idx >= fn.code.size()) {
    // Fell off the end of the function: an implicit return.
    if (!w.frame_of(w.simt->active())) {
      finish_lanes(w, w.simt->active());
    } else {
      exec_ret(w, w.simt->active());
    }
    return w.state == WarpState::kFinished ? StepResult::kFinished : StepResult::kExecuted;
  }
  const ExecInst& in = fn.code[idx];
  const LaneMask active = w.simt->active();
  const LaneMask m = guard_mask(w, in, active);
  if (info) {
    *info = StepInfo{};
    info->active = active;
    info->guard = m;
    if (in.op == Opcode::kSetp && m != 0) {
      const unsigned l = static_cast<unsigned>(first_lane(m));
      info->setp = true;
      info->setp_a = value(w, in.src[0], l);
      info->setp_b = in.nsrc > 1 ? value(w, in.src[1], l) : 0;
    } else if (in.lock_op == IntrinsicOp::kLoadLock && in.mem.base == MemRef::Base::kReg &&
               m != 0) {
      // A fused LDSLK sets a predicate as a setp does (seed 001 Listing 13 has no compare in
      // its spin loop): for spin detection its source operand, the address, is the setp's.
      const unsigned l = static_cast<unsigned>(first_lane(m));
      info->setp = true;
      info->setp_a = w.reg(in.mem.reg)[l] + static_cast<std::uint64_t>(in.mem.offset);
      info->setp_b = 0;
    }
  }
  ++stats_.warp_instructions;
  stats_.thread_instructions += static_cast<std::uint64_t>(popcount(active));
  const Pc next = in.fallthrough();

  switch (ptx::opcode_unit(in.op)) {
    case ptx::UnitClass::kInt:
    case ptx::UnitClass::kFp:
    case ptx::UnitClass::kSfu:
      exec_alu(w, in, m);
      w.simt->advance(next);
      return StepResult::kExecuted;
    case ptx::UnitClass::kMem:
    case ptx::UnitClass::kAtomic:
      if (is_lock_inst(in.lock_op)) {
        // The unit moves the warp on when the replies are back (lock_reply), not here.
        send_lock(w, in, m);
        if (defer) {
          generate(w, in, m, *defer);
          return StepResult::kMemory;
        }
        generate(w, in, m, scratch_);
        perform(w, scratch_);
        lock_reply(w, scratch_, scratch_.mask, true);
        return StepResult::kExecuted;
      }
      if (in.op != Opcode::kPrefetch && in.op != Opcode::kPrefetchu && m != 0) {
        if (defer) {
          generate(w, in, m, *defer);
          w.simt->advance(next);
          return StepResult::kMemory;
        }
        generate(w, in, m, scratch_);
        perform(w, scratch_);
      }
      w.simt->advance(next);
      return StepResult::kExecuted;
    case ptx::UnitClass::kFence:
      ++stats_.fences;
      w.simt->advance(next);
      return StepResult::kExecuted;
    case ptx::UnitClass::kWarp:
      if (!exec_warp_op(w, in, active, m)) return StepResult::kExecuted;  // held (ITS)
      ++stats_.warp_ops;
      w.simt->advance(next);
      return StepResult::kExecuted;
    case ptx::UnitClass::kBarrier:
      return exec_barrier(w, in, m, info);
    case ptx::UnitClass::kMisc:
      w.simt->advance(next);
      return StepResult::kExecuted;
    case ptx::UnitClass::kCtrl:
      break;
  }

  switch (in.op) {
    case Opcode::kBra: {
      ++stats_.branches;
      if (m != 0 && m != active) ++stats_.divergent_branches;
      if (info) info->branch = true, info->target = in.target_pc;
      w.simt->branch(simt::BranchOutcome{m, in.target_pc, next, in.reconv_pc, in.safe_reconv_pc});
      return StepResult::kExecuted;
    }
    case Opcode::kCall:
      if (in.host_call != HostCall::kNone) {  // guarded calls are fine: only m's lanes call
        ++stats_.calls;
        exec_host_call(w, in, m);
        w.simt->advance(next);
        return StepResult::kExecuted;
      }
      if (m != active) fault(w, first_lane(active & ~m), in, "predicated call is not supported");
      ++stats_.calls;
      exec_call(w, in, m);
      return StepResult::kExecuted;
    case Opcode::kRet:
      if (!w.frame_of(active)) {
        finish_lanes(w, m);
        if (!w.simt->finished() && m != active) w.simt->advance(next);
      } else if (m == active) {
        exec_ret(w, m);
      } else {
        // Some threads return, the rest fall through: they diverge until the function's exit.
        w.simt->branch(m, kExitPc, next, in.reconv_pc);
      }
      return w.state == WarpState::kFinished ? StepResult::kFinished : StepResult::kExecuted;
    case Opcode::kExit:
      finish_lanes(w, m);
      if (!w.simt->finished() && m != active) w.simt->advance(next);
      return w.state == WarpState::kFinished ? StepResult::kFinished : StepResult::kExecuted;
    case Opcode::kTrap:
      if (m != 0) fault(w, first_lane(m), in, "trap instruction executed");
      w.simt->advance(next);
      return StepResult::kExecuted;
    default:
      fault(w, first_lane(active), in,
            fmt::format("opcode '{}' is not executable", ptx::opcode_name(in.op)));
  }
}

void Executor::send_lock(Warp& w, const ExecInst& in, LaneMask m) {
  const bool lock = in.lock_op == IntrinsicOp::kLock;
  const bool try_lock = in.lock_op == IntrinsicOp::kTryLock;
  const char* name = try_lock ? "simtsync_try_lock" : lock ? "simtsync_lock" : "simtsync_unlock";
  if (m != w.simt->active())
    fault(w, first_lane(w.simt->active() & ~m), in,
          fmt::format("{} must be executed by every active thread (it is predicated here)", name));
  simt::LockHooks* locks = w.simt->locks();
  if (!locks)
    fault(w, first_lane(m), in,
          fmt::format("{} needs a reconvergence unit with lock semantics "
                      "(sm.reconvergence.impl=lock_stack); this warp runs '{}'",
                      name, w.simt->name()));
  if (try_lock) {
    // The bound of attempts: one value for the warp (the try entry counts them).
    if (in.nsrc == 0)
      fault(w, first_lane(m), in,
            "simtsync_try_lock: the call sequence around it is not one the decoder folds into "
            "a try-lock instruction; call it unconditionally");
    const std::uint64_t attempts = value(w, in.src[0], static_cast<unsigned>(first_lane(m)));
    for (int l : lanes(m))
      if (value(w, in.src[0], static_cast<unsigned>(l)) != attempts)
        fault(w, l, in, "simtsync_try_lock: the bound of attempts differs between the threads");
    if (static_cast<std::int32_t>(attempts) < 1)
      fault(w, first_lane(m), in,
            fmt::format("simtsync_try_lock: the bound of attempts must be at least 1, not {}",
                        static_cast<std::int32_t>(attempts)));
    locks->try_lock_sent(in.pc, static_cast<unsigned>(attempts));
    ++stats_.lock_instructions;
    return;
  }
  if (lock) {
    const simt::LockHooks::LockSend sent = locks->lock_sent(in.pc);
    if (sent == simt::LockHooks::kLockNestedQueued) {
      const Cta& c = ctas_[static_cast<size_t>(w.cta)];
      throw Error(ExitCode::kDeadlock,
                  fmt::format("simtsync watchdog: kernel '{}' cannot finish: deadlock: nested "
                              "locks with lock queuing (seed 004 sec. 5.2.2)\n  CTA ({},{},{}) "
                              "warp {} takes a nested lock at PC {:#x} ({}) while requests of "
                              "the lock around it still wait in lock queues: a lane running "
                              "now can wait for a lock a queued warp-mate holds, which cannot "
                              "run until it is through; run nested locks without "
                              "mem.lock_queue.mode",
                              launch_.kernel->name, c.ctaid.x, c.ctaid.y, c.ctaid.z, w.warp_in_cta,
                              in.pc, prog_.source_of(in)));
    }
    ++stats_.lock_instructions;
    stats_.lock_retries += sent == simt::LockHooks::kLockRetry;
    return;
  }
  if (!locks->unlock_sent())
    fault(w, first_lane(m), in,
          "simtsync_unlock by threads that hold no lock (no lock entry on their reconvergence "
          "stack, no try-held lock)");
  ++stats_.unlock_instructions;
}

void Executor::lock_reply(Warp& w, const MemAccess& acc, LaneMask replied, bool all) {
  const ExecInst& in = *acc.inst;
  const Pc next = in.fallthrough();
  // Only a unit with lock hooks lets a lock instruction issue (send_lock faults otherwise).
  simt::LockHooks* locks = w.simt->locks();
  if (!locks) return;
  if (in.lock_op == IntrinsicOp::kUnlock) {
    if (all) locks->unlock(next);
    return;
  }
  if (in.lock_op == IntrinsicOp::kTryLock) {
    // Never queued: every reply comes back with the request. The resolved threads get their
    // result (1 acquired, 0 failed for good) and the steps folded into the instruction.
    if (!all) return;
    const LaneMask acquired = acc.succeeded & acc.mask;
    const LaneMask failed = locks->try_lock_replied(acquired, next);
    const LaneMask resolved = (acquired | failed) & acc.mask;
    if (in.ndst > 0 && in.dst[0] != kNoReg)
      for (int l : lanes(resolved)) w.reg(in.dst[0])[l] = (acquired >> l) & 1;
    for (const ExecInst& step : in.folded) exec_alu(w, step, resolved);
    return;
  }
  if (launch_.lock_queue) {
    locks->lock_granted(replied, replied & acc.succeeded, next);
  } else if (all) {
    locks->lock_replied(acc.succeeded & acc.mask, next);
  }
}

void Executor::exec_call(Warp& w, const ExecInst& in, LaneMask m) {
  const auto& fns = prog_.functions();
  const DecodedFunction& caller = fns[static_cast<size_t>(w.function)];
  const DecodedFunction& callee = fns[static_cast<size_t>(in.callee)];
  // Unbounded recursion (a function without a local frame never runs out of local memory):
  // a stack overflow, as on hardware, instead of a reconvergence stack that grows forever.
  if (launch_.max_call_depth && w.calls.size() >= launch_.max_call_depth)
    fault(w, first_lane(m), in,
          fmt::format("call stack overflow: a call {} deep into '{}' (watchdog.max_call_depth = "
                      "{} calls in progress per thread)",
                      w.calls.size() + 1, callee.name, launch_.max_call_depth));
  CallFrame cf;
  cf.callee = in.callee;
  cf.caller = w.function;
  cf.mask = m;
  cf.rets = in.call_rets;
  cf.caller_frame = caller.frame_size;
  cf.base = w.frame_base + caller.frame_size;
  // Save the callee's registers of the calling threads: with recursion the callee may already
  // be live further down this thread's call chain.
  cf.saved.reserve(std::size_t{callee.nregs} * static_cast<unsigned>(popcount(m)));
  for (std::uint32_t r = 0; r < callee.nregs; ++r) {
    const std::uint64_t* v = w.reg(callee.reg_base + r);
    for (int l : lanes(m)) cf.saved.push_back(v[l]);
  }
  // Copy arguments into the callee's parameter slots (its frame follows the caller's).
  const std::uint64_t callee_base = w.frame_base + caller.frame_size;
  for (size_t k = 0; k < in.call_args.size() && k < callee.param_offsets.size(); ++k) {
    unsigned n = callee.param_sizes[k];
    for (int l : lanes(m)) {
      std::uint8_t* src = w.local(static_cast<unsigned>(l), w.frame_base + in.call_args[k], n);
      std::uint8_t tmp[64];
      std::memcpy(tmp, src, std::min(n, 64u));
      std::memcpy(w.local(static_cast<unsigned>(l), callee_base + callee.param_offsets[k], n), tmp,
                  std::min(n, 64u));
    }
  }
  w.calls.push_back(std::move(cf));
  w.frame_base = callee_base;
  w.function = in.callee;
  w.simt->call(callee.base_pc, in.pc + kInstSize);
}

void Executor::exec_ret(Warp& w, LaneMask m) {
  const LaneMask returning = w.simt->active();
  if (!w.simt->ret()) return;  // other threads of the call are still inside the function
  const auto& fns = prog_.functions();
  CallFrame* frame = w.frame_of(returning);
  CallFrame& cf = *frame;
  const DecodedFunction& callee = fns[static_cast<size_t>(cf.callee)];
  const std::uint64_t caller_base = w.frame_base - cf.caller_frame;
  // Copy return values to the caller's retval variables, then restore the callee's registers.
  for (size_t k = 0; k < cf.rets.size() && k < callee.ret_offsets.size(); ++k) {
    unsigned n = std::min(callee.ret_sizes[k], 64u);
    for (int l : lanes(cf.mask)) {
      std::uint8_t tmp[64];
      std::memcpy(tmp, w.local(static_cast<unsigned>(l), w.frame_base + callee.ret_offsets[k], n),
                  n);
      std::memcpy(w.local(static_cast<unsigned>(l), caller_base + cf.rets[k], n), tmp, n);
    }
  }
  size_t i = 0;
  for (std::uint32_t r = 0; r < callee.nregs; ++r) {
    std::uint64_t* v = w.reg(callee.reg_base + r);
    for (int l : lanes(cf.mask)) v[l] = cf.saved[i++];
  }
  w.frame_base = caller_base;
  w.function = cf.caller;
  w.calls.erase(w.calls.begin() + (frame - w.calls.data()));
  (void)m;
}

}  // namespace simtsync::func
