// Fetch stage: fills per-warp I-buffers through the I-cache, in the order of the fetch policy
// (sm.fetch_policy.impl; sm.fetch_width warps per cycle, up to sm.fetch_decode instructions of
// one I-cache line each). Fetch stops after a control instruction until it issues (no fetch
// past an unresolved branch), unless sm.fetch_past_control: then decode and fetch go on
// sequentially, and the issue stage drops entries that turn out to be on the wrong path when it
// next looks at the warp (GPGPU-Sim 3.x).
#include <algorithm>
#include <bit>

#include "timing/sm/sm.h"

namespace simtsync::sm {

bool Sm::fetch(Cycle now) {
  bool any = false;
  unsigned fetched = 0;
  if (fetchable_ == 0) return false;
  // One warp of the policy's order: fetch into its I-buffer.
  auto visit = [&](int si) {
    const unsigned s = static_cast<unsigned>(si);
    WarpSlot& ws = slots_[s];
    if (ws.fetch_ready > now) {
      ++stats_.icache_stall_cycles;
      return;
    }
    const func::ExecInst* in = ex_.program().at(ws.fetch_pc);
    if (!in) {
      ws.fetch_stop = true;  // past the end of the function: an implicit return
      update_fetch_bit(static_cast<int>(s));
      return;
    }
    ++fetched;
    fetch_policy_->fetched(si, now);
    const ICacheLookup look = icache_.access(
        ws.fetch_pc, now, p_.icache_fill_from_memory ? kWaitFill : now + p_.icache_miss_latency);
    if (!look.hit) {
      if (p_.icache_fill_from_memory) {
        // The line comes from L2 through the memory port; the warp waits for the response (a
        // pending hit waits for the fill already asked for).
        const Addr line = ws.fetch_pc / p_.icache_line * p_.icache_line;
        ws.fetch_ready = kWaitFill;
        ws.ifill_line = line;
        if (look.new_miss &&
            std::find(ifill_queue_.begin(), ifill_queue_.end(), line) == ifill_queue_.end() &&
            std::find(ifill_inflight_.begin(), ifill_inflight_.end(), line) ==
                ifill_inflight_.end())
          ifill_queue_.push_back(line);
      } else {
        ws.fetch_ready = look.ready;
        note_slot_ready(si, ws.fetch_ready);
      }
      ++stats_.icache_stall_cycles;
      any = true;
      return;
    }
    // Decode up to sm.fetch_decode consecutive instructions of the fetched line into free
    // I-buffer entries (GPGPU-Sim 3.x decodes two per fetch); a control instruction ends it.
    const Addr first = ws.fetch_pc;
    ws.ib[ws.ib_count++] = buffered(in, now + p_.icache_hit_latency);
    ++stats_.ibuffer_fills;
    ws.fetch_pc = in->fallthrough();
    // A control instruction ends the group and stops fetch (unless sm.fetch_past_control).
    const auto stops = [&](const func::ExecInst* x) {
      return !p_.fetch_past_control && ptx::opcode_unit(x->op) == ptx::UnitClass::kCtrl;
    };
    bool ctrl = stops(in);
    for (unsigned k = 1; k < p_.fetch_decode && !ctrl && ws.ib_count < p_.ibuffer_slots &&
                         ws.fetch_pc / p_.icache_line == first / p_.icache_line;
         ++k) {
      in = ex_.program().at(ws.fetch_pc);
      if (!in) break;
      ws.ib[ws.ib_count++] = buffered(in, now + p_.icache_hit_latency);
      ++stats_.ibuffer_fills;
      ws.fetch_pc = in->fallthrough();
      ctrl = stops(in);
    }
    if (ctrl) ws.fetch_stop = true;
    note_slot_ready(si, now + p_.icache_hit_latency);
    update_fetch_bit(static_cast<int>(s));
    any = true;
  };
  const auto n = static_cast<unsigned>(slots_.size());
  unsigned start = 0;
  if (fetch_policy_->rotation(n, start)) {
    // The order is the wanting slots from `start` up, wrapping: walked from the mask as it was
    // at the start (visits change it), no further than the fetch width (most cycles one warp).
    for (std::uint64_t m = std::rotr(fetchable_, static_cast<int>(start));
         m != 0 && fetched < p_.fetch_width; m &= m - 1)
      visit(static_cast<int>((start + static_cast<unsigned>(std::countr_zero(m))) % 64));
    return any;
  }
  fetch_policy_->order(fetchable_, n, now, fetch_order_);
  for (int si : fetch_order_) {
    if (fetched >= p_.fetch_width) break;
    visit(si);
  }
  return any;
}

}  // namespace simtsync::sm
