// Greedy then oldest: keep issuing from the warp that issued last; otherwise the oldest warp
// (dispatch order, then warp id). With a rotation period, the age order rotates by one position
// every period so the oldest warp periodically becomes the youngest (seed 000 sec. IV-C).
#include <algorithm>
#include <limits>

#include "timing/sched/i_warp_scheduler.h"

namespace simtsync::sched {
namespace {

class Gto final : public IWarpScheduler {
 public:
  Gto(std::uint64_t period, std::uint64_t* counters) : period_(period), counters_(counters) {}

  void order(std::span<const SchedWarp> warps, std::uint64_t version, Cycle now,
             std::vector<int>& out) override {
    // The age order changes only when warps arrive or leave: re-sort only then.
    const int n = static_cast<int>(warps.size());
    if (version != version_ || sorted_.empty()) {
      version_ = version;
      sorted_.clear();
      for (int i = 0; i < n; ++i)
        if (warps[static_cast<size_t>(i)].valid) sorted_.push_back(i);
      std::sort(sorted_.begin(), sorted_.end(), [&](int a, int b) {
        const SchedWarp& x = warps[static_cast<size_t>(a)];
        const SchedWarp& y = warps[static_cast<size_t>(b)];
        return x.age != y.age ? x.age < y.age : x.warp_id < y.warp_id;
      });
    }
    const size_t m = sorted_.size();
    const size_t turns = period_ > 0 && m > 0 ? static_cast<size_t>((now / period_) % m) : 0;
    count_rotation(now);
    // Same inputs as the order this policy last wrote into `out`: it is still there.
    const std::uint64_t key = (static_cast<std::uint64_t>(turns) << 32) |
                              static_cast<std::uint32_t>(last_);
    if (memo_.holds(out, version, key)) return;
    out.clear();
    if (last_ >= 0 && last_ < n && warps[static_cast<size_t>(last_)].valid) out.push_back(last_);
    // sorted_ rotated left by `turns`, without a division per element.
    for (size_t k = turns; k < m; ++k)
      if (sorted_[k] != last_) out.push_back(sorted_[k]);
    for (size_t k = 0; k < turns; ++k)
      if (sorted_[k] != last_) out.push_back(sorted_[k]);
    memo_.remember(out, version, key);
  }
  // The order is every valid warp (the greedy one first): none can issue, none is ordered.
  bool all_blocked(std::span<const SchedWarp>, std::uint64_t, Cycle now) override {
    count_rotation(now);
    return true;
  }
  void issued(int index, Cycle) override { last_ = index; }
  std::string name() const override { return "gto"; }

 private:
  void count_rotation(Cycle now) {
    if (period_ > 0 && counters_ && now / period_ != epoch_) {
      epoch_ = now / period_;
      ++counters_[0];  // rotations
    }
  }

  std::uint64_t period_;
  std::uint64_t* counters_;
  std::uint64_t epoch_ = 0;
  int last_ = -1;
  std::uint64_t version_ = ~std::uint64_t{0};
  std::vector<int> sorted_;
  OrderMemo memo_;
};

}  // namespace

std::unique_ptr<IWarpScheduler> make_gto(const PolicyContext& ctx, const config::PluginParams& p) {
  return std::make_unique<Gto>(static_cast<std::uint64_t>(p.get_int("rotation_period")),
                               ctx.counters);
}

void declare_gto(config::PluginDecl& d) {
  d.add_int("rotation_period", 0, 0, std::numeric_limits<std::int64_t>::max(),
            "GTO: cycles between rotations of warp age priority (0: never)",
            "seed 000 sec. IV-C uses 50000 when enabled")
      .stat("rotations",
            "gto: age-priority rotations seen by the issue stage (rotation_period > 0)");
}

}  // namespace simtsync::sched
