#include "timing/gpu/mem_phase.h"

#include "timing/gpu/launch.h"
#include "timing/mem/tick_order.h"

namespace simtsync::gpu {

MemPhase::MemPhase(Launch& l, PhasePool& pool, unsigned partitions) : l_(l), pool_(pool) {
  shards_.reserve(partitions);
  for (unsigned c = 0; c < partitions; ++c) {
    shards_.emplace_back(func::PerformShard(*l.gmem, pages_));
    shards_.back().counts.resize(l.executors.size());
  }
  at_.resize(partitions);
  fold_.resize(l.executors.size());
}

std::uint64_t MemPhase::perform(unsigned part, std::uint64_t when, const mem::MemRequest& r,
                                std::uint64_t lanes) {
  if (!r.access) return 0;
  Shard& s = shards_[part];
  const auto sm = static_cast<unsigned>(r.sm);
  func::PerformCounts& c = s.counts[sm];
  const bool counted = c.any();
  s.perf.when = when;
  const std::uint64_t ok =
      l_.executors[sm]->perform_shard(l_.warp_of(r), *r.access, lanes, s.perf, c);
  if (!counted && c.any()) s.touched.push_back(sm);
  return ok;
}

void MemPhase::count_first(const mem::MemRequest& r) {
  if (!r.access) return;
  l_.executors[static_cast<std::size_t>(r.sm)]->count_first(*r.access);
}

void MemPhase::merge() {
  for (Shard& s : shards_) {
    for (const unsigned sm : s.touched) {
      l_.executors[sm]->add_counts(s.counts[sm]);
      fold_[sm] = 1;
    }
    s.touched.clear();
  }
  // The launch totals are exact before the next SM phase, as after a serial perform.
  for (std::size_t sm = 0; sm < fold_.size(); ++sm)
    if (fold_[sm]) {
      l_.executors[sm]->fold();
      fold_[sm] = 0;
    }
  // The warps' CAS records, in a serial tick's order.
  bool any = false;
  for (const Shard& s : shards_) any |= !s.perf.cas.empty();
  if (!any) return;
  using Cas = func::PerformShard::Cas;
  mem::for_each_in_tick_order(
      shards_.size(), [this](std::size_t k) -> const auto& { return shards_[k].perf.cas; },
      [](const Cas& e) { return e.when; },
      [](const Cas& e) { func::Executor::record_warp_cas(*e.w, e.addr, e.pc, e.swapped); }, at_);
  for (Shard& s : shards_) s.perf.cas.clear();
}

}  // namespace simtsync::gpu
