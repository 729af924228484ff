// Events of one SM, delivered to its observers (warp schedulers that subscribe, and later spin
// detectors, warp-phase trackers, energy counters). Observers hear what happened; they never
// change warps. The SM builds an event only when someone listens, so an SM without observers
// pays nothing.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "common/lane_mask.h"
#include "common/types.h"
#include "ptx/ir.h"

namespace simtsync::func {
struct ExecInst;
struct MemAccess;
}

namespace simtsync::sm {

// One committed (issued and executed) warp instruction.
struct IssueEvent {
  Cycle now = 0;
  int sched = 0;      // the scheduler that issued it
  int slot = 0;       // warp slot in the SM
  int cta_slot = -1;  // CTA slot in the SM
  int cta = -1;       // CTA index in the launch
  Pc pc = 0;
  const func::ExecInst* inst = nullptr;
  ptx::UnitClass unit = ptx::UnitClass::kInt;
  LaneMask active = 0;  // threads the instruction ran for
  LaneMask guard = 0;   // ... whose guard predicate held
  // Branches: `taken` (= guard) went to target; backward when target is not after the branch.
  bool branch = false;
  LaneMask taken = 0;
  Pc target = 0;
  bool backward = false;
  // setp: the first guarded lane's source operands (seed 000's DDOS value history).
  bool setp = false;
  std::uint64_t setp_a = 0, setp_b = 0;
  bool barrier_arrival = false;  // the warp arrived at a CTA barrier
  bool memory = false;           // a memory instruction entered the LD/ST unit
};

struct BarrierEvent {
  Cycle now = 0;
  int cta_slot = -1;
  int cta = -1;
  unsigned barrier = 0;
  std::vector<int> slots;  // warp slots released
};

struct CtaEvent {
  Cycle now = 0;
  int cta_slot = -1;
  int cta = -1;
  std::vector<int> slots;  // the CTA's warp slots
};

// A warp has finished (its exit committed and its memory drained); its CTA may still run.
struct WarpExitEvent {
  Cycle now = 0;
  int slot = 0;
  int cta_slot = -1;
  int cta = -1;
};

// A warp's memory instruction completed for `lanes` (all of them, or a part when the memory
// side completes lanes separately); `succeeded`: lanes whose operation succeeded (a
// compare-and-swap that swapped, a lock bit taken; every lane for other operations).
struct MemoryEvent {
  Cycle now = 0;
  int slot = 0;
  Pc pc = 0;
  const func::ExecInst* inst = nullptr;
  LaneMask lanes = 0;
  LaneMask succeeded = 0;
  bool last = true;  // the instruction has now completed for every lane
  // The access (per-lane addresses and spaces); set on the last event only, valid while it is
  // delivered.
  const func::MemAccess* access = nullptr;
};

// What one warp of a scheduler did in a cycle the scheduler tried to issue: the scheduler's stall
// kinds (sm_stats.h's StallKind, in its order) per warp, and kNotPicked. Only for the timeline
// trace (src/trace/); see SchedCycleEvent.
enum class WarpCycle : std::uint8_t {
  kIssued,      // it issued
  kStructural,  // its instruction's unit or the LD/ST queue was busy
  kData,        // waiting on the scoreboard, a fence or a lock reply
  kBarrier,     // at a CTA barrier
  kControl,     // I-buffer emptied by a control transfer (or a timed reconvergence unit)
  kFetch,       // I-buffer empty otherwise, or its head not yet decoded
  kHeld,        // live, but the policy did not offer it (BOWS's back-off, a hold, a pending set)
  kExit,        // finished, its memory not yet drained
  kNotPicked,   // offered behind the warp that issued, not known to be stalled
  kNone,        // no live warp in the slot
};

// One cycle of one scheduler that had live warps (the timeline trace): `why[i]` for warp slot
// `slots[i]`. Warps the scheduler looked at before the one that issued (or all it offered,
// when none issued) failed for the reason recorded; the ones after it were not looked at.
struct SchedCycleEvent {
  Cycle now = 0;
  int sched = 0;
  std::span<const int> slots;
  std::span<const WarpCycle> why;
};

class ISmObserver {
 public:
  virtual ~ISmObserver() = default;
  virtual void on_issue(const IssueEvent& e) { (void)e; }
  virtual void on_barrier_release(const BarrierEvent& e) { (void)e; }
  virtual void on_cta_launch(const CtaEvent& e) { (void)e; }
  virtual void on_cta_exit(const CtaEvent& e) { (void)e; }
  virtual void on_warp_exit(const WarpExitEvent& e) { (void)e; }
  virtual void on_memory(const MemoryEvent& e) { (void)e; }
  // Heard only by observers subscribed with EventBus::subscribe_cycles (a per-cycle cost).
  virtual void on_sched_cycle(const SchedCycleEvent& e) { (void)e; }
};

// The observers of one SM, in subscription order (deterministic delivery).
class EventBus {
 public:
  void subscribe(ISmObserver* o) { observers_.push_back(o); }
  bool empty() const { return observers_.empty(); }
  // Observers of every scheduler cycle (SchedCycleEvent): the SM tests one flag per scheduler
  // cycle and builds the event only when one is subscribed.
  void subscribe_cycles(ISmObserver* o) {
    cycle_observers_.push_back(o);
    cycles_ = true;
  }
  bool cycles() const { return cycles_; }
  void deliver_cycle(const SchedCycleEvent& e) const {
    for (ISmObserver* o : cycle_observers_) o->on_sched_cycle(e);
  }
  template <class Event, class Fn>
  void deliver(const Event& e, Fn fn) const {
    for (ISmObserver* o : observers_) (o->*fn)(e);
  }

 private:
  std::vector<ISmObserver*> observers_;
  std::vector<ISmObserver*> cycle_observers_;
  bool cycles_ = false;
};

}  // namespace simtsync::sm
