// Cross-lane instructions (vote, shfl, activemask, match, redux) and CTA barriers.
#include <fmt/format.h>

#include "func/bits.h"
#include "func/executor.h"

namespace simtsync::func {

using ptx::Mod;
using ptx::Opcode;

bool Executor::warp_sync(Warp& w, const ExecInst& in, LaneMask active, LaneMask m) {
  if (m == 0 || in.nsrc == 0) return true;
  // The member mask is the last operand (bar.warp.sync's only one); the executing threads are
  // members whatever it says.
  LaneMask members = m;
  for (int l : lanes(m)) members |= value(w, in.src[in.nsrc - 1], static_cast<unsigned>(l));
  if (w.simt->warp_sync(members & w.threads)) {
    // A unit that runs its threads in lockstep (a stack) answers true whoever is active. The
    // PTX ISA leaves a .sync instruction undefined on such GPUs (sm_6x and below) unless every
    // member that has not exited executes it in convergence: a member elsewhere (SSDE's
    // delayed reconvergence can leave one behind) would silently read a stale register.
    if (const LaneMask missing = members & w.threads & w.simt->live() & ~active; missing != 0)
      fault(w, first_lane(active), in,
            fmt::format("warp-synchronous instruction with member mask {:#x}: lanes {:#x} have not "
                        "exited and are not here (they run elsewhere in the warp); without "
                        "independent thread scheduling ({}) every member must execute it in "
                        "convergence, else the result is undefined (PTX ISA, shfl.sync/vote.sync)",
                        members & w.threads, missing, w.simt->name()));
    return true;
  }
  // Held until the other members arrive (the unit named another group): not executed.
  --stats_.warp_instructions;
  stats_.thread_instructions -= static_cast<std::uint64_t>(popcount(active));
  return false;
}

bool Executor::exec_warp_op(Warp& w, const ExecInst& in, LaneMask active, LaneMask m) {
  if (in.a.sync && !warp_sync(w, in, active, m)) return false;
  std::uint64_t* d = in.dst[0] == kNoReg ? nullptr : w.reg(in.dst[0]);
  std::uint64_t* p = in.ndst > 1 && in.dst[1] != kNoReg ? w.reg(in.dst[1]) : nullptr;
  const ptx::Instruction* ir = in.ir;
  switch (in.op) {
    case Opcode::kActivemask:
      for (int l : lanes(m))
        if (d) d[l] = active & 0xffffffffu;
      return true;
    case Opcode::kVote: {
      LaneMask ballot = 0;
      for (int l : lanes(m))
        if (value(w, in.src[0], static_cast<unsigned>(l)) & 1) ballot |= LaneMask{1} << l;
      std::uint64_t r;
      if (ir->has(Mod::kBallot)) {
        r = ballot & 0xffffffffu;
      } else if (ir->has(Mod::kAll)) {
        r = ballot == m;
      } else if (ir->has(Mod::kAny)) {
        r = ballot != 0;
      } else {  // uni
        r = ballot == 0 || ballot == m;
      }
      for (int l : lanes(m))
        if (d) d[l] = r;
      return true;
    }
    case Opcode::kShfl: {
      // The PTX ISA's pseudo-code, exactly: lane[4:0], bval = b[4:0], cval = c[4:0],
      // segmask = c[12:8]; j from the mode; out of range (!pval) means the thread's own value.
      // Higher bits of b and c are ignored (b = 37 reads lane 5). A warp wider than 32
      // (gpu.warp_size up to 64) shuffles within each 32-lane half.
      std::uint64_t src[64];
      const unsigned ws = w.size();
      for (unsigned l = 0; l < ws; ++l) src[l] = value(w, in.src[0], l);
      const Mod mode = in.a.shfl.value_or(Mod::kIdx);
      for (int li : lanes(m)) {
        const unsigned lane = static_cast<unsigned>(li);
        const std::uint32_t b = static_cast<std::uint32_t>(value(w, in.src[1], lane));
        const std::uint32_t c = static_cast<std::uint32_t>(value(w, in.src[2], lane));
        const std::int32_t l5 = static_cast<std::int32_t>(lane & 0x1f);
        const std::int32_t bval = static_cast<std::int32_t>(b & 0x1f);
        const std::int32_t cval = static_cast<std::int32_t>(c & 0x1f);
        const std::int32_t segmask = static_cast<std::int32_t>((c >> 8) & 0x1f);
        const std::int32_t max_lane = (l5 & segmask) | (cval & ~segmask);
        const std::int32_t min_lane = l5 & segmask;
        std::int32_t j;
        bool pval;
        switch (mode) {
          case Mod::kUp:
            j = l5 - bval;
            pval = j >= max_lane;
            break;
          case Mod::kDown:
            j = l5 + bval;
            pval = j <= max_lane;
            break;
          case Mod::kBfly:
            j = l5 ^ bval;
            pval = j <= max_lane;
            break;
          default:
            j = min_lane | (bval & ~segmask);
            pval = j <= max_lane;
            break;
        }
        // pval implies 0 <= j <= 31; the source is lane j of this thread's 32-lane half.
        unsigned from = pval ? (lane & ~0x1fu) + static_cast<unsigned>(j) : lane;
        if (from >= ws) from = lane;  // a warp narrower than 32 lanes
        if (d) d[lane] = trunc_bytes(src[from], 4);
        if (p) p[lane] = pval;
      }
      return true;
    }
    case Opcode::kMatch: {
      std::uint64_t v[64];
      for (int l : lanes(m)) v[l] = value(w, in.src[0], static_cast<unsigned>(l));
      const bool all = ir->has(Mod::kAll);
      bool all_equal = true;
      for (int l : lanes(m)) all_equal &= v[l] == v[first_lane(m)];
      for (int l : lanes(m)) {
        LaneMask same = 0;
        for (int k : lanes(m))
          if (v[k] == v[l]) same |= LaneMask{1} << k;
        if (d) d[l] = all ? (all_equal ? m : 0) : same;
        if (p) p[l] = all_equal;
      }
      return true;
    }
    case Opcode::kRedux: {
      const bool sgn = ptx::dtype_is_signed(in.a.type);
      const Mod op = in.a.op.value_or(Mod::kAddOp);
      std::int64_t acc = 0;
      bool first = true;
      for (int l : lanes(m)) {
        std::uint64_t raw = value(w, in.src[0], static_cast<unsigned>(l)) & 0xffffffffu;
        std::int64_t x = sgn ? sext_bytes(raw, 4) : static_cast<std::int64_t>(raw);
        if (first) {
          acc = x;
          first = false;
          continue;
        }
        switch (op) {
          case Mod::kAddOp:
            acc += x;
            break;
          case Mod::kMinOp:
            acc = std::min(acc, x);
            break;
          case Mod::kMaxOp:
            acc = std::max(acc, x);
            break;
          case Mod::kAndOp:
            acc &= x;
            break;
          case Mod::kOrOp:
            acc |= x;
            break;
          default:
            acc ^= x;
            break;
        }
      }
      for (int l : lanes(m))
        if (d) d[l] = trunc_bytes(static_cast<std::uint64_t>(acc), 4);
      return true;
    }
    default:
      fault(w, first_lane(active), in,
            fmt::format("warp operation '{}' is not supported", ptx::opcode_name(in.op)));
  }
}

void Executor::release_barriers(Cta& c) {
  for (auto& b : c.barriers) {
    if (b.arrived == 0) continue;
    const int expected = b.expected > 0 ? b.expected : c.live_warps;
    if (b.arrived < expected) continue;
    // Release: bar.red results go to every waiting warp, then everyone moves on.
    for (auto [wid, slot] : b.red_dst) {
      Warp& rw = warps_[static_cast<size_t>(wid)];
      std::uint64_t r = b.popc;
      const ptx::InstAttrs* ra = nullptr;
      (void)ra;
      for (int l : lanes(rw.barrier_lanes)) rw.reg(slot)[l] = r;
    }
    for (int wid : b.waiting) {
      Warp& ww = warps_[static_cast<size_t>(wid)];
      ww.state = WarpState::kRunning;
      ww.barrier_id = -1;
      ww.barrier_lanes = 0;
      ww.simt->barrier_release();
    }
    if (listener_)
      listener_->barrier_released(c.index, static_cast<unsigned>(&b - c.barriers), b.waiting);
    b = NamedBarrier{};
    ++progress_;
  }
}

StepResult Executor::exec_barrier(Warp& w, const ExecInst& in, LaneMask m, StepInfo* info) {
  const Pc next = in.pc + kInstSize;
  if (in.ir->has(Mod::kWarp)) {  // bar.warp.sync: waits for its members (a stack: lockstep)
    if (warp_sync(w, in, w.simt->active(), m)) w.simt->advance(next);
    return StepResult::kExecuted;
  }
  ++stats_.barriers;
  Cta& c = ctas_[static_cast<size_t>(w.cta)];
  // Operands: [d,] a [, b] [, c]; d and c only for bar.red.
  int k = 0;
  const unsigned id = static_cast<unsigned>(value(w, in.src[k++], first_lane(w.simt->active())));
  if (id >= 16) fault(w, first_lane(w.simt->active()), in, fmt::format("barrier id {} >= 16", id));
  const int nsrc_count = in.a.red ? in.nsrc - 2 : in.nsrc - 1;  // operands that are thread counts
  NamedBarrier& b = c.barriers[id];
  if (nsrc_count > 0) {
    std::uint64_t threads = value(w, in.src[k++], first_lane(w.simt->active()));
    if (threads == 0 || threads % launch_.warp_size != 0)
      fault(w, first_lane(w.simt->active()), in,
            fmt::format("barrier thread count {} is not a positive multiple of the warp size",
                        threads));
    b.expected = static_cast<int>(threads / launch_.warp_size);
  }
  if (in.a.red) {
    const Mod op = in.a.op.value_or(Mod::kPopcOp);
    std::uint64_t cnt = 0;
    bool any = false, all = true;
    for (int l : lanes(m)) {
      bool v = value(w, in.src[k], static_cast<unsigned>(l)) & 1;
      cnt += v;
      any |= v;
      all &= v;
    }
    if (b.arrived == 0) {
      b.popc = 0;
      b.any = false;
      b.all = true;
    }
    b.any |= any;
    b.all &= all;
    b.popc = op == Mod::kPopcOp  ? b.popc + static_cast<std::uint32_t>(cnt)
             : op == Mod::kAndOp ? static_cast<std::uint32_t>(b.all)
                                 : static_cast<std::uint32_t>(b.any);
    b.red_dst.emplace_back(w.global_id, in.dst[0]);
  }
  if (in.a.arrive) {
    if (info) info->barrier_arrival = true;
    ++b.arrived;
    w.simt->advance(next);
    release_barriers(c);
    return StepResult::kExecuted;
  }
  // The unit decides which threads block: a stack blocks the whole warp; a unit with splits
  // (AWARE, ITS) blocks the arriving split and runs the others until every live thread is there.
  // The warp arrives (counts toward the barrier) with its last split.
  w.barrier_lanes |= w.simt->active();
  w.pending_barrier = static_cast<int>(id);
  const LaneMask waiting = w.simt->barrier_arrive(w.simt->active());
  if (waiting != w.simt->live()) return StepResult::kExecuted;
  arrive_at_barrier(w, id, info);
  return w.state == WarpState::kAtBarrier ? StepResult::kBarrierWait : StepResult::kExecuted;
}

void Executor::arrive_at_barrier(Warp& w, unsigned id, StepInfo* info) {
  Cta& c = ctas_[static_cast<size_t>(w.cta)];
  NamedBarrier& b = c.barriers[id];
  if (info) info->barrier_arrival = true;
  ++b.arrived;
  b.waiting.push_back(w.global_id);
  w.state = WarpState::kAtBarrier;
  w.barrier_id = static_cast<int>(id);
  w.pending_barrier = -1;
  release_barriers(c);
}

}  // namespace simtsync::func
