// Two-level scheduling (Narasiman et al., MICRO 2011, as used for comparison in seed 002): a
// small active set is scheduled loose round robin; a warp that issues a long-latency operation
// (or arrives at a barrier, or finishes) leaves the active set for the back of the pending
// FIFO, and the head of the FIFO takes its
// place. Warps enter the active set in dispatch order.
#include <algorithm>
#include <deque>

#include "timing/sched/i_warp_scheduler.h"

namespace simtsync::sched {
namespace {

class TwoLevel final : public IWarpScheduler {
 public:
  explicit TwoLevel(unsigned active) : capacity_(std::max(1u, active)) {}

  void order(std::span<const SchedWarp> warps, std::uint64_t, Cycle,
             std::vector<int>& out) override {
    const int n = static_cast<int>(warps.size());
    if (static_cast<int>(seen_age_.size()) != n) seen_age_.assign(static_cast<size_t>(n), ~0ULL);
    // Drop warps that are gone; enqueue new arrivals (a slot whose age changed) in age order.
    auto alive = [&](int i) {
      return warps[static_cast<size_t>(i)].valid &&
             warps[static_cast<size_t>(i)].age == seen_age_[static_cast<size_t>(i)];
    };
    std::erase_if(active_, [&](int i) { return !alive(i); });
    std::erase_if(pending_, [&](int i) { return !alive(i); });
    std::vector<int> fresh;
    for (int i = 0; i < n; ++i) {
      const SchedWarp& w = warps[static_cast<size_t>(i)];
      if (w.valid && w.age != seen_age_[static_cast<size_t>(i)]) {
        seen_age_[static_cast<size_t>(i)] = w.age;
        fresh.push_back(i);
      }
    }
    std::sort(fresh.begin(), fresh.end(), [&](int a, int b) {
      return warps[static_cast<size_t>(a)].age < warps[static_cast<size_t>(b)].age;
    });
    for (int i : fresh) pending_.push_back(i);
    while (active_.size() < capacity_ && !pending_.empty()) {
      active_.push_back(pending_.front());
      pending_.pop_front();
    }
    out.clear();
    const size_t a = active_.size();
    for (size_t k = 1; k <= a; ++k) out.push_back(active_[(next_ + k - 1) % a]);
  }
  void issued(int index, Cycle) override {
    auto it = std::find(active_.begin(), active_.end(), index);
    if (it != active_.end()) next_ = static_cast<size_t>(it - active_.begin()) + 1;
  }
  void long_latency(int index, Cycle) override {
    auto it = std::find(active_.begin(), active_.end(), index);
    if (it == active_.end() || pending_.empty()) return;
    active_.erase(it);
    pending_.push_back(index);
  }
  // Every warp in the active set waits at a barrier (or has finished) and nothing will change
  // by itself: swap the oldest active warp for the head of the pending FIFO, so warps that
  // must reach the barrier are not starved.
  bool nothing_ready(Cycle) override {
    if (pending_.empty() || active_.empty()) return false;
    pending_.push_back(active_.front());
    active_.erase(active_.begin());
    active_.push_back(pending_.front());
    pending_.pop_front();
    next_ = 0;
    return true;
  }
  std::string name() const override { return "two_level"; }

 private:
  unsigned capacity_;
  std::vector<int> active_;
  std::deque<int> pending_;
  std::vector<std::uint64_t> seen_age_;
  size_t next_ = 0;
};

}  // namespace

std::unique_ptr<IWarpScheduler> make_two_level(const PolicyContext&,
                                               const config::PluginParams& p) {
  return std::make_unique<TwoLevel>(static_cast<unsigned>(p.get_int("active_set")));
}

void declare_two_level(config::PluginDecl& d) {
  d.add_int("active_set", 8, 1, 2048, "two_level: warps per scheduler in the active set",
            "Narasiman et al. MICRO 2011");
}

}  // namespace simtsync::sched
