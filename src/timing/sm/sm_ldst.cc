// LD/ST unit: memory instructions wait here in issue order. Shared-memory accesses are served
// by the SM's banks (a request occupies them one cycle per way of bank conflict) and take
// effect when served; kernel parameters and constants come from the constant cache; global and
// local accesses are coalesced into 32-byte sectors and sent through the memory port, which may
// refuse (back-pressure) and decides when they take effect.
#include <algorithm>
#include <bit>
#include <map>

#include "timing/sm/sm.h"

namespace simtsync::sm {
namespace {

// Ways of bank conflict: the largest number of distinct 4-byte words one bank must deliver.
unsigned bank_conflicts(const func::MemAccess& acc, unsigned banks) {
  unsigned worst = 1;
  std::map<unsigned, std::vector<Addr>> per_bank;
  for (int l : func::lanes(acc.mask)) {
    for (unsigned k = 0; k < acc.vec; ++k) {
      const Addr word = (acc.addr[l] + k * acc.bytes) / 4;
      auto& v = per_bank[static_cast<unsigned>(word % banks)];
      if (std::find(v.begin(), v.end(), word) == v.end()) v.push_back(word);
      worst = std::max(worst, static_cast<unsigned>(v.size()));
    }
  }
  return worst;
}

}  // namespace

void Sm::pop_ldst() {
  ldst_queue_.erase(ldst_queue_.begin());
  for (std::uint64_t m = ldst_blocked_; m != 0; m &= m - 1)
    slots_[static_cast<size_t>(std::countr_zero(m))].blocked_ldst = false;
  ldst_blocked_ = 0;
}

void Sm::ldst(Cycle now) {
  for (size_t i = 0; i < shared_pending_.size();) {
    if (shared_pending_[i].at <= now) {
      const SharedPending sp = shared_pending_[i];
      shared_pending_.erase(shared_pending_.begin() + static_cast<std::ptrdiff_t>(i));
      finish_access(sp.slot, sp.access, now);
    } else {
      ++i;
    }
  }
  if (ldst_queue_.empty()) return;
  const LdstEntry e = ldst_queue_.front();
  func::MemAccess& acc = *e.access;
  func::Warp& w = *slots_[static_cast<size_t>(e.slot)].warp;
  const func::ExecInst& in = *acc.inst;
  const auto space = static_cast<ptx::Space>(acc.space[func::first_lane(acc.mask)]);
  if (space == ptx::Space::kShared) {
    if (shared_busy_ > now) return;
    const unsigned ways = bank_conflicts(acc, std::max(1u, p_.shared_banks));
    // Shared atomics: a read-lock, modify, write-unlock sequence per conflicting lane.
    const bool atomic = in.op == ptx::Opcode::kAtom || in.op == ptx::Opcode::kRed;
    const unsigned occupancy = atomic ? 3 * ways : ways;
    stats_.shared_conflict_cycles += occupancy - 1;
    ex_.perform(w, acc);
    shared_busy_ = now + occupancy;
    shared_pending_.push_back({now + p_.shared_latency + occupancy - 1, e.slot, e.access});
    pop_ldst();
    return;
  }
  if (in.a.space == ptx::Space::kParam || in.a.space == ptx::Space::kConst) {
    ex_.perform(w, acc);  // constant cache hit
    shared_pending_.push_back({now + p_.shared_latency, e.slot, e.access});
    pop_ldst();
    return;
  }
  mem::MemRequest r;
  r.kind = (in.op == ptx::Opcode::kAtom || in.op == ptx::Opcode::kRed) ? mem::ReqKind::kAtomic
           : in.op == ptx::Opcode::kSt                                 ? mem::ReqKind::kStore
                                                                       : mem::ReqKind::kLoad;
  r.sm = id_;
  r.warp_slot = e.slot;
  r.access = e.access;
  r.issued = now;
  // Coalescing: distinct 32-byte sectors; local addresses are per thread, so lanes never share.
  std::vector<Addr>& sectors = sector_scratch_;
  sectors.clear();
  for (int l : func::lanes(acc.mask)) {
    const Addr base = space == ptx::Space::kLocal ? (Addr{static_cast<unsigned>(l)} << 40) : 0;
    const Addr a = base + acc.addr[l];
    for (Addr s = a / 32; s <= (a + acc.bytes * acc.vec - 1) / 32; ++s) sectors.push_back(s);
  }
  std::sort(sectors.begin(), sectors.end());
  r.transactions = static_cast<unsigned>(std::unique(sectors.begin(), sectors.end()) - sectors.begin());
  if (r.kind == mem::ReqKind::kAtomic) {
    // The address most lanes hit decides the serialization (one lock word, typically).
    std::map<Addr, unsigned> count;
    unsigned best = 0;
    for (int l : func::lanes(acc.mask)) {
      unsigned c = ++count[acc.addr[l]];
      if (c > best) {
        best = c;
        r.first_address = acc.addr[l];
      }
    }
    r.same_address_ops = best;
  }
  if (!port_.try_send(r, now)) {
    ++stats_.memory_refusals;
    ldst_refused_ = true;  // retried after the next memory response wakes this SM
    return;
  }
  ldst_refused_ = false;
  pop_ldst();
}

}  // namespace simtsync::sm
