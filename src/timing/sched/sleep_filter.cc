#include "timing/sched/sleep_filter.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "func/program.h"

namespace simtsync::sched {

Cycle nanosleep_cycles(std::uint64_t ns, double core_clock_mhz) {
  constexpr std::uint64_t kMaxNs = 1'000'000;  // PTX ISA: the sleep is at most 1 ms
  const double cycles = static_cast<double>(std::min(ns, kMaxNs)) * core_clock_mhz / 1000.0;
  return static_cast<Cycle>(std::ceil(cycles));
}

namespace {

class SleepFilter final : public IWarpScheduler {
 public:
  SleepFilter(std::unique_ptr<IWarpScheduler> inner, const PolicyContext& ctx, double mhz)
      : inner_(std::move(inner)), mhz_(mhz) {
    wake_.assign(ctx.warps ? ctx.warps->num_slots() : 64u, 0);
  }

  void order(std::span<const SchedWarp> warps, std::uint64_t version, Cycle now,
             std::vector<int>& out) override {
    inner_->order(warps, version, now, out);
    if (sleeping_ == 0) return;
    // Leave out the warps still asleep; forget those that woke up.
    sleeping_ = 0;
    for (Cycle w : wake_) sleeping_ += w > now;
    if (sleeping_ == 0) return;
    filtered_.clear();
    for (int i : out) {
      const int slot = warps[static_cast<size_t>(i)].warp_id;
      if (!asleep(slot, now)) filtered_.push_back(i);
    }
    // A policy that keeps `out` from one cycle to the next (OrderMemo) sees its size change
    // and writes it again.
    out = filtered_;
  }
  void issued(int index, Cycle now) override { inner_->issued(index, now); }
  void long_latency(int index, Cycle now) override { inner_->long_latency(index, now); }
  bool nothing_ready(Cycle now) override { return inner_->nothing_ready(now); }
  Cycle next_event(Cycle now) const override {
    Cycle next = inner_->next_event(now);
    if (sleeping_ == 0) return next;  // no warp has slept since order() last found none asleep
    for (Cycle w : wake_)
      if (w > now) next = std::min(next, w);
    return next;
  }
  std::string name() const override { return inner_->name(); }

  void on_issue(const sm::IssueEvent& e) override {
    if (e.inst == nullptr || e.inst->op != ptx::Opcode::kNanosleep || e.guard == 0) return;
    if (e.inst->nsrc == 0 || e.inst->src[0].kind != func::Src::Kind::kImm) return;
    const Cycle d = nanosleep_cycles(e.inst->src[0].imm & 0xffffffffu, mhz_);
    if (d == 0) return;
    const auto slot = static_cast<size_t>(e.slot);
    if (slot >= wake_.size()) wake_.resize(slot + 1, 0);
    // The sleep starts the cycle after the issue.
    wake_[slot] = std::max(wake_[slot], e.now + 1 + d);
    ++sleeping_;
  }

 private:
  bool asleep(int slot, Cycle now) const {
    return slot >= 0 && static_cast<size_t>(slot) < wake_.size() &&
           wake_[static_cast<size_t>(slot)] > now;
  }

  std::unique_ptr<IWarpScheduler> inner_;
  double mhz_;
  std::vector<Cycle> wake_;  // per SM warp slot: the first cycle it may issue again
  unsigned sleeping_ = 0;    // an upper bound on the warps with wake_ in the future
  std::vector<int> filtered_;
};

}  // namespace

std::unique_ptr<IWarpScheduler> with_nanosleep(std::unique_ptr<IWarpScheduler> inner,
                                               const PolicyContext& ctx, double core_clock_mhz) {
  auto f = std::make_unique<SleepFilter>(std::move(inner), ctx, core_clock_mhz);
  if (ctx.events) ctx.events->subscribe(f.get());
  return f;
}

}  // namespace simtsync::sched
