// Most-waiting-first (MWF, seed 002 sec. 4.1.1): CTAs ordered by the number of their warps
// waiting at a barrier (the SM's warp priority table; more waiting first), ties to the smaller
// CTA id; within a CTA either LRR from the warp after the CTA's last issued warp (MWF(LRR)) or
// GTO: the CTA's last issued warp, then oldest (MWF(GTO)). Warps waiting at a barrier cannot
// issue; they follow every running warp (so the order begins with the seed's Fig. 7 order)
// and are still offered, so their cycles stay `barrier` stalls. impl/mwf_lrr.cc and
// impl/mwf_gto.cc register the two variants.
#pragma once

#include <algorithm>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "timing/sched/i_warp_scheduler.h"
#include "timing/sched/warp_priority_table.h"

namespace simtsync::sched {

class Mwf final : public IWarpScheduler {
 public:
  enum class Within { kLrr, kGto };

  Mwf(const PolicyContext& ctx, Within within)
      : warps_(ctx.warps), wpt_(warp_priority_table(ctx, own_wpt_)), within_(within) {}

  void order(std::span<const SchedWarp> warps, std::uint64_t version, Cycle,
             std::vector<int>& out) override {
    if (ids_.size() != warps.size() || version != ids_version_) {
      ids_version_ = version;
      ids_.resize(warps.size());
      for (size_t i = 0; i < warps.size(); ++i) ids_[i] = warps[i].warp_id;
    }
    const std::uint64_t key = (wpt_.version() << 32) ^ issues_;
    if (memo_.holds(out, version, key)) return;
    out.clear();
    entries_.clear();
    for (int i = 0; i < static_cast<int>(warps.size()); ++i) {
      const SchedWarp& w = warps[static_cast<size_t>(i)];
      if (!w.valid) continue;
      const int c = cta_of(w);
      Entry e{c, wpt_.waiting(c), wpt_.cta_id(c), 0, 0, w.warp_id, i};
      const int last = last_in(c);
      if (within_ == Within::kLrr) {
        // Round robin over the scheduler's indices, starting after the CTA's last issued.
        const int n = static_cast<int>(warps.size());
        e.first = static_cast<std::uint64_t>(((i - last - 1) % n + n) % n);
        e.warp_id = 0;
      } else {
        // The CTA's last issued warp, then oldest (age, then warp id).
        const bool greedy = i == last;
        e.first = greedy ? 0 : 1;
        e.age = greedy ? 0 : w.age;
      }
      entries_.push_back(e);
    }
    std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
      if (a.waiting != b.waiting) return a.waiting > b.waiting;
      if (a.cta_id != b.cta_id) return a.cta_id < b.cta_id;
      if (a.cta_slot != b.cta_slot) return a.cta_slot < b.cta_slot;
      if (a.first != b.first) return a.first < b.first;
      if (a.age != b.age) return a.age < b.age;
      return a.warp_id < b.warp_id;
    });
    append_running_then_waiting(entries_, warps, warps_, out);
    memo_.remember(out, version, key);
  }

  void issued(int index, Cycle) override {
    ++issues_;
    if (index < 0 || static_cast<size_t>(index) >= ids_.size()) return;
    const size_t k =
        static_cast<size_t>((warps_ ? warps_->cta_slot(ids_[static_cast<size_t>(index)]) : -1) + 1);
    if (k >= last_by_cta_.size()) last_by_cta_.resize(k + 1, -1);
    last_by_cta_[k] = index;
  }

  std::string name() const override { return within_ == Within::kLrr ? "mwf_lrr" : "mwf_gto"; }

 private:
  struct Entry {
    int cta_slot;
    unsigned waiting;
    int cta_id;
    std::uint64_t first;  // LRR: distance after the CTA's last issued; GTO: 0 greedy, 1 other
    std::uint64_t age;
    int warp_id;
    int index;
  };

  // SchedWarp::warp_id is the warp's SM slot (Sm::issue_one builds it so), which is what
  // IWarpView is indexed by.
  int cta_of(const SchedWarp& w) const { return warps_ ? warps_->cta_slot(w.warp_id) : -1; }
  // The index that issued last in CTA slot `c` (-1: none yet).
  int last_in(int c) const {
    const size_t k = static_cast<size_t>(c + 1);  // CTA -1 (no warp view) is row 0
    return k < last_by_cta_.size() ? last_by_cta_[k] : -1;
  }

  const IWarpView* warps_;
  std::unique_ptr<WarpPriorityTable> own_wpt_;
  WarpPriorityTable& wpt_;
  Within within_;
  std::vector<int> last_by_cta_;  // by CTA slot + 1: the index that issued last
  std::vector<Entry> entries_;
  std::vector<int> ids_;  // index -> warp slot, from the latest order's warps
  std::uint64_t ids_version_ = ~std::uint64_t{0};
  std::uint64_t issues_ = 0;
  OrderMemo memo_;
};

}  // namespace simtsync::sched
