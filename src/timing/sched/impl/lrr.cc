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
    if (&out == out_ && out.size() == out_size_ && version == out_version_ && last_ == out_last_)
      return;
    out.clear();
    const int n = static_cast<int>(warps.size());
    for (int k = 1; k <= n; ++k) {
      int i = (last_ + k) % n;
      if (warps[static_cast<size_t>(i)].valid) out.push_back(i);
    }
    out_ = &out;
    out_size_ = out.size();
    out_version_ = version;
    out_last_ = last_;
  }
  void issued(int index, Cycle) override { last_ = index; }
  std::string name() const override { return "lrr"; }

 private:
  int last_ = -1;
  const std::vector<int>* out_ = nullptr;
  size_t out_size_ = 0;
  std::uint64_t out_version_ = ~std::uint64_t{0};
  int out_last_ = -2;
};

}  // namespace

std::unique_ptr<IWarpScheduler> make_lrr(const SchedulerParams&) { return std::make_unique<Lrr>(); }

}  // namespace simtsync::sched
