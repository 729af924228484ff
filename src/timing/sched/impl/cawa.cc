// CAWA's criticality-aware warp scheduling (Lee, Arunkumar and Wu, ISCA 2015), the baseline of
// seed 000's BOWS evaluation (sec. II: criticality = nInst x CPI_avg + nStall; critical warps
// first). Per warp of this scheduler:
//   nInst   the instructions it has left: the kernel's instruction count less the warp's
//           progress, never below 0. Progress gains one per issued instruction; a backward
//           branch that any active lane takes loses the loop body it returns to (target to
//           branch, inclusive: it runs again), a forward branch that every active lane takes
//           gains the instructions it skips ("based on the direction of branch outcomes").
//           Divergent forward branches run both paths and change nothing; calls and returns are
//           not followed. The policy cannot see the kernel's instruction count: by default
//           (cawa_initial_ninst = -1) it is the furthest progress any warp of the scheduler has
//           made (for code without calls, progress is the warp's position in the code, so the
//           furthest warp, once one has reached the end, gives the kernel's length; before that
//           nInst is how far a warp lags the leader). A value >= 0 fixes it instead.
//   CPI_avg active cycles / instructions issued (1 before the first issue).
//   nStall  active cycles in which the warp did not issue (one scheduler issues at most one
//           instruction per cycle). Computed from timestamps, so it stays exact over the cycles
//           in which the SM sleeps and order() is not called.
// Active cycles are those since the warp was first offered, less (cawa_barrier_stall=false) the
// cycles it waited at a CTA barrier: waiting there for slower warps says nothing about being slow.
// gCAWS (cawa_greedy): the last issued warp first while it can issue, then the others by
// criticality, highest first, ties to the older warp (age, then warp slot); without greedy, by
// criticality only. Criticality is re-evaluated every cawa_period cycles (1: at every order, as
// the GPGPU-Sim reimplementations of CAWA do) and whenever the warp set changes; the previous
// sort is kept and insertion-sorted, as it is nearly sorted. Branch outcomes come from the SM's
// event bus; without one progress only counts issued instructions.
// Criticality prediction for the cache part: at every re-evaluation the policy marks as critical
// the warps whose criticality is above min + cawa_critical_fraction x (max - min) of the warps of
// their own CTA it schedules (CAWA picks the critical warps of a thread block), and publishes the
// marks on the SM's criticality board (critical_warps.h). `cawa` asks the SM's L1 for CAWA's
// cache part, CACP (mem/cacp.h; mem.l1.cacp auto), and counts its statistics; `gcaws` is the same
// scheduler without the cache part (what `cawa` meant before CACP was modelled). docs/policies.md
// lists the sources and what could not be checked against the paper.
#include <algorithm>
#include <limits>
#include <vector>

#include "timing/sched/critical_warps_unit.h"
#include "timing/sched/i_warp_scheduler.h"

namespace simtsync::sched {
namespace {

// Declared statistics, in declaration order (declare_cawa); cawa's CACP statistics follow
// (sched::CacpStat order).
enum Stat { kResorts, kGreedyHolds, kLoopAdds, kSkipSubs, kGcawsStatCount };

struct CawaParams {
  bool greedy = true;
  std::int64_t initial_ninst = -1;  // -1: the furthest progress of any warp
  Cycle period = 1;
  bool barrier_stall = false;
  bool cacp = true;                // ask the L1 for CACP (cawa; gcaws: false)
  double critical_fraction = 0.5;  // critical: above min + f x (max - min) within the CTA
};

class Cawa final : public IWarpScheduler, public CriticalWarps::ISource {
 public:
  Cawa(const PolicyContext& ctx, const CawaParams& p)
      : p_(p), view_(ctx.warps), counters_(ctx.counters) {
    if (ctx.events) ctx.events->subscribe(this);
    if (ctx.shared) {
      board_ = &ctx.shared->get<CriticalWarpsUnit>(CriticalWarpsUnit::kName).board;
      if (p.cacp) {
        board_->cacp_requested = true;
        // The SM's first cawa scheduler counts CACP's statistics (the L1 is one per SM).
        if (!board_->counters && ctx.counters) board_->counters = ctx.counters + kGcawsStatCount;
      }
    }
  }

  ~Cawa() override {
    if (stale_marks_) std::erase(board_->stale, this);
  }

