// Fetch stage: fills per-warp I-buffers through the I-cache, round robin over warps
// (sm.fetch_width warps per cycle). Fetch stops after a control instruction until it issues
// (no fetch past an unresolved branch).
#include <bit>

#include "timing/sm/sm.h"

namespace simtsync::sm {

bool Sm::fetch(Cycle now) {
  bool any = false;
  const unsigned n = static_cast<unsigned>(slots_.size());
  unsigned fetched = 0;
  // Round robin over the slots that want an instruction, starting at fetch_rr_.
  const unsigned start = fetch_rr_ % n;
  const std::uint64_t rotated =
      start == 0 ? fetchable_ : (fetchable_ >> start) | (fetchable_ << (64 - start));
  for (std::uint64_t m = rotated; m != 0 && fetched < p_.fetch_width; m &= m - 1) {
    const unsigned s = (start + static_cast<unsigned>(std::countr_zero(m))) % 64;
    if (s >= n) continue;
    WarpSlot& ws = slots_[s];
    if (ws.fetch_ready > now) {
      ++stats_.icache_stall_cycles;
      continue;
    }
    const func::ExecInst* in = ex_.program().at(ws.fetch_pc);
    if (!in) {
      ws.fetch_stop = true;  // past the end of the function: an implicit return
      update_fetch_bit(static_cast<int>(s));
      continue;
    }
    ++fetched;
    fetch_rr_ = s + 1;
    if (!icache_.access(ws.fetch_pc, now)) {
      ws.fetch_ready = now + p_.icache_miss_latency;
      ++stats_.icache_stall_cycles;
      any = true;
      continue;
    }
    ws.ib[ws.ib_count++] = {in, now + p_.icache_hit_latency};
    ++stats_.ibuffer_fills;
    ws.fetch_pc += kInstSize;
    if (ptx::opcode_unit(in->op) == ptx::UnitClass::kCtrl) ws.fetch_stop = true;
    update_fetch_bit(static_cast<int>(s));
    any = true;
  }
  return any;
}

}  // namespace simtsync::sm
