// The issue policy of one warp scheduler.
//
// Contract: every cycle the issue stage calls order() with the scheduler's warps (fixed slots,
// some empty) and tries them in the returned priority order; the first that can issue does,
// and the stage reports it with issued(). A warp that issued a long-latency operation
// (global load/atomic) is reported with long_latency(); two-level scheduling uses it. A policy
// keeps only its own bookkeeping: it never touches warps. Implementations: impl/, registered in
// schedulers.def.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "common/types.h"

namespace simtsync::config {
class Config;
}

namespace simtsync::sched {

// What a policy may know about a warp.
struct SchedWarp {
  bool valid = false;     // the slot holds a live warp
  std::uint64_t age = 0;  // dispatch order: smaller is older
  int warp_id = 0;        // warp id within the SM (tie breaker)
};

class IWarpScheduler {
 public:
  virtual ~IWarpScheduler() = default;
  // Writes indices of valid warps into `out` (cleared first), highest priority first.
  // `version` changes whenever any warp's valid/age changes (policies may cache on it). The
  // issue stage passes the same vector every cycle and never changes it, so a policy may leave
  // `out` as it is when it already holds the order it would write (GTO does).
  virtual void order(std::span<const SchedWarp> warps, std::uint64_t version, Cycle now,
                     std::vector<int>& out) = 0;
  virtual void issued(int index, Cycle now) = 0;
  virtual void long_latency(int index, Cycle now) { (void)index, (void)now; }
  // No warp of the order could issue this cycle. Returns true when the policy changed what it
  // will offer (the SM must then look again next cycle instead of sleeping).
  virtual bool nothing_ready(Cycle now) {
    (void)now;
    return false;
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

struct SchedulerParams {
  std::string impl = "lrr";
  std::uint64_t rotation_period = 0;  // GTO age rotation (0 = off; seed 000 sec. IV-C: 50,000)
  unsigned active_set = 8;            // two-level: warps in the active set
};

// Builds the policy named params.impl (see schedulers.def); throws a usage error when unknown.
std::unique_ptr<IWarpScheduler> make_scheduler(const SchedulerParams& params);
std::vector<std::string> scheduler_names();

}  // namespace simtsync::sched
