// Loose round robin: priority starts at the warp after the one that issued last, whether or
// not it is ready (the "loose" part: no skipping logic beyond trying in order).
#include <algorithm>

#include "timing/sched/i_warp_scheduler.h"

namespace simtsync::sched {
namespace {

class Lrr final : public IWarpScheduler {
 public:
  void order(std::span<const SchedWarp> warps, std::uint64_t version, Cycle,
             std::vector<int>& out) override {
    // Same inputs as the order last written into `out`: it is still there.
    const auto key = static_cast<std::uint32_t>(last_);
    if (memo_.holds(out, version, key)) return;
    // The valid warps change only with `version`: listed once, then rotated after every issue
    // (the rebuild was most of LRR's cost in a memory-bound run, issue 48).
    if (version != valid_version_ || warps.data() != valid_warps_ || warps.size() != n_) {
      valid_version_ = version;
      valid_warps_ = warps.data();
      n_ = warps.size();
      valid_.clear();
      for (size_t i = 0; i < n_; ++i)
        if (warps[i].valid) valid_.push_back(static_cast<int>(i));
    }
    // From the warp after the last issued one to the end, then from the start up to it.
    const int n = static_cast<int>(n_);
    const int start = last_ + 1 < n ? last_ + 1 : 0;
    const auto mid = std::lower_bound(valid_.begin(), valid_.end(), start);
    out.assign(mid, valid_.end());
    out.insert(out.end(), valid_.begin(), mid);
    memo_.remember(out, version, key);
  }
  bool rotates() const override { return true; }
  void issued(int index, Cycle) override { last_ = index; }
  std::string name() const override { return "lrr"; }

 private:
  int last_ = -1;
  OrderMemo memo_;
  std::vector<int> valid_;  // indices of the valid warps, ascending
  std::uint64_t valid_version_ = ~std::uint64_t{0};
  const SchedWarp* valid_warps_ = nullptr;
  size_t n_ = 0;
};

}  // namespace

std::unique_ptr<IWarpScheduler> make_lrr(const PolicyContext&, const config::PluginParams&) {
  return std::make_unique<Lrr>();
}
void declare_lrr(config::PluginDecl&) {}

}  // namespace simtsync::sched
