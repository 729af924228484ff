// Loose round robin: priority starts at the warp after the one that issued last, whether or
// not it is ready (the "loose" part: no skipping logic beyond trying in order).
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
    out.clear();
    // From the warp after the last issued one to the end, then from the start up to it.
    const int n = static_cast<int>(warps.size());
    const int start = last_ + 1 < n ? last_ + 1 : 0;
    for (int i = start; i < n; ++i)
      if (warps[static_cast<size_t>(i)].valid) out.push_back(i);
    for (int i = 0; i < start; ++i)
      if (warps[static_cast<size_t>(i)].valid) out.push_back(i);
    memo_.remember(out, version, key);
  }
  void issued(int index, Cycle) override { last_ = index; }
  std::string name() const override { return "lrr"; }

 private:
  int last_ = -1;
  OrderMemo memo_;
};

}  // namespace

std::unique_ptr<IWarpScheduler> make_lrr(const PolicyContext&, const config::PluginParams&) {
  return std::make_unique<Lrr>();
}
void declare_lrr(config::PluginDecl&) {}

}  // namespace simtsync::sched
