// Warp-phases and RTRU (seed 002 sec. 3, Eq. 1): an SM observer that splits each CTA's run at
// its barrier releases into warp-phases (launch to the first release, then release to release)
// and, per phase, measures each released warp's execution time T_i (phase start to its arrival
// at the barrier), the critical warp (the largest T_i) and
//   RTRU = sum_i (maxT - T_i) / (N * maxT).
// The time after a CTA's last barrier (to its exit) is not a phase here: exits are per CTA, not
// per warp, in the SM's events. Not wired into the statistics yet: an observer with declared
// statistics needs a place in the seams (issue 16); tests and tools subscribe it by hand.
#pragma once

#include <cstdint>
#include <vector>

#include "timing/sched/context.h"

namespace simtsync::sched {

class WarpPhaseTracker final : public sm::ISmObserver {
 public:
  struct Phase {
    int cta = -1;  // launch CTA index
    Cycle start = 0, end = 0;
    unsigned warps = 0;  // N: the warps released
    int critical = -1;   // warp slot with the longest execution time
    double rtru = 0;
  };

  // `warps` (may be null) tells whether an arriving warp waits: the last warp to arrive releases
  // the barrier before its arrival is reported; its time is the release cycle.
  explicit WarpPhaseTracker(const IWarpView* warps) : warps_(warps) {}

  const std::vector<Phase>& phases() const { return phases_; }
  // The mean RTRU over every phase (0 when none).
  double mean_rtru() const {
    double s = 0;
    for (const Phase& p : phases_) s += p.rtru;
    return phases_.empty() ? 0 : s / static_cast<double>(phases_.size());
  }

  void on_cta_launch(const sm::CtaEvent& e) override {
    Cta& c = cta(e.cta_slot);
    c = {e.cta, e.now};
    for (int s : e.slots) arrival(s) = kNever;
  }
  void on_issue(const sm::IssueEvent& e) override {
    if (!e.barrier_arrival || e.cta_slot < 0) return;
    if (warps_ && !warps_->at_barrier(e.slot)) return;  // it released the barrier
    arrival(e.slot) = e.now;
  }
  void on_barrier_release(const sm::BarrierEvent& e) override {
    if (e.cta_slot < 0 || e.slots.empty()) return;
    Cta& c = cta(e.cta_slot);
    Phase p;
    p.cta = e.cta;
    p.start = c.start;
    p.end = e.now;
    p.warps = static_cast<unsigned>(e.slots.size());
    Cycle max_t = 0;
    std::vector<Cycle>& t = times_;
    t.clear();
    for (int s : e.slots) {
      const Cycle at = arrival(s) == kNever ? e.now : arrival(s);
      t.push_back(at - c.start);
      if (p.critical < 0 || t.back() > max_t) max_t = t.back(), p.critical = s;
      arrival(s) = kNever;
    }
    if (max_t > 0) {
      double sum = 0;
      for (Cycle ti : t) sum += static_cast<double>(max_t - ti);
      p.rtru = sum / (static_cast<double>(p.warps) * static_cast<double>(max_t));
    }
    phases_.push_back(p);
    c.start = e.now;
  }

 private:
  struct Cta {
    int cta = -1;
    Cycle start = 0;
  };
  Cta& cta(int c) {
    if (static_cast<size_t>(c) >= ctas_.size()) ctas_.resize(static_cast<size_t>(c) + 1);
    return ctas_[static_cast<size_t>(c)];
  }
  Cycle& arrival(int s) {
    if (static_cast<size_t>(s) >= arrivals_.size())
      arrivals_.resize(static_cast<size_t>(s) + 1, kNever);
    return arrivals_[static_cast<size_t>(s)];
  }

  const IWarpView* warps_;
  std::vector<Cta> ctas_;
  std::vector<Cycle> arrivals_;  // by warp slot: this phase's arrival cycle (kNever: not yet)
  std::vector<Cycle> times_;
  std::vector<Phase> phases_;
};

}  // namespace simtsync::sched