  void order(std::span<const SchedWarp> warps, std::uint64_t version, Cycle now,
             std::vector<int>& out) override {
    if (version != version_ || slot_of_.size() != warps.size()) {
      version_ = version;
      rebuild(warps, now);
    }
    if (rerate(now) || unsorted_) sort_entries();
    const int greedy = greedy_of(warps);
    count_greedy_hold(version, greedy, sorted_.front());
    // A resort that moved no warp (most: the order is nearly stable) leaves the order `out`
    // already holds, when the greedy warp is the same too.
    const bool same = !moved_ && built_.holds(out, version, static_cast<std::uint32_t>(greedy + 1));
    if (!same) {
      moved_ = false;
      out.clear();
      if (greedy >= 0) out.push_back(greedy);
      for (const Entry& e : sorted_)
        if (e.index != greedy) out.push_back(e.index);
      built_.remember(out, version, static_cast<std::uint32_t>(greedy + 1));
    }
  }

  // No warp can issue: the ratings (and the board's marks, and the statistics) are what
  // order() would make them; the sort waits for the next order() (it does not depend on the
  // order it starts from), and the most critical warp is found without it.
  bool all_blocked(std::span<const SchedWarp> warps, std::uint64_t version, Cycle now) override {
    if (version != version_ || slot_of_.size() != warps.size()) return false;  // rebuild first
    if (rerate(now)) unsorted_ = true;
    const int greedy = greedy_of(warps);
    // The most critical warp, looked for only when a hold would be counted.
    const Entry* top = &sorted_.front();
    if (unsorted_ && greedy >= 0 && counters_ && !seen_.holds(version, key_of(greedy)))
      for (const Entry& e : sorted_)
        if (before(e, *top)) top = &e;
    count_greedy_hold(version, greedy, *top);
    return true;
  }

  void issued(int index, Cycle) override {
    if (index < 0 || static_cast<size_t>(index) >= slot_of_.size()) return;
    const int slot = slot_of_[static_cast<size_t>(index)];
    if (slot < 0) return;
    Warp& w = w_[static_cast<size_t>(slot)];
    ++w.issued;
    w.per_issue = 1.0 / static_cast<double>(w.issued);
    ++w.progress;
    furthest_ = std::max(furthest_, w.progress);
    last_ = index;
    last_age_ = w.age;
  }

  void on_issue(const sm::IssueEvent& e) override {
    if (!mine(e.slot)) return;
    Warp& w = w_[static_cast<size_t>(e.slot)];
    if (e.branch && (e.taken & e.active) != 0) {
      if (e.backward) {
        // Another trip around the loop: its body runs again.
        w.progress -= static_cast<std::int64_t>((e.pc - e.target) / kInstSize) + 1;
        if (counters_) ++counters_[kLoopAdds];
      } else if ((e.taken & e.active) == e.active && e.target > e.pc + kInstSize) {
        // Every lane jumps forward: the instructions in between will not run.
        w.progress += static_cast<std::int64_t>((e.target - e.pc) / kInstSize) - 1;
        if (counters_) ++counters_[kSkipSubs];
      }
    }
    // The last warp to arrive releases the barrier before its arrival is reported: it is not
    // waiting (IWarpView::at_barrier says which).
    if (e.barrier_arrival && !p_.barrier_stall && view_ && view_->at_barrier(e.slot))
      w.parked_since = e.now + 1;
  }

  void on_barrier_release(const sm::BarrierEvent& e) override {
    for (int slot : e.slots) {
      if (!mine(slot)) continue;
      Warp& w = w_[static_cast<size_t>(slot)];
      if (w.parked_since == kNever) continue;
      w.parked += e.now > w.parked_since ? e.now - w.parked_since : 0;
      w.parked_since = kNever;
    }
  }

  std::string name() const override { return p_.cacp ? "cawa" : "gcaws"; }

 private:
  static constexpr std::uint64_t kNoAge = ~std::uint64_t{0};
  // One warp slot of the SM, while a warp of this scheduler holds it.
  struct Warp {
    bool mine = false;            // in this scheduler's current warp set
    std::uint64_t stamp = 0;      // the rebuild that last saw it
    std::uint64_t age = kNoAge;   // identifies the warp in the slot (SchedWarp::age)
    Cycle start = 0;              // first cycle it was offered
    std::uint64_t issued = 0;     // instructions issued = cycles in which it issued
    double per_issue = 1.0;       // 1 / max(issued, 1): CPI_avg without a division per order
    std::int64_t progress = 0;    // instructions done, less loop bodies, plus skipped code
    Cycle parked = 0;             // cycles waited at barriers released so far
    Cycle parked_since = kNever;  // waiting at a barrier since (kNever: not waiting)
  };
  struct Entry {
    double crit;
    std::uint64_t age;
    int warp_id;
    int index;
    int cta;  // the warp's CTA among this scheduler's (dense, from 0; publish())
  };

