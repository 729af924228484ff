// Greedy then loose round robin (seed 003 sec. V-A): keep issuing from the warp that issued
// last; when it cannot, continue round robin from it.
#include "timing/sched/i_warp_scheduler.h"

namespace simtsync::sched {
namespace {

class Glrr final : public IWarpScheduler {
 public:
  void order(std::span<const SchedWarp> warps, std::uint64_t, Cycle,
             std::vector<int>& out) override {
    out.clear();
    const int n = static_cast<int>(warps.size());
    const int start = last_ < 0 ? 0 : last_;
    for (int k = 0; k < n; ++k) {
      int i = (start + k) % n;
      if (warps[static_cast<size_t>(i)].valid) out.push_back(i);
    }
  }
  void issued(int index, Cycle) override { last_ = index; }
  std::string name() const override { return "glrr"; }

 private:
  int last_ = -1;
};

}  // namespace

std::unique_ptr<IWarpScheduler> make_glrr(const PolicyContext&, const config::PluginParams&) {
  return std::make_unique<Glrr>();
}

void declare_glrr(config::PluginDecl&) {}

}  // namespace simtsync::sched
