// Warp-phases and RTRU (seed 002 sec. 3, Eq. 1): an SM observer that splits each CTA's run at
// its barrier releases into warp-phases (launch to the first release, release to release, and
// the last release to the CTA's exit: the exit point is the CTA's last barrier, seed 002
// Fig. 3 phase 5) and, per phase, measures each warp's execution time T_i (phase start to its
// arrival at the barrier, or to its exit), the critical warp (the largest T_i) and
//   RTRU = sum_i (maxT - T_i) / (N * maxT).
// sum_i (maxT - T_i) is the warp-cycles the phase's warps spent waiting for the critical one;
// summed over every phase and divided by the warp-cycles the warps were resident (N * maxT
// summed), it is the share of a warp's time lost to barriers, exit points included: seed
// 002's barrier-intensity measure (sec. 5: above 15% is barrier-intensive, Fig. 1).
// The SM (stats.warp_phases=true) subscribes one per SM and folds the finished phases into
// its counters (SmStats); tests subscribe one by hand.
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
    bool exit = false;   // ends at the CTA's exit, not at a barrier
    unsigned warps = 0;  // N: the warps of the phase
    int critical = -1;   // the warp (index within its CTA) with the longest execution time
    // The critical warp of the CTA's previous phase differs (false for a CTA's first phase).
    bool critical_changed = false;
    bool has_previous = false;
    double rtru = 0;
    std::uint64_t wait = 0;    // sum_i (maxT - T_i): warp-cycles spent waiting
    std::uint64_t span = 0;    // N * maxT: warp-cycles of the phase
    std::vector<Cycle> times;  // T_i of the phase's warps, in CTA order
  };

  // `warps` (may be null) tells whether an arriving warp waits: the last warp to arrive releases
  // the barrier before its arrival is reported; its time is the release cycle.
  explicit WarpPhaseTracker(const IWarpView* warps) : warps_(warps) {}

  // Phases ended since the last take_phases(), in the order they ended.
  const std::vector<Phase>& phases() const { return phases_; }
  std::vector<Phase> take_phases() {
    std::vector<Phase> out;
    out.swap(phases_);
    return out;
  }
  // The mean RTRU over the phases held (0 when none).
  double mean_rtru() const {
    double s = 0;
    for (const Phase& p : phases_) s += p.rtru;
    return phases_.empty() ? 0 : s / static_cast<double>(phases_.size());
  }

  void on_cta_launch(const sm::CtaEvent& e) override {
    Cta& c = cta(e.cta_slot);
    c = Cta{};
    c.cta = e.cta;
    c.start = e.now;
    c.slots = e.slots;
    for (size_t i = 0; i < e.slots.size(); ++i) {
      arrival(e.slots[i]) = kNever;
      index(e.slots[i]) = static_cast<int>(i);
    }
  }
  void on_issue(const sm::IssueEvent& e) override {
    if (!e.barrier_arrival || e.cta_slot < 0) return;
    if (warps_ && !warps_->at_barrier(e.slot)) return;  // it released the barrier
    arrival(e.slot) = e.now;
  }
  void on_barrier_release(const sm::BarrierEvent& e) override {
    if (e.cta_slot < 0 || e.slots.empty()) return;
    end_phase(cta(e.cta_slot), e.slots, e.now, false);
  }
  void on_warp_exit(const sm::WarpExitEvent& e) override {
    if (e.cta_slot >= 0) arrival(e.slot) = e.now;
  }
  void on_cta_exit(const sm::CtaEvent& e) override {
    if (e.cta_slot < 0 || e.slots.empty()) return;
    Cta& c = cta(e.cta_slot);
    end_phase(c, e.slots, e.now, true);
    c = Cta{};
  }

 private:
  struct Cta {
    int cta = -1;
    Cycle start = 0;
    int last_critical = -1;  // the previous phase's critical warp (-1: no phase yet)
    std::vector<int> slots;
  };

  void end_phase(Cta& c, const std::vector<int>& slots, Cycle now, bool exit) {
    Phase p;
    p.cta = c.cta;
    p.start = c.start;
    p.end = now;
    p.exit = exit;
    p.warps = static_cast<unsigned>(slots.size());
    p.times.assign(slots.size(), 0);
    Cycle max_t = 0;
    for (size_t k = 0; k < slots.size(); ++k) {
      const int s = slots[k];
      const Cycle at = arrival(s) == kNever || arrival(s) < c.start ? now : arrival(s);
      const Cycle t = at - c.start;
      p.times[k] = t;
      // The warp's index within its CTA (its position here when the launch was not seen).
      const int i = index(s) >= 0 ? index(s) : static_cast<int>(k);
      if (p.critical < 0 || t > max_t) max_t = t, p.critical = i;
      arrival(s) = kNever;
    }
    if (max_t > 0) {
      for (Cycle t : p.times) p.wait += max_t - t;
      p.span = static_cast<std::uint64_t>(p.warps) * max_t;
      p.rtru = static_cast<double>(p.wait) / static_cast<double>(p.span);
    }
    p.has_previous = c.last_critical >= 0;
    p.critical_changed = p.has_previous && c.last_critical != p.critical;
    c.last_critical = p.critical;
    phases_.push_back(std::move(p));
    c.start = now;
  }

  Cta& cta(int c) {
    if (static_cast<size_t>(c) >= ctas_.size()) ctas_.resize(static_cast<size_t>(c) + 1);
    return ctas_[static_cast<size_t>(c)];
  }
  Cycle& arrival(int s) {
    if (static_cast<size_t>(s) >= arrivals_.size())
      arrivals_.resize(static_cast<size_t>(s) + 1, kNever);
    return arrivals_[static_cast<size_t>(s)];
  }
  int& index(int s) {
    if (static_cast<size_t>(s) >= indices_.size()) indices_.resize(static_cast<size_t>(s) + 1, -1);
    return indices_[static_cast<size_t>(s)];
  }

  const IWarpView* warps_;
  std::vector<Cta> ctas_;
  std::vector<Cycle> arrivals_;  // by warp slot: arrival (or exit) cycle this phase (kNever: none)
  std::vector<int> indices_;     // by warp slot: the warp's index within its CTA
  std::vector<Phase> phases_;
};

}  // namespace simtsync::sched
