// Critical-fetch-first (CFF, seed 002 sec. 4.2): fetch for the warp the issue stage will pick
// next. The issue policies' latest orders are that prediction: rank 0 of every scheduler first
// (the scheduler to start with alternates by cycle), then rank 1, and so on, skipping warps that
// cannot issue next cycle: a warp the issue stage found blocked (its buffered instruction waits
// on the scoreboard, a fence or the LD/ST queue) comes after every warp that can issue, in the
// same rank order, and warps waiting at a barrier after those; warps in no order (a scheduler
// that has not ordered yet) last, in round robin. With GTO this is the seed's "the warp
// currently selected at the issue stage, or if that one is stalled, ... the oldest warp"; with
// MWF, the critical warps. Works with every issue policy. Without the blocked rule a greedy warp
// spinning on a shared load took every fetch while stalled on it, and the lock holder below it
// in GTO's order was never fetched (syncval_tiny_lock livelocked with one fetch per cycle).
#include <algorithm>

#include "timing/sched/i_fetch_policy.h"

namespace simtsync::sched {
namespace {

class FetchCff final : public IFetchPolicy {
 public:
  explicit FetchCff(const PolicyContext& ctx)
      : warps_(ctx.warps), slots_(ctx.sched_slots), orders_(ctx.issue_orders) {}

  void order(std::uint64_t wanting, unsigned n, Cycle now, std::vector<int>& out) override {
    out.clear();
    std::uint64_t left = n >= 64 ? wanting : wanting & ((std::uint64_t{1} << n) - 1);
    std::uint64_t waiting = 0;
    blocked_.clear();
    if (slots_ && orders_ && !orders_->empty()) {
      const size_t ns = std::min(slots_->size(), orders_->size());
      size_t ranks = 0;
      for (size_t s = 0; s < ns; ++s) ranks = std::max(ranks, (*orders_)[s].size());
      for (size_t r = 0; r < ranks && left; ++r)
        for (size_t k = 0; k < ns; ++k) {
          const size_t s = (static_cast<size_t>(now) + k) % ns;
          const auto& ord = (*orders_)[s];
          if (r >= ord.size()) continue;
          const auto& mine = (*slots_)[s];
          const size_t idx = static_cast<size_t>(ord[r]);
          if (idx >= mine.size()) continue;
          const int slot = mine[idx];
          const std::uint64_t bit = std::uint64_t{1} << slot;
          if (!(left & bit)) continue;
          left &= ~bit;
          if (warps_ && warps_->at_barrier(slot))
            waiting |= bit;
          else if (warps_ && warps_->issue_blocked(slot))
            blocked_.push_back(slot);
          else
            out.push_back(slot);
        }
    }
    out.insert(out.end(), blocked_.begin(), blocked_.end());
    append_rr(waiting, n, out);
    append_rr(left, n, out);
  }
  void fetched(int slot, Cycle) override { next_ = static_cast<unsigned>(slot) + 1; }
  bool reads_issue_orders() const override { return true; }
  std::string name() const override { return "cff"; }

 private:
  // The slots of `mask` in round robin order, starting after the slot fetched last.
  void append_rr(std::uint64_t mask, unsigned n, std::vector<int>& out) const {
    if (!mask || n == 0) return;
    const unsigned start = next_ % n;
    for (unsigned k = 0; k < n; ++k) {
      const unsigned s = (start + k) % n;
      if (s < 64 && (mask >> s) & 1) out.push_back(static_cast<int>(s));
    }
  }

  const IWarpView* warps_;
  const std::vector<std::vector<int>>* slots_;
  const std::vector<std::vector<int>>* orders_;
  unsigned next_ = 0;
  std::vector<int> blocked_;  // scratch: ordered warps blocked at the issue stage, in rank order
};

}  // namespace

std::unique_ptr<IFetchPolicy> make_fetch_cff(const PolicyContext& ctx,
                                             const config::PluginParams&) {
  return std::make_unique<FetchCff>(ctx);
}
void declare_fetch_cff(config::PluginDecl&) {}

}  // namespace simtsync::sched