  static bool before(const Entry& a, const Entry& b) {
    if (a.crit != b.crit) return a.crit > b.crit;
    if (a.age != b.age) return a.age < b.age;
    return a.warp_id < b.warp_id;
  }

  bool mine(int slot) const {
    return slot >= 0 && static_cast<size_t>(slot) < w_.size() && w_[static_cast<size_t>(slot)].mine;
  }

  double criticality(const Warp& w, Cycle now, std::int64_t total) const {
    const Cycle since = now > w.start ? now - w.start : 0;
    Cycle parked = w.parked;
    if (w.parked_since != kNever && now > w.parked_since) parked += now - w.parked_since;
    const Cycle active = since > parked ? since - parked : 0;
    // (Cycle counts are far below 2^63: converted as signed, one instruction, the same value.)
    const double cpi =
        static_cast<double>(static_cast<std::int64_t>(std::max<Cycle>(active, 1))) * w.per_issue;
    const double stall =
        active > w.issued ? static_cast<double>(static_cast<std::int64_t>(active - w.issued)) : 0.0;
    const std::int64_t ninst = std::max<std::int64_t>(total - w.progress, 0);
    return static_cast<double>(ninst) * cpi + stall;
  }

  // The warp set changed: new warps (a slot empty before, or holding another warp) start their
  // counters now; warps that left are forgotten. When no warp stays (a new kernel, or the next
  // CTA of a scheduler that held one), the learnt instruction count starts again.
  void rebuild(std::span<const SchedWarp> warps, Cycle now) {
    // The marks of the last resort are the board's until the next: written now, before the
    // warps that leave are cleared below.
    if (stale_marks_) board_->flush();
    ++stamp_;
    prev_slots_.swap(slots_);
    slots_.clear();
    slot_of_.assign(warps.size(), -1);
    sorted_.clear();
    ncta_ = 0;
    bool kept = false;
    for (size_t i = 0; i < warps.size(); ++i) {
      const SchedWarp& sw = warps[i];
      if (!sw.valid) continue;
      const auto slot = static_cast<size_t>(sw.warp_id);
      if (slot >= w_.size()) w_.resize(slot + 1);
      Warp& w = w_[slot];
      if (w.mine && w.age == sw.age) {
        kept = true;
      } else {
        w = Warp{};
        w.age = sw.age;
        w.start = now;
      }
      w.mine = true;
      w.stamp = stamp_;
      slots_.push_back(sw.warp_id);
      slot_of_[i] = sw.warp_id;
      // A warp's CTA slot is set before the launch that changes the warp set, and stays until
      // the warp leaves (another change): read once here, not at every publish().
      const auto c = static_cast<size_t>(std::max(view_ ? view_->cta_slot(sw.warp_id) : 0, 0));
      if (c >= cta_index_.size()) cta_index_.resize(c + 1, -1);
      if (cta_index_[c] < 0) cta_index_[c] = ncta_++;
      sorted_.push_back({0.0, sw.age, sw.warp_id, static_cast<int>(i), cta_index_[c]});
      if (board_ && slot >= board_->critical.size()) board_->critical.resize(slot + 1, 0);
    }
    std::fill(cta_index_.begin(), cta_index_.end(), -1);
    span_.resize(static_cast<size_t>(ncta_));
    for (int slot : prev_slots_)
      if (w_[static_cast<size_t>(slot)].stamp != stamp_) {
        w_[static_cast<size_t>(slot)].mine = false;
        if (board_) board_->set(slot, false);
      }
    if (!kept) furthest_ = 0;
    stale_ = true;
    moved_ = true;
  }

  // Re-rates the warps when a re-evaluation is due (a new period, or a changed warp set):
  // fresh criticalities, counted, and the board's marks to come from them. True when it did.
  bool rerate(Cycle now) {
    const Cycle epoch = now / p_.period;
    if (!stale_ && epoch == epoch_) return false;
    epoch_ = epoch;
    stale_ = false;
    const std::int64_t total = p_.initial_ninst >= 0 ? p_.initial_ninst : furthest_;
    for (Entry& e : sorted_) e.crit = criticality(w_[static_cast<size_t>(e.warp_id)], now, total);
    ++generation_;
    if (counters_) ++counters_[kResorts];
    if (board_ && !stale_marks_) {
      stale_marks_ = true;
      board_->stale.push_back(this);
    }
    return true;
  }

