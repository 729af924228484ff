// The parallel memory phase's side of the memory hierarchy (issue 48; docs/parallel-sm-phase.md,
// section 0b): whether a cycle's L2 and DRAM ticks may run one memory partition per job, the
// jobs, and the merge afterwards in a serial tick's order.
#include <bit>
#include <exception>

#include "timing/mem/memory_hierarchy.h"
#include "timing/mem/tick_order.h"

namespace simtsync::mem {

bool MemoryHierarchy::parallel_ready(std::uint64_t t_fs) const {
  // Partitions are independent when no unit is shared across slices' ticks (event_driven_: a
  // partition's shared units tick after every slice), nothing hears every slice (the trace's
  // atomic observer) and every live request's effects stay in its own lines.
  if (!phase_ || !event_driven_ || observing_ || nonlocal_live_ != 0) return false;
  if (l2_clk_.next_edge_fs() > t_fs) return false;  // no L2 cycle in this one
  // Handing the phase to the threads costs about a microsecond: worth it only with several
  // busy slices. (Which thread ticks a partition never changes a result: a speed choice only.)
  constexpr unsigned kMinBusySlices = 4;
  unsigned busy = 0;
  for (std::size_t k = 0; k < part_busy_.words() && busy < kMinBusySlices; ++k)
    busy += static_cast<unsigned>(std::popcount(part_busy_.word(k)));
  return busy >= kMinBusySlices;
}

void MemoryHierarchy::tick_partition(unsigned c) {
  // A serial tick runs every busy slice's L2 cycle, in slice order, before the next L2 cycle,
  // then every channel's DRAM cycles; a partition's slices and channel reach nothing of another
  // partition, so its own share of that order is the whole of what it sees.
  PartLog& lg = logs_[c];
  const std::size_t spp = map_.slices_per_partition();
  try {
    for (const std::uint64_t m : l2_cycles_) {
      lg.when = m;
      for (std::size_t o = c * spp; o < (c + 1) * spp; ++o) {
        if (!slice_busy_[o] || part_next_[o] > m) continue;
        MemoryPartition& mp = *parts_[o];
        mp.tick_l2(m);
        part_next_[o] = mp.next_tick(m);
        if (!mp.busy()) slice_busy_[o] = 0;
      }
    }
  } catch (...) {
    lg.error = std::current_exception();
    lg.error_when = lg.when;
    return;
  }
  for (const std::uint64_t d : dram_cycles_)
    if (channels_[c]->tick(d))
      for (std::size_t o = c * spp; o < (c + 1) * spp; ++o) part_next_[o] = 0;
}

void MemoryHierarchy::tick_partitions(std::uint64_t t_fs) {
  // The clock edges do not depend on what the ticks do: take them all first.
  l2_cycles_.clear();
  dram_cycles_.clear();
  while (l2_clk_.advance(t_fs)) l2_cycles_.push_back(l2_clk_.cycle());
  while (dram_clk_.advance(t_fs)) dram_cycles_.push_back(dram_clk_.cycle());
  ++parallel_phases_;
  for (std::size_t o = 0; o < parts_.size(); ++o) slice_busy_[o] = part_busy_.test(o);
  const auto parts = static_cast<unsigned>(channels_.size());
  const unsigned threads = phase_->threads();
  in_phase_ = true;
  // Thread t ticks the t-th block of partitions, the same block every cycle.
  phase_->run([&](unsigned t) {
    for (unsigned c = t * parts / threads; c < (t + 1) * parts / threads; ++c) tick_partition(c);
  });
  in_phase_ = false;
  for (std::size_t o = 0; o < parts_.size(); ++o)
    if (!slice_busy_[o]) part_busy_.clear(o);
  // A serial tick would have stopped at the first fault in its order (L2 cycle, partition);
  // nothing after it is seen (the launch ends).
  const PartLog* failed = nullptr;
  for (const PartLog& lg : logs_)
    if (lg.error && (!failed || lg.error_when < failed->error_when)) failed = &lg;
  if (failed) {
    const std::exception_ptr e = failed->error;
    for (PartLog& lg : logs_) {
      lg.error = nullptr;
      lg.events.clear();
      lg.first.clear();
    }
    std::rethrow_exception(e);
  }
  // Counters first (their order does not matter), then what does: the executors' records and
  // the request table's parks and drops, each in a serial tick's order.
  for (PartLog& lg : logs_) {
    for (const std::uint32_t id : lg.first) {
      Req& q = reqs_[id];
      if (q.performed) continue;
      phase_->count_first(q.r);
      q.performed = true;
    }
    lg.first.clear();
  }
  phase_->merge();
  std::size_t events = 0;
  for (const PartLog& lg : logs_) events += lg.events.size();
  if (events == 0) return;
  for_each_in_tick_order(
      logs_.size(), [this](std::size_t k) -> const auto& { return logs_[k].events; },
      [](const PartEvent& e) { return e.when; },
      [this](const PartEvent& e) {
        if (e.dropped)
          dropped(e.p);
        else
          parked(e.p);
      },
      merge_at_);
  for (PartLog& lg : logs_) lg.events.clear();
}

}  // namespace simtsync::mem
