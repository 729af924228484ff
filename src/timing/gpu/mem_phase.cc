#include "timing/gpu/mem_phase.h"

#include "timing/gpu/launch.h"

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
  // The warps' CAS records: L2 cycle first, then partition.
  std::size_t left = 0;
  for (std::size_t k = 0; k < shards_.size(); ++k) {
    at_[k] = 0;
    left += shards_[k].perf.cas.size();
  }
  for (; left > 0; --left) {
    std::size_t best = shards_.size();
    for (std::size_t k = 0; k < shards_.size(); ++k) {
      const auto& cas = shards_[k].perf.cas;
      if (at_[k] < cas.size() &&
          (best == shards_.size() || cas[at_[k]].when < shards_[best].perf.cas[at_[best]].when))
        best = k;
    }
    const func::PerformShard::Cas& e = shards_[best].perf.cas[at_[best]++];
    func::Executor::record_warp_cas(*e.w, e.addr, e.pc, e.swapped);
  }
  for (Shard& s : shards_) s.perf.cas.clear();
}

}  // namespace simtsync::gpu
