#include "simt/impl/lock_stack_spill.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

namespace simtsync::simt {

SpillingLockStack::SpillingLockStack(Pc start, LaneMask threads, unsigned entries,
                                     unsigned entry_bytes)
    : LockStack(start, threads),
      TimedHooks(this),
      entries_(std::max(1u, entries)),
      entry_bytes_(entry_bytes) {
  publish();
}

void SpillingLockStack::send(std::size_t index, bool write) {
  UnitRequest q;
  q.addr = static_cast<Addr>(index * entry_bytes_ % UnitRequest::kUnitAreaBytes);
  q.bytes = entry_bytes_;
  q.write = write;
  q.tag = (next_tag_++ << 1) | (write ? 0 : 1);  // bit 0: a fill, whose reply the warp awaits
  out_.push_back(q);
  counters_[kStackBytes] += entry_bytes_;
  if (write) {
    ++counters_[kSpills];
  } else {
    ++counters_[kFills];
    if (fills_out_++ == 0) {
      wait_start_ = clock();
      wait_over_ = false;
    }
  }
}

void SpillingLockStack::account() {
  const std::size_t n = stack_.size();
  const int touched = take_touched();
  const std::size_t low = touched < 0 ? 0 : static_cast<std::size_t>(touched);
  std::size_t base = std::min(base_, n);  // memory entries popped meanwhile are gone
  // The lock rules reached into the memory part: read it from the deepest entry touched up.
  const std::size_t traversed_low = low < base_ ? low : base_;
  for (std::size_t i = traversed_low; i < base_; ++i) send(i, false);
  // The hardware part is empty but the stack is not: its new top comes back.
  if (n > 0 && base >= n) {
    base = n - 1;
    if (!(traversed_low <= base && base < base_)) send(base, false);
  }
  // Traversed entries that stay in memory are written back.
  for (std::size_t i = traversed_low; i < base; ++i) send(i, true);
  // Spill what the hardware stack cannot hold.
  while (n - base > entries_) send(base++, true);
  base_ = base;
}

void SpillingLockStack::on_tick(Cycle now) {
  if (wait_over_) {
    counters_[kFillStall] += now > wait_start_ ? now - wait_start_ : 0;
    wait_over_ = false;
    wait_start_ = kNever;
  }
}

bool SpillingLockStack::on_pop_request(UnitRequest& out) {
  if (out_head_ >= out_.size()) {
    out_.clear();
    out_head_ = 0;
    return false;
  }
  out = out_[out_head_++];
  return true;
}

void SpillingLockStack::on_memory_reply(const MemoryReply& r) {
  if (!r.from_unit || (r.tag & 1) == 0 || fills_out_ == 0) return;  // spills need no answer
  if (--fills_out_ == 0) wait_over_ = true;
}

std::string SpillingLockStack::report_note() const {
  std::string note = LockStack::report_note();
  if (fills_out_ > 0)
    note += fmt::format(
        "{}the warp waits for {} reconvergence-stack entries to be filled from "
        "memory ({} of {} entries in memory)",
        note.empty() ? "" : "; ", fills_out_, base_, stack_.size());
  return note;
}

std::unique_ptr<IReconvergence> make_spilling_lock_stack(Pc start, LaneMask threads,
                                                         unsigned entries, unsigned entry_bytes) {
  return std::make_unique<SpillingLockStack>(start, threads, entries, entry_bytes);
}

}  // namespace simtsync::simt
