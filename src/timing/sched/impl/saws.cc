// SAWS, synchronization-aware warp scheduling (Liu, Yang and Melhem, MICRO 2015), as seed 002
// sec. 6.6 describes and compares it: a CTA one of whose warps has reached a barrier is
// prioritized over the CTAs none of whose warps waits, and prioritized CTAs are ordered by
// first-hit time: the CTA whose current barrier was hit first goes first, however many of its
// warps wait (seed 002 Fig. 13: where MWF moves to the CTA with most warps waiting, SAWS stays
// with the first CTA). The first-hit order lives in the SM's warp priority table, which every
// scheduler of the SM reads: that is the coordination between an SM's independent schedulers
// that SAWS is about (a CTA's warps are spread over the schedulers, and each of them raises the
// lagging warps of the same CTA). Within a prioritized CTA and among the rest: greedy then
// oldest (SAWS is compared against GTO). Warps waiting at a barrier cannot issue; they come
// last and are still offered, so their cycles stay `barrier` stalls. docs/policies.md states
// what of the SAWS paper is not modelled.
#include <algorithm>

#include "timing/sched/i_warp_scheduler.h"
#include "timing/sched/warp_priority_table.h"

namespace simtsync::sched {
namespace {

class Saws final : public IWarpScheduler {
 public:
  explicit Saws(const PolicyContext& ctx)
      : warps_(ctx.warps), wpt_(warp_priority_table(ctx, own_wpt_)) {}

  void order(std::span<const SchedWarp> warps, std::uint64_t version, Cycle,
             std::vector<int>& out) override {
    const std::uint64_t key = (wpt_.version() << 32) ^ static_cast<std::uint32_t>(last_);
    if (memo_.holds(out, version, key)) return;
    out.clear();
    entries_.clear();
    const int n = static_cast<int>(warps.size());
    const bool greedy_live = last_ >= 0 && last_ < n && warps[static_cast<size_t>(last_)].valid;
    for (int i = 0; i < n; ++i) {
      const SchedWarp& w = warps[static_cast<size_t>(i)];
      if (!w.valid) continue;
      const int c = warps_ ? warps_->cta_slot(w.warp_id) : -1;
      const std::uint64_t hit = wpt_.first_hit(c);
      // Prioritized CTAs (hit > 0) by first hit, then every other CTA's warps (rank max).
      const std::uint64_t rank = hit > 0 ? hit : ~std::uint64_t{0};
      const bool greedy = greedy_live && i == last_;
      entries_.push_back({rank, greedy ? 0u : 1u, greedy ? 0 : w.age, w.warp_id, i});
    }
    std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
      if (a.rank != b.rank) return a.rank < b.rank;
      if (a.greedy != b.greedy) return a.greedy < b.greedy;
      if (a.age != b.age) return a.age < b.age;
      return a.warp_id < b.warp_id;
    });
    append_running_then_waiting(entries_, warps, warps_, out);
    memo_.remember(out, version, key);
  }

  void issued(int index, Cycle) override { last_ = index; }
  std::string name() const override { return "saws"; }

 private:
  struct Entry {
    std::uint64_t rank;  // first-hit rank of the CTA's barrier (max: no warp of it waits)
    unsigned greedy;     // 0: the scheduler's last issued warp
    std::uint64_t age;
    int warp_id;
    int index;
  };

  const IWarpView* warps_;
  std::unique_ptr<WarpPriorityTable> own_wpt_;
  WarpPriorityTable& wpt_;
  int last_ = -1;
  std::vector<Entry> entries_;
  OrderMemo memo_;
};

}  // namespace

std::unique_ptr<IWarpScheduler> make_saws(const PolicyContext& ctx, const config::PluginParams&) {
  return std::make_unique<Saws>(ctx);
}
void declare_saws(config::PluginDecl&) {}

}  // namespace simtsync::sched
