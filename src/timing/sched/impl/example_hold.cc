// A test-only example of the plug-in steps (docs/architecture.md, "A new warp scheduler"): loose
// round robin that offers no warp at all during the first hold_cycles cycles of a launch. It shows
// a parameter, a statistic, holding warps back (the `held` stall category) and next_event (the SM
// wakes when the hold ends instead of sleeping for ever). It is not a policy to study.
#include <limits>

#include "timing/sched/i_warp_scheduler.h"

namespace simtsync::sched {
namespace {

class ExampleHold final : public IWarpScheduler {
 public:
  ExampleHold(Cycle hold, std::uint64_t* counters) : hold_(hold), counters_(counters) {}

  void order(std::span<const SchedWarp> warps, std::uint64_t, Cycle now,
             std::vector<int>& out) override {
    out.clear();
    if (holding(now)) {
      if (counters_) ++counters_[0];  // empty_orders
      return;
    }
    const int n = static_cast<int>(warps.size());
    for (int k = 1; k <= n; ++k) {
      const int i = (last_ + k) % n;
      if (warps[static_cast<size_t>(i)].valid) out.push_back(i);
    }
  }
  void issued(int index, Cycle) override { last_ = index; }
  Cycle next_event(Cycle now) const override { return holding(now) ? hold_ : kNever; }
  std::string name() const override { return "example_hold"; }

 private:
  bool holding(Cycle now) const { return now < hold_; }

  Cycle hold_;
  std::uint64_t* counters_;
  int last_ = -1;
};

}  // namespace

std::unique_ptr<IWarpScheduler> make_example_hold(const PolicyContext& ctx,
                                                  const config::PluginParams& p) {
  return std::make_unique<ExampleHold>(static_cast<Cycle>(p.get_int("hold_cycles")), ctx.counters);
}

void declare_example_hold(config::PluginDecl& d) {
  d.add_int("hold_cycles", 1000, 0, std::numeric_limits<std::int64_t>::max(),
            "example_hold: cycles at the start of each launch in which no warp is offered",
            "test-only example")
      .stat("empty_orders",
            "example_hold: issue-stage order requests answered with no warp (the SM sleeps through "
            "the rest of the hold)");
}

}  // namespace simtsync::sched
