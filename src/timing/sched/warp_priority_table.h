// The warp priority table (WPT) of seed 002 sec. 4.1.2: per CTA slot of an SM, the number of
// its warps waiting at a barrier; incremented when one of its warps arrives, reset when the
// barrier releases. One per SM (a shared unit: every scheduler of the SM reads the same
// table), fed by the SM's events. It also remembers each slot's launch CTA index, which MWF
// uses to break ties (the smaller CTA id first), and a version that changes on every update
// (policies cache their order on it). For SAWS it also keeps each slot's first-hit order: when
// the first warp of the slot's current warp-phase arrived at the barrier (a sequence number
// that grows with every first arrival on the SM, so equal cycles keep the arrival order).
#pragma once

#include <cstdint>
#include <vector>

#include "timing/sched/context.h"

namespace simtsync::sched {

class WarpPriorityTable final : public ISharedUnit, public sm::ISmObserver {
 public:
  static constexpr const char* kName = "warp_priority_table";

  // Subscribes to `events` when given; `warps` (may be null) tells whether an arriving warp
  // really waits: the last warp to arrive releases the barrier before its own arrival is
  // reported, and must not count.
  WarpPriorityTable(const IWarpView* warps, sm::EventBus* events) : warps_(warps) {
    if (events) events->subscribe(this);
  }

  unsigned waiting(int cta_slot) const {
    return cta_slot >= 0 && static_cast<size_t>(cta_slot) < rows_.size()
               ? rows_[static_cast<size_t>(cta_slot)].waiting
               : 0;
  }
  // The launch CTA index in `cta_slot` (the slot itself when no launch was seen).
  int cta_id(int cta_slot) const {
    return cta_slot >= 0 && static_cast<size_t>(cta_slot) < rows_.size() &&
                   rows_[static_cast<size_t>(cta_slot)].cta >= 0
               ? rows_[static_cast<size_t>(cta_slot)].cta
               : cta_slot;
  }
  std::uint64_t version() const { return version_; }
  // The first-hit rank of `cta_slot`'s current barrier: smaller hit earlier; 0 when none of its
  // warps waits.
  std::uint64_t first_hit(int cta_slot) const {
    return cta_slot >= 0 && static_cast<size_t>(cta_slot) < rows_.size()
               ? rows_[static_cast<size_t>(cta_slot)].hit
               : 0;
  }

  void on_issue(const sm::IssueEvent& e) override {
    if (!e.barrier_arrival || e.cta_slot < 0) return;
    if (warps_ && !warps_->at_barrier(e.slot)) return;  // it released the barrier
    Row& r = row(e.cta_slot);
    if (r.waiting++ == 0) r.hit = ++hits_;
    ++version_;
  }
  void on_barrier_release(const sm::BarrierEvent& e) override {
    if (e.cta_slot < 0) return;
    Row& r = row(e.cta_slot);
    r.waiting = 0;
    r.hit = 0;
    ++version_;
  }
  void on_cta_launch(const sm::CtaEvent& e) override {
    if (e.cta_slot < 0) return;
    row(e.cta_slot) = {0, e.cta, 0};
    ++version_;
  }
  void on_cta_exit(const sm::CtaEvent& e) override {
    if (e.cta_slot < 0) return;
    row(e.cta_slot) = {0, -1, 0};
    ++version_;
  }

 private:
  struct Row {
    unsigned waiting = 0;
    int cta = -1;
    std::uint64_t hit = 0;  // first-hit rank of the current barrier (0: none waits)
  };
  Row& row(int cta_slot) {
    if (static_cast<size_t>(cta_slot) >= rows_.size())
      rows_.resize(static_cast<size_t>(cta_slot) + 1);
    return rows_[static_cast<size_t>(cta_slot)];
  }

  const IWarpView* warps_;
  std::vector<Row> rows_;
  std::uint64_t version_ = 0;
  std::uint64_t hits_ = 0;
};

// The SM's table (created and subscribed on first use), or `fallback` when the context has no
// shared units (a policy built alone in a test).
inline WarpPriorityTable& warp_priority_table(const PolicyContext& ctx,
                                              std::unique_ptr<WarpPriorityTable>& fallback) {
  if (ctx.shared)
    return ctx.shared->get<WarpPriorityTable>(WarpPriorityTable::kName, ctx.warps, ctx.events);
  if (!fallback) fallback = std::make_unique<WarpPriorityTable>(ctx.warps, ctx.events);
  return *fallback;
}

}  // namespace simtsync::sched