  // Sorts by the ratings; the previous order is nearly sorted, so insertion sort is linear in
  // the common case. The comparison is a strict total order: the result does not depend on
  // the previous order.
  void sort_entries() {
    unsorted_ = false;
    for (size_t i = 1; i < sorted_.size(); ++i) {
      const Entry x = sorted_[i];
      size_t j = i;
      for (; j > 0 && before(x, sorted_[j - 1]); --j) sorted_[j] = sorted_[j - 1];
      if (j != i) moved_ = true;
      sorted_[j] = x;
    }
  }

  int greedy_of(std::span<const SchedWarp> warps) const {
    const int n = static_cast<int>(warps.size());
    return p_.greedy && last_ >= 0 && last_ < n && warps[static_cast<size_t>(last_)].valid &&
                   warps[static_cast<size_t>(last_)].age == last_age_
               ? last_
               : -1;
  }
  std::uint64_t key_of(int greedy) const {
    return (generation_ << 32) | static_cast<std::uint32_t>(greedy + 1);
  }
  // gCAWS held the greedy warp ahead of a more critical one (`top`), counted once per rating
  // and greedy warp (as often as the order changes, not per cycle in a longer period).
  void count_greedy_hold(std::uint64_t version, int greedy, const Entry& top) {
    const std::uint64_t key = key_of(greedy);
    if (seen_.holds(version, key)) return;
    seen_.version = version, seen_.key = key;
    if (greedy >= 0 && counters_ && top.index != greedy) ++counters_[kGreedyHolds];
  }

  // Marks each warp critical or not among the warps of its CTA that this scheduler holds, by the
  // ratings of the last rerate() (the board calls it when read after one).
  void publish() override {
    stale_marks_ = false;
    std::fill(span_.begin(), span_.end(),
              std::pair{std::numeric_limits<double>::infinity(),
                        -std::numeric_limits<double>::infinity()});
    for (const Entry& e : sorted_) {
      auto& [lo, hi] = span_[static_cast<size_t>(e.cta)];
      lo = std::min(lo, e.crit);
      hi = std::max(hi, e.crit);
    }
    for (const Entry& e : sorted_) {
      const auto& [lo, hi] = span_[static_cast<size_t>(e.cta)];
      board_->critical[static_cast<size_t>(e.warp_id)] =
          hi > lo && e.crit > lo + p_.critical_fraction * (hi - lo) ? 1 : 0;
    }
  }

