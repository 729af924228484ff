// Loads, stores and atomics in two steps (see executor.h): generate() resolves addresses and
// captures operands at issue; perform() touches memory when the memory side says so.
#include <fmt/format.h>

#include <atomic>
#include <cmath>
#include <cstring>

#include "common/range.h"
#include "func/bits.h"
#include "func/executor.h"

namespace simtsync::func {

using ptx::DType;
using ptx::Mod;
using ptx::Opcode;
using ptx::Space;

void Executor::generate(Warp& w, const ExecInst& in, LaneMask exec, MemAccess& acc) {
  const ptx::InstAttrs& a = in.a;
  acc.inst = &in;
  acc.mask = exec;
  acc.done = 0;
  acc.succeeded = 0;
  acc.bytes = std::max(1u, ptx::dtype_bytes(a.type));
  acc.vec = a.vec;
  if (is_lock_inst(in.lock_op)) {
    generate_lock(w, in, exec, acc);
    return;
  }
  if (in.lock_op != IntrinsicOp::kNone) {
    acc.frame = w.frame_base;
    if (in.mem.base == MemRef::Base::kNone) {
      // The call form reads its operands from the caller's .param variables when it performs
      // (the st.param before it performs first: the LD/ST unit is in order).
      for (int li : lanes(exec)) {
        acc.addr[li] = 0;
        acc.space[li] = static_cast<std::uint8_t>(Space::kShared);
      }
      return;
    }
    // The fused form: a generic address that must lie in the shared window.
    for (int li : lanes(exec)) {
      const unsigned l = static_cast<unsigned>(li);
      acc.addr[l] = lock_bit_word(w, l, in,
                                  (in.mem.base == MemRef::Base::kReg ? w.reg(in.mem.reg)[l] : 0) +
                                      static_cast<Addr>(in.mem.offset));
      acc.space[l] = static_cast<std::uint8_t>(Space::kShared);
      if (in.nsrc > 0) acc.data[l][0] = value(w, in.src[0], l);
    }
    return;
  }
  const bool atomic = in.op == Opcode::kAtom || in.op == Opcode::kRed;
  for (int li : lanes(exec)) {
    const unsigned l = static_cast<unsigned>(li);
    Addr addr = 0;
    Space sp = a.space;
    switch (in.mem.base) {
      case MemRef::Base::kReg:
        addr = w.reg(in.mem.reg)[l] + static_cast<Addr>(in.mem.offset);
        break;
      case MemRef::Base::kAbsolute:
        addr = static_cast<Addr>(in.mem.offset);
        break;
      case MemRef::Base::kFrame:
        addr = w.frame_base + static_cast<Addr>(in.mem.offset);
        sp = Space::kLocal;
        break;
      case MemRef::Base::kNone:
        break;
    }
    if (sp == Space::kNone || sp == Space::kGeneric) {
      if (addr >= kSharedWindow && addr < kSharedWindow + kWindowSize) {
        sp = Space::kShared;
        addr -= kSharedWindow;
      } else if (addr >= kLocalWindow && addr < kLocalWindow + kWindowSize) {
        sp = Space::kLocal;
        addr -= kLocalWindow;
      } else {
        sp = Space::kGlobal;
      }
    } else if (sp == Space::kConst || sp == Space::kParam) {
      sp = Space::kGlobal;  // const variables and kernel parameters live in global memory
    }
    // Shared and local addresses are 32 bits: a 32-bit base plus an offset wraps (issue 50).
    if (in.mem.reg32 && in.mem.base == MemRef::Base::kReg &&
        (a.space == Space::kShared || a.space == Space::kLocal))
      addr = static_cast<std::uint32_t>(addr);
    if (acc.vec > 1 && addr % (acc.bytes * acc.vec) != 0)  // vectors align to their full size
      fault(w, l, in,
            fmt::format("misaligned {}-byte vector access at {:#x}", acc.bytes * acc.vec, addr));
    acc.addr[l] = addr;
    acc.space[l] = static_cast<std::uint8_t>(sp);
    if (in.op == Opcode::kSt || atomic) {
      for (unsigned k = 0; k < in.nsrc && k < 4; ++k) acc.data[l][k] = value(w, in.src[k], l);
    }
  }
}

void Executor::generate_lock(Warp& w, const ExecInst& in, LaneMask exec, MemAccess& acc) {
  // Seed 004 sec. 4.1-4.2: lock sends compare-and-swap(-1 -> unique thread id) per thread,
  // unlock exchange(-1); a try-lock sends what lock sends. The thread id is the thread's linear
  // index in the grid.
  const bool lock = is_lock_acquire(in.lock_op);
  const char* name = in.lock_op == IntrinsicOp::kTryLock ? "simtsync_try_lock"
                     : lock                              ? "simtsync_lock"
                                                         : "simtsync_unlock";
  if (in.mem.base == MemRef::Base::kNone)
    fault(w, first_lane(exec), in,
          fmt::format("{}: the call sequence around it is not one the decoder folds into a lock "
                      "instruction (a guarded call or a label inside it); call it unconditionally",
                      name));
  const Cta& c = ctas_[static_cast<size_t>(w.cta)];
  const Dim3& b = launch_.block;
  const std::uint64_t cta_linear =
      (std::uint64_t{c.ctaid.z} * launch_.grid.y + c.ctaid.y) * launch_.grid.x + c.ctaid.x;
  const std::uint64_t threads = std::uint64_t{b.x} * b.y * b.z;
  for (int li : lanes(exec)) {
    const unsigned l = static_cast<unsigned>(li);
    const Addr p = (in.mem.base == MemRef::Base::kReg ? w.reg(in.mem.reg)[l] : 0) +
                   static_cast<Addr>(in.mem.offset);
    if ((p >= kSharedWindow && p < kSharedWindow + kWindowSize) ||
        (p >= kLocalWindow && p < kLocalWindow + kWindowSize))
      fault(w, l, in, fmt::format("{} needs a global-memory lock word, got {:#x}", name, p));
    acc.addr[l] = p;
    acc.space[l] = static_cast<std::uint8_t>(Space::kGlobal);
    acc.data[l][0] = kLockFree;
    const std::uint64_t tid = (std::uint64_t{w.tid[2][l]} * b.y + w.tid[1][l]) * b.x + w.tid[0][l];
    acc.data[l][1] = lock ? cta_linear * threads + tid : 0;
  }
}

std::uint8_t* Executor::lane_ptr(Warp& w, unsigned lane, std::uint8_t space, Addr a, unsigned bytes,
                                 bool write, const ExecInst& in) {
  if (bytes > 1 && (a % std::min(bytes, 16u)) != 0)
    fault(w, lane, in,
          fmt::format("misaligned {}-byte {} access at address {:#x}", bytes,
                      ptx::space_name(static_cast<Space>(space)), a));
  switch (static_cast<Space>(space)) {
    case Space::kShared: {
      Cta& c = ctas_[static_cast<size_t>(w.cta)];
      if (!range_within(a, bytes, 0, c.shared.size()))
        fault(w, lane, in,
              fmt::format("out-of-bounds shared-memory {} at offset {:#x} (CTA has {} "
                          "bytes)",
                          write ? "write" : "read", a, c.shared.size()));
      return &c.shared[a];
    }
    case Space::kLocal:
      return w.local(lane, a, bytes);
    default:
      return nullptr;
  }
}

LaneMask Executor::perform(Warp& w, MemAccess& acc, LaneMask subset, bool count) {
  const LaneMask all = acc.mask;
  const LaneMask before = acc.succeeded;
  acc.mask &= subset;
  count_ = count;
  perform(w, acc);
  count_ = true;
  const LaneMask ok = acc.succeeded & ~before & subset;
  acc.mask = all;
  return ok;
}

Addr Executor::lock_bit_word(Warp& w, unsigned lane, const ExecInst& in, Addr p) {
  if (p < kSharedWindow || p >= kSharedWindow + kWindowSize)
    fault(w, lane, in,
          fmt::format("{} needs a shared-memory address, got {:#x}",
                      in.lock_op == IntrinsicOp::kLoadLock ? "simtsync_ldslk (LDSLK)"
                                                           : "simtsync_stsul (STSUL)",
                      p));
  return p - kSharedWindow;
}

void Executor::perform_lock_bit(Warp& w, MemAccess& acc) {
  const ExecInst& in = *acc.inst;
  const bool load = in.lock_op == IntrinsicOp::kLoadLock;
  Cta& c = ctas_[static_cast<size_t>(w.cta)];
  if (!c.lock_bits) {
    c.own_lock_bits.assign(std::max(1u, launch_.lock_bits), 0);
    c.lock_bits = c.own_lock_bits.data();
    c.lock_count = static_cast<unsigned>(c.own_lock_bits.size());
    c.lock_word_base = 0;
  }
  if (count_) {
    ++stats_.shared_accesses;
    ++(load ? stats_.loads : stats_.stores);
  }
  const bool fused = in.mem.base != MemRef::Base::kNone;
  bool changed = false;
  LaneMask ok = acc.mask;
  // Lanes in lane order: of several lanes asking for one bit, the first takes it.
  for (int li : lanes(acc.mask)) {
    const unsigned l = static_cast<unsigned>(li);
    if (!fused) {
      Addr p = 0;
      std::memcpy(&p, w.local(l, acc.frame + in.call_args[0], 8), 8);
      acc.addr[l] = lock_bit_word(w, l, in, p);
    }
    const Addr a = acc.addr[l];
    std::uint8_t* word = lane_ptr(w, l, static_cast<std::uint8_t>(Space::kShared), a, 4, !load, in);
    const auto bit_index = static_cast<unsigned>((c.lock_word_base + a / 4) % c.lock_count);
    std::uint8_t& bit = c.lock_bits[bit_index];
    LockBitLedger& ledger = locks_;
    if (load) {
      std::uint32_t v = 0;
      std::memcpy(&v, word, 4);
      const bool took = bit == 0;
      const LockBitLedger::Attempt attempt{w.global_id, l, a, bit_index};
      if (took) {
        bit = 1;
        changed = true;
        ++stats_.lock_bit_acquired;
        ledger.holders[&bit] = attempt;
        if (!ledger.waiting.empty()) ledger.waiting.erase(LockBitLedger::key(w.global_id, l));
      } else {
        ok &= ~(LaneMask{1} << l);
        ledger.waiting[LockBitLedger::key(w.global_id, l)] = {&bit, attempt};
      }
      ++stats_.lock_bit_loads;
      const std::uint64_t r = (std::uint64_t{took} << 32) | v;
      if (fused) {
        if (in.dst[0] != kNoReg) w.reg(in.dst[0])[l] = r;
      } else {
        std::memcpy(w.local(l, acc.frame + in.call_rets[0], 8), &r, 8);
      }
    } else {
      std::uint32_t v = 0;
      if (fused) {
        v = static_cast<std::uint32_t>(acc.data[l][0]);
      } else {
        std::memcpy(&v, w.local(l, acc.frame + in.call_args[1], 4), 4);
      }
      changed |= std::memcmp(word, &v, 4) != 0 || bit != 0;
      std::memcpy(word, &v, 4);
      bit = 0;
      ledger.holders.erase(&bit);
      ++stats_.lock_bit_stores;
    }
  }
  // The steps folded into a fused LDSLK take the result apart (the lock predicate, the word).
  for (const ExecInst& step : in.folded) exec_alu(w, step, acc.mask);
  acc.done |= acc.mask;
  acc.succeeded |= ok;
  if (changed) ++progress_;
}

namespace {

// perform()'s fast path: every lane's access is global, aligned and inside one mapped range
// (the per-lane checks can then be skipped).
template <class Reader>
bool all_lanes_mapped(const MemAccess& acc, LaneMask mask, unsigned n, Reader& rd) {
  Addr lo = ~Addr{0}, hi = 0, ored = 0;
  bool all_global = true;
  for (int li : lanes(mask)) {
    const Addr x = acc.addr[li];
    all_global &= static_cast<Space>(acc.space[li]) == Space::kGlobal;
    lo = std::min(lo, x);
    hi = std::max(hi, x);
    ored |= x;
  }
  const unsigned span = n * acc.vec;
  return all_global && (n <= 1 || (ored % std::min(span, 16u)) == 0) && hi - lo < (Addr{1} << 31) &&
         rd.valid(lo, static_cast<unsigned>(hi - lo) + span);
}

// The value an arithmetic or logic atomic `op` (add, min, max, inc, dec, and, or, xor) of type
// `type` (n bytes) leaves in memory given the `old` value and operand `b`, in `nv`; false for
// any other operation.
bool atomic_combine(Mod op, DType type, bool is_float, bool sgn, unsigned n, std::uint64_t old,
                    std::uint64_t b, std::uint64_t& nv) {
  switch (op) {
    case Mod::kAddOp:
      if (type == DType::kF32) {
        nv = bits_f32(as_f32(old) + as_f32(b));
      } else if (type == DType::kF64) {
        nv = bits_f64(as_f64(old) + as_f64(b));
      } else if (type == DType::kF16) {
        nv = float_to_half(half_to_float(static_cast<std::uint16_t>(old)) +
                           half_to_float(static_cast<std::uint16_t>(b)));
      } else {
        nv = old + b;
      }
      return true;
    case Mod::kMinOp:
    case Mod::kMaxOp: {
      bool take_b;
      if (is_float) {
        double x = type == DType::kF64 ? as_f64(old) : as_f32(old);
        double y = type == DType::kF64 ? as_f64(b) : as_f32(b);
        take_b = op == Mod::kMinOp ? y < x : y > x;
      } else if (sgn) {
        std::int64_t x = sext_bytes(old, n), y = sext_bytes(b, n);
        take_b = op == Mod::kMinOp ? y < x : y > x;
      } else {
        std::uint64_t x = trunc_bytes(old, n), y = trunc_bytes(b, n);
        take_b = op == Mod::kMinOp ? y < x : y > x;
      }
      nv = take_b ? b : old;
      return true;
    }
    case Mod::kIncOp:
      nv = trunc_bytes(old, n) >= trunc_bytes(b, n) ? 0 : old + 1;
      return true;
    case Mod::kDecOp:
      nv = (trunc_bytes(old, n) == 0 || trunc_bytes(old, n) > trunc_bytes(b, n)) ? b : old - 1;
      return true;
    case Mod::kAndOp:
      nv = old & b;
      return true;
    case Mod::kOrOp:
      nv = old | b;
      return true;
    case Mod::kXorOp:
      nv = old ^ b;
      return true;
    default:
      return false;
  }
}

// A compare-and-swap lane's outcome: the warp's record of its last global CAS (`warp_cas`:
// Executor::record_warp_cas, or a parallel memory phase's log of it), and the counters of lock
// requests (simtsync_lock) or plain CAS attempts (`stats`: ExecStats or PerformCounts).
template <class Stats, class WarpCas>
void record_cas(Warp& w, Stats& stats, const ExecInst& in, const MemAccess& acc, unsigned l,
                bool swapped, WarpCas& warp_cas) {
  if (static_cast<Space>(acc.space[l]) == Space::kGlobal) warp_cas(w, acc.addr[l], in.pc, swapped);
  if (is_lock_acquire(in.lock_op)) {
    ++stats.lock_requests;
    stats.lock_acquired += swapped;
  } else {
    ++stats.cas_attempts;
    stats.cas_failures += !swapped;
  }
}

// ld/ldu: the elements of each lane of `mask`, read with `read` (perform's), into its
// destination registers.
template <class Read>
void load_lanes(Warp& w, const ExecInst& in, const MemAccess& acc, LaneMask mask, bool sgn,
                Read& read) {
  const unsigned n = acc.bytes;
  for (int li : lanes(mask)) {
    const unsigned l = static_cast<unsigned>(li);
    for (unsigned k = 0; k < acc.vec; ++k) {
      std::uint64_t v = read(l, acc.addr[l] + k * n, acc.space[l]);
      if (sgn) v = static_cast<std::uint64_t>(sext_bytes(v, n));
      if (in.dst[k] != kNoReg) w.reg(in.dst[k])[l] = v;
    }
  }
}

// st: the captured elements of each lane of `mask`, written with `write` (perform's); true when
// memory changed.
template <class Write>
bool store_lanes(const MemAccess& acc, LaneMask mask, Write& write) {
  const unsigned n = acc.bytes;
  bool changed = false;
  for (int li : lanes(mask)) {
    const unsigned l = static_cast<unsigned>(li);
    for (unsigned k = 0; k < acc.vec; ++k)
      changed |= write(l, acc.addr[l] + k * n, acc.space[l], trunc_bytes(acc.data[l][k], n));
  }
  return changed;
}

// atom/red: each lane of `mask` reads, combines and writes back with perform's `read` and
// `write` (`fault(lane, what)` for an unsupported operation); `ok` loses the lanes whose
// compare-and-swap failed. True when memory changed.
template <class Stats, class Read, class Write, class Fault, class WarpCas>
bool atomic_lanes(Warp& w, const ExecInst& in, const MemAccess& acc, LaneMask mask, Stats& stats,
                  LaneMask& ok, Read& read, Write& write, Fault& fault, WarpCas& warp_cas) {
  const ptx::InstAttrs& a = in.a;
  const unsigned n = acc.bytes;
  const bool sgn = ptx::dtype_is_signed(a.type);
  const Mod op = a.op.value_or(Mod::kAddOp);
  const bool is_float = ptx::dtype_is_float(a.type);
  bool changed = false;
  // Lanes are serialized in lane order, as an atomic unit processes them.
  for (int li : lanes(mask)) {
    const unsigned l = static_cast<unsigned>(li);
    const std::uint64_t old = read(l, acc.addr[l], acc.space[l]);
    const std::uint64_t b = acc.data[l][0], c = acc.data[l][1];
    std::uint64_t nv = old;
    switch (op) {
      case Mod::kExchOp:
        nv = b;
        stats.unlock_requests += in.lock_op == IntrinsicOp::kUnlock;
        break;
      case Mod::kCasOp: {
        const bool swapped = trunc_bytes(old, n) == trunc_bytes(b, n);
        if (swapped) {
          nv = c;
        } else {
          ok &= ~(LaneMask{1} << l);
        }
        record_cas(w, stats, in, acc, l, swapped, warp_cas);
        break;
      }
      default:
        if (!atomic_combine(op, a.type, is_float, sgn, n, old, b, nv))
          fault(l, fmt::format("atomic operation .{} is not supported", ptx::mod_name(op)));
    }
    changed |= write(l, acc.addr[l], acc.space[l], trunc_bytes(nv, n));
    // (A try-lock's dst[0] is its result, written when the unit resolves it.)
    if (in.op == Opcode::kAtom && in.dst[0] != kNoReg && in.lock_op != IntrinsicOp::kTryLock)
      w.reg(in.dst[0])[l] =
          sgn ? static_cast<std::uint64_t>(sext_bytes(old, n)) : trunc_bytes(old, n);
  }
  return changed;
}

}  // namespace

void Executor::perform(Warp& w, MemAccess& acc) {
  const ExecInst& in = *acc.inst;
  if (is_lock_bit(in.lock_op)) {
    perform_lock_bit(w, acc);
    return;
  }
  const unsigned n = acc.bytes;
  const bool sgn = ptx::dtype_is_signed(in.a.type);
  // Fast path: when every lane's access is global, aligned and inside one mapped range, the
  // per-lane checks below can be skipped.
  const bool checked = all_lanes_mapped(acc, acc.mask, n, rd_);
  // Both inlined into the lane loops below: a call per lane was a third of their cost.
  auto read = [&](unsigned l, Addr addr, std::uint8_t sp) __attribute__((always_inline)) {
    std::uint64_t v = 0;
    if (checked) return rd_.read_element(addr, std::min(n, 8u));
    if (static_cast<Space>(sp) == Space::kGlobal) {
      if (!rd_.valid(addr, n))
        fault(w, l, in,
              fmt::format("out-of-bounds global read of {} bytes at {:#x}: {}", n, addr,
                          mem_.describe(addr)));
      if (n > 1 && addr % std::min(n, 16u) != 0)
        fault(w, l, in, fmt::format("misaligned {}-byte global read at {:#x}", n, addr));
      rd_.read_small(addr, &v, std::min(n, 8u));
    } else {
      std::memcpy(&v, lane_ptr(w, l, sp, addr, n, false, in), std::min(n, 8u));
    }
    return v;
  };
  // Returns true when memory changed.
  auto write = [&](unsigned l, Addr addr, std::uint8_t sp, std::uint64_t v)
      __attribute__((always_inline)) {
    if (static_cast<Space>(sp) == Space::kGlobal) {
      if (!checked && !mem_.valid(addr, n))
        fault(w, l, in,
              fmt::format("out-of-bounds global write of {} bytes at {:#x}: {}", n, addr,
                          mem_.describe(addr)));
      if (!checked && n > 1 && addr % std::min(n, 16u) != 0)
        fault(w, l, in, fmt::format("misaligned {}-byte global write at {:#x}", n, addr));
      return mem_.store_element(addr, v, n);
    }
    std::uint8_t* p = lane_ptr(w, l, sp, addr, n, true, in);
    if (std::memcmp(p, &v, n) == 0) return false;
    std::memcpy(p, &v, n);
    return true;
  };
  auto lane_fault = [&](unsigned l, const std::string& what) { fault(w, l, in, what); };
  auto record_warp_cas = [](Warp& cw, Addr a, Pc pc, bool swapped) {
    Executor::record_warp_cas(cw, a, pc, swapped);
  };

  bool changed = false;
  LaneMask ok = acc.mask;
  const Space sp0 = static_cast<Space>(acc.space[first_lane(acc.mask)]);
  if (count_ && sp0 == Space::kShared) ++stats_.shared_accesses;
  if (count_ && sp0 == Space::kLocal) ++stats_.local_accesses;

  switch (in.op) {
    case Opcode::kLd:
    case Opcode::kLdu:
      if (count_) ++stats_.loads;
      load_lanes(w, in, acc, acc.mask, sgn, read);
      break;
    case Opcode::kSt:
      if (count_) ++stats_.stores;
      changed = store_lanes(acc, acc.mask, write);
      break;
    case Opcode::kAtom:
    case Opcode::kRed:
      if (count_) ++stats_.atomics;
      changed =
          atomic_lanes(w, in, acc, acc.mask, stats_, ok, read, write, lane_fault, record_warp_cas);
      break;
    default:
      break;
  }
  acc.done |= acc.mask;
  acc.succeeded |= ok;
  if (changed) ++progress_;
}

void Executor::record_warp_cas(Warp& w, Addr addr, Pc pc, bool swapped) {
  w.cas_wins += swapped;
  w.cas_losses = swapped ? 0 : w.cas_losses + 1;
  w.cas_addr = addr;
  w.cas_pc = pc;
}

LaneMask Executor::perform_shard(Warp& w, MemAccess& acc, LaneMask subset, PerformShard& sh,
                                 PerformCounts& c) const {
  const ExecInst& in = *acc.inst;
  const LaneMask mask = acc.mask & subset;
  if (mask == 0) return 0;
  const unsigned n = acc.bytes;
  const bool sgn = ptx::dtype_is_signed(in.a.type);
  GlobalMemory::View& mem = sh.mem;
  // perform()'s reads and writes of global lanes, with its checks and their order.
  const bool checked = all_lanes_mapped(acc, mask, n, mem);
  auto read = [&](unsigned l, Addr addr, std::uint8_t) {
    if (!checked) {
      if (!mem.valid(addr, n))
        fault(w, l, in,
              fmt::format("out-of-bounds global read of {} bytes at {:#x}: {}", n, addr,
                          mem.describe(addr)));
      if (n > 1 && addr % std::min(n, 16u) != 0)
        fault(w, l, in, fmt::format("misaligned {}-byte global read at {:#x}", n, addr));
    }
    return mem.read_element(addr, std::min(n, 8u));
  };
  auto write = [&](unsigned l, Addr addr, std::uint8_t, std::uint64_t v) {
    if (!checked && !mem.valid(addr, n))
      fault(w, l, in,
            fmt::format("out-of-bounds global write of {} bytes at {:#x}: {}", n, addr,
                        mem.describe(addr)));
    if (!checked && n > 1 && addr % std::min(n, 16u) != 0)
      fault(w, l, in, fmt::format("misaligned {}-byte global write at {:#x}", n, addr));
    return mem.store_element(addr, v, n);
  };
  auto lane_fault = [&](unsigned l, const std::string& what) { fault(w, l, in, what); };
  auto log_warp_cas = [&sh](Warp& cw, Addr a, Pc pc, bool swapped) {
    sh.cas.push_back({sh.when, &cw, a, pc, swapped});
  };
  bool changed = false;
  LaneMask ok = mask;
  switch (in.op) {
    case Opcode::kLd:
    case Opcode::kLdu:
      load_lanes(w, in, acc, mask, sgn, read);
      break;
    case Opcode::kSt:
      changed = store_lanes(acc, mask, write);
      break;
    case Opcode::kAtom:
    case Opcode::kRed:
      changed = atomic_lanes(w, in, acc, mask, c, ok, read, write, lane_fault, log_warp_cas);
      break;
    default:
      break;
  }
  // Other partitions set other lanes' bits of the same access at the same time.
  std::atomic_ref<LaneMask>(acc.done).fetch_or(mask, std::memory_order_relaxed);
  std::atomic_ref<LaneMask>(acc.succeeded).fetch_or(ok, std::memory_order_relaxed);
  if (changed) ++c.progress;
  return ok;
}

void Executor::count_first(const MemAccess& acc) {
  switch (acc.inst->op) {
    case Opcode::kLd:
    case Opcode::kLdu:
      ++stats_.loads;
      break;
    case Opcode::kSt:
      ++stats_.stores;
      break;
    case Opcode::kAtom:
    case Opcode::kRed:
      ++stats_.atomics;
      break;
    default:
      break;
  }
}

void Executor::add_counts(PerformCounts& c) {
  stats_.cas_attempts += c.cas_attempts;
  stats_.cas_failures += c.cas_failures;
  stats_.lock_requests += c.lock_requests;
  stats_.lock_acquired += c.lock_acquired;
  stats_.unlock_requests += c.unlock_requests;
  progress_ += c.progress;
  c = PerformCounts{};
}

}  // namespace simtsync::func
