// The issue policy of one warp scheduler.
//
// Contract: every cycle the issue stage calls order() with the scheduler's warps (fixed slots,
// some empty) and tries them in the returned priority order; the first that can issue does,
// and the stage reports it with issued(). A warp that issued a long-latency operation
// (global load/atomic) is reported with long_latency(); two-level scheduling uses it. A policy
// keeps only its own bookkeeping: it never touches warps.
//
// A policy may hold live warps back by leaving them out of the order; those cycles are charged
// to the `held` stall category, and the policy must say when it next changes its mind
// (next_event), so the SM wakes then instead of sleeping for ever. A policy that wants more
// than issued() (branch outcomes, setp operands, barrier and memory events) subscribes to the
// SM's event bus from its factory (PolicyContext::events); it is an ISmObserver.
//
// Implementations: impl/, one file each, registered in schedulers.def with a declare function
// that states their config keys and statistics (config/plugin.h).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "common/types.h"
#include "config/plugin.h"
#include "timing/sched/context.h"

namespace simtsync::sched {

// What a policy may know about a warp.
struct SchedWarp {
  bool valid = false;     // the slot holds a live warp
  std::uint64_t age = 0;  // dispatch order: smaller is older
  int warp_id = 0;        // warp id within the SM (tie breaker)
};

class IWarpScheduler : public sm::ISmObserver {
 public:
  virtual ~IWarpScheduler() = default;
  // Writes indices of valid warps into `out` (cleared first), highest priority first.
  // `version` changes whenever any warp's valid/age changes (policies may cache on it). The
  // issue stage passes the same vector every cycle and never changes it, so a policy may leave
  // `out` as it is when it already holds the order it would write (GTO does).
  virtual void order(std::span<const SchedWarp> warps, std::uint64_t version, Cycle now,
                     std::vector<int>& out) = 0;
  // Optional, for speed: true for a policy whose order() is always its valid warps by
  // ascending index, starting after the warp it was last told of with issued() (at the first
  // when that was the last index, or none yet): LRR. Asked once, when the SM is built. The issue
  // stage then looks only at the warps that are not blocked, in that order, with bit masks, and
  // calls neither order() nor fills the order vector unless someone reads it (issue 48's ready
  // sets); it still reports every issue with issued().
  virtual bool rotates() const { return false; }
  // Optional, for speed: every valid warp of the policy is blocked this cycle (on the
  // scoreboard, a fence, a lock reply or room in the LD/ST queue), so no order can issue one.
  // A policy whose order() always offers every valid warp may return true after doing what
  // order(warps, version, now, ...) would have done beyond writing the order (GTO counts a
  // rotation; CAWA re-rates its warps and counts, but does not sort them); the issue stage
  // then takes the cycle's stall kind from its masks without calling order(). The default
  // (false) calls order() as in any other cycle.
  virtual bool all_blocked(std::span<const SchedWarp> warps, std::uint64_t version, Cycle now) {
    (void)warps, (void)version, (void)now;
    return false;
  }
  virtual void issued(int index, Cycle now) = 0;
  virtual void long_latency(int index, Cycle now) { (void)index, (void)now; }
  // No warp of the order could issue this cycle. Returns true when the policy changed what it
  // will offer (the SM must then look again next cycle instead of sleeping).
  virtual bool nothing_ready(Cycle now) {
    (void)now;
    return false;
  }
  // The earliest cycle after `now` at which the policy may offer a warp it holds back now
  // (kNever: it holds nothing back, or only events it hears can change its mind).
  virtual Cycle next_event(Cycle now) const {
    (void)now;
    return kNever;
  }
  virtual std::string name() const = 0;
};

// What a policy last wrote into the issue stage's order vector and from which inputs, so an
// unchanged order is not rebuilt (see IWarpScheduler::order). `key` is whatever else the order
// depends on: the last issued warp and, for GTO, the rotation.
class OrderMemo {
 public:
  bool holds(const std::vector<int>& out, std::uint64_t version, std::uint64_t key) const {
    return &out == out_ && out.size() == size_ && version == version_ && key == key_;
  }
  void remember(const std::vector<int>& out, std::uint64_t version, std::uint64_t key) {
    out_ = &out, size_ = out.size(), version_ = version, key_ = key;
  }

 private:
  const std::vector<int>* out_ = nullptr;
  size_t size_ = 0;
  std::uint64_t version_ = 0, key_ = 0;
};

// Appends the `index` of every entry of `sorted` to `out`: first the warps that can issue,
// then those waiting at a barrier (still offered, so their cycles stay `barrier` stalls, not
// `held`). The barrier-aware policies (MWF, SAWS) end their orders with it.
template <class Entries>
void append_running_then_waiting(const Entries& sorted, std::span<const SchedWarp> warps,
                                 const IWarpView* view, std::vector<int>& out) {
  auto waits = [&](int i) {
    return view && view->at_barrier(warps[static_cast<size_t>(i)].warp_id);
  };
  for (const auto& e : sorted)
    if (!waits(e.index)) out.push_back(e.index);
  for (const auto& e : sorted)
    if (waits(e.index)) out.push_back(e.index);
}

inline constexpr const char* kSchedulerPrefix = "sm.warp_scheduler";

// The policy a config selects and its own parameters (declared by the policy).
struct SchedulerParams {
  std::string impl = "lrr";
  config::PluginParams params;
  // The SM clock (gpu.core_clock_mhz). When set, make_scheduler wraps the policy in the
  // nanosleep filter (sleep_filter.h); 0 (a policy built inside another, a unit test): no filter.
  double core_clock_mhz = 0;
};

// The selected policy with its parameters read from a resolved config.
SchedulerParams scheduler_params(const config::Config& c);
// The policy named `impl` with its declared defaults, overridden by `sets` (for tests).
SchedulerParams scheduler_params(
    const std::string& impl, const std::vector<std::pair<std::string, config::Value>>& sets = {});
// Builds the policy named params.impl (see schedulers.def); throws a usage error when unknown.
std::unique_ptr<IWarpScheduler> make_scheduler(const SchedulerParams& params,
                                               const PolicyContext& ctx = {});
const std::vector<config::PluginInfo>& schedulers();
std::vector<std::string> scheduler_names();
// The statistics the policy declares (the SM sizes its counters from them).
const std::vector<config::StatDecl>& scheduler_stats(const std::string& impl);

}  // namespace simtsync::sched