  CawaParams p_;
  const IWarpView* view_;
  sched::CriticalWarps* board_ = nullptr;        // the SM's criticality board
  std::vector<std::pair<double, double>> span_;  // scratch: criticality range by CTA (Entry::cta)
  std::vector<int> cta_index_;                   // scratch of rebuild(): CTA slot -> Entry::cta
  int ncta_ = 0;                                 // CTAs among the warps in sorted_
  bool stale_marks_ = false;                     // on the board's stale list
  std::uint64_t* counters_;
  std::vector<Warp> w_;          // by SM warp slot
  std::vector<int> slots_;       // slots of the warps in sorted_
  std::vector<int> prev_slots_;  // ... before the last rebuild
  std::vector<int> slot_of_;     // order() index -> SM warp slot (-1: no live warp)
  std::vector<Entry> sorted_;    // live warps, most critical first
  std::uint64_t version_ = ~std::uint64_t{0};
  Cycle epoch_ = kNever;
  bool stale_ = true;
  std::uint64_t generation_ = 0;  // ratings done (part of seen_'s key)
  // What `out` was last built for (its greedy warp), and whether a rebuild or a resort has moved
  // a warp since.
  OrderMemo built_;
  bool moved_ = true;
  bool unsorted_ = false;  // re-rated without sorting (all_blocked)
  // The rating and greedy warp (key_of) the last order() or all_blocked() was asked with.
  struct Seen {
    std::uint64_t version = ~std::uint64_t{0}, key = 0;
    bool holds(std::uint64_t v, std::uint64_t k) const { return v == version && k == key; }
  } seen_;
  std::uint64_t stamp_ = 0;       // rebuilds done
  std::int64_t furthest_ = 0;     // the furthest progress of a warp (the learnt kernel length)
  int last_ = -1;
  std::uint64_t last_age_ = 0;
};

}  // namespace

namespace {

CawaParams cawa_params(const config::PluginParams& p, bool cacp) {
  CawaParams cp;
  cp.greedy = p.get_bool("cawa_greedy");
  cp.initial_ninst = p.get_int("cawa_initial_ninst");
  cp.period = static_cast<Cycle>(p.get_int("cawa_period"));
  cp.barrier_stall = p.get_bool("cawa_barrier_stall");
  cp.critical_fraction = p.get_float("cawa_critical_fraction");
  cp.cacp = cacp;
  return cp;
}

// gCAWS's keys and statistics (shared by cawa and gcaws).
void declare_gcaws_common(config::PluginDecl& d) {
  d.add_bool("cawa_greedy", true,
             "cawa: gCAWS, keep issuing from the last issued warp while it can issue, then the "
             "most critical (false: strictly most critical first)",
             "CAWA (Lee et al., ISCA 2015) gCAWS; the GPGPU-Sim reimplementations' gcaws order")
      .add_int("cawa_initial_ninst", -1, -1, std::numeric_limits<std::int32_t>::max(),
               "cawa: nInst of a warp when it arrives, i.e. the kernel's instruction count (the "
               "estimate then follows the warp's progress); -1: learnt, the furthest progress "
               "any warp of the scheduler has made",
               "CAWA starts from the static instruction count (an unimplemented option of the "
               "GPGPU-Sim reimplementations); the policy cannot see it, hence -1")
      .add_int("cawa_period", 1, 1, std::numeric_limits<std::int64_t>::max(),
               "cawa: cycles between criticality re-evaluations (1: every cycle the scheduler "
               "orders its warps); a change of the warp set always re-evaluates",
               "GPGPU-Sim reimplementations of CAWA recompute every cycle")
      .add_bool("cawa_barrier_stall", false,
                "cawa: count the cycles a warp waits at a CTA barrier as active cycles (in CPI_avg "
                "and nStall); false leaves them out",
                "choice of this model (CAWA's own rule could not be checked)")
      .add_float("cawa_critical_fraction", 0.5, 0.0, 1.0,
                 "cawa: a warp is critical (for the L1's CACP) when its criticality is above "
                 "min + fraction x (max - min) over the warps of its CTA on this scheduler",
                 "the GPGPU-Sim reimplementation of CACP (CRITICAL_PERCENTAGE 0.5 of the "
                 "normalized range); the paper's rule could not be checked")
      .stat("resorts", "cawa: criticality re-evaluations (each re-sorts the scheduler's warps)")
      .stat("greedy_holds",
            "cawa: issue orders built with the last issued warp ahead of a more critical one")
      .stat("ninst_loop_adds", "cawa: backward branches taken (nInst grows by the loop body)")
      .stat("ninst_skip_subs",
            "cawa: forward branches taken by every active lane (nInst loses the skipped code)");
}

}  // namespace

std::unique_ptr<IWarpScheduler> make_cawa(const PolicyContext& ctx, const config::PluginParams& p) {
  return std::make_unique<Cawa>(ctx, cawa_params(p, true));
}

std::unique_ptr<IWarpScheduler> make_gcaws(const PolicyContext& ctx,
                                           const config::PluginParams& p) {
  return std::make_unique<Cawa>(ctx, cawa_params(p, false));
}

void declare_gcaws(config::PluginDecl& d) {
  declare_gcaws_common(d);
}

void declare_cawa(config::PluginDecl& d) {
  declare_gcaws_common(d);
  // CACP's statistics, counted by the SM's L1 (sched::CacpStat order).
  d.stat("cacp_pred_critical",
         "cawa/CACP: L1 fills the CCBP predicted critical (inserted in the critical partition)")
      .stat("cacp_pred_normal",
            "cawa/CACP: L1 fills predicted non-critical with reuse (non-critical partition, "
            "long re-reference interval)")
      .stat("cacp_low_priority_inserts",
            "cawa/CACP: L1 fills predicted non-critical with no reuse (inserted distant: the "
            "next victim)")
      .stat("cacp_bypasses",
            "cawa/CACP: L1 fills predicted non-critical with no reuse, not installed "
            "(mem.l1.cacp_bypass)")
      .stat("cacp_critical_lookups", "cawa/CACP: L1 load lookups by a critical warp")
      .stat("cacp_critical_hits", "cawa/CACP: L1 load hits by a critical warp")
      .stat("cacp_noncritical_hits", "cawa/CACP: L1 load hits by a non-critical warp")
      .stat("cacp_ccbp_demotions",
            "cawa/CACP: critical-partition lines evicted with no critical hit (their CCBP "
            "counter drops)")
      .ratio("cacp_critical_hit_rate", "cacp_critical_hits", "cacp_critical_lookups",
             "cawa/CACP: L1 hit rate of critical warps' loads");
}

}  // namespace simtsync::sched
