// One streaming multiprocessor: warp slots, fetch (I-cache, per-warp I-buffer), issue by
// several warp schedulers (warps split among them by slot), scoreboard, execution-unit pools
// with latency and initiation interval, and an LD/ST unit in front of the memory port.
// Ticked last stage first (writeback, memory responses, LD/ST, issue, fetch) so a value
// produced this cycle is used next cycle.
//
// Execution-driven: an instruction executes functionally when it issues (func::Executor, one
// per SM so its counters are the SM's own); memory instructions only generate their addresses
// then, and take effect when the memory side performs them.
//
// Seams (docs/architecture.md): policies are built with a PolicyContext (this SM as their
// IWarpView, the SM's SharedUnits and EventBus, their declared counters); every committed
// instruction, barrier release, CTA launch/exit and memory completion is an event on the bus;
// the reconvergence units of warps that keep time are ticked and their memory requests sent.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <queue>
#include <vector>

#include "func/executor.h"
#include "timing/mem/mem_request.h"
#include "timing/mem/shared_memory.h"
#include "timing/sched/context.h"
#include "timing/sched/i_fetch_policy.h"
#include "timing/sched/i_warp_scheduler.h"
#include "timing/sched/warp_phase_tracker.h"
#include "timing/sched/events.h"
#include "timing/sm/atomic_loop.h"
#include "timing/sm/icache.h"
#include "timing/sm/scoreboard.h"
#include "timing/sm/sm_params.h"
#include "timing/sm/sm_stats.h"

namespace simtsync::sm {

inline constexpr unsigned kMaxIbuffer = 8;
// WarpSlot::fetch_ready while its I-cache line is being fetched from memory.
inline constexpr Cycle kWaitFill = ~Cycle{0} - 1;

struct WarpSlot {
  func::Warp* warp = nullptr;  // nullptr: free slot
  // The warp's reconvergence unit (fixed while the warp holds the slot): an issue fetches it
  // and the warp ahead of executing (see try_issue).
  const simt::IReconvergence* unit = nullptr;
  int cta_slot = -1;
  std::uint64_t age = 0;
  // I-buffer: decoded instructions in program order starting at the warp's next PC.
  struct Entry {
    const func::ExecInst* inst = nullptr;
    Cycle ready = 0;
    // Decoded once at fetch (Sm::buffered), read at every issue attempt.
    ptx::UnitClass uc = ptx::UnitClass::kInt;
    OpClass oc = OpClass::kInt;
    UnitKind uk = UnitKind::kSp;
  };
  Entry ib[kMaxIbuffer];
  unsigned ib_count = 0;
  Pc fetch_pc = 0;
  bool fetch_stop = false;     // a control instruction is buffered: fetch waits for it
  Cycle fetch_ready = 0;       // an I-cache miss is being filled until then
  Addr ifill_line = 0;         // the line an I-cache fill from memory brings (kWaitFill)
  bool control_flush = false;  // the buffer was flushed by a control transfer
  Scoreboard sb;
  unsigned pending_loads = 0;   // loads and atomics in flight
  unsigned pending_stores = 0;  // stores in flight (fences wait for them)
  // Lock instructions among pending_loads: with lock queuing a lock's parked lanes stay out
  // while its granted lanes run the critical section and unlock.
  unsigned pending_locks = 0;
  bool done = false;            // every thread exited; waits for memory, then CTA exit
  std::uint64_t issued = 0;     // instructions issued (a per-warp counter policies may read)
  // What only one mechanism needs lives with it: a shared atomic's retry loop in
  // Sm::atomic_loops_ (atomic_loop.h), a lock instruction's wait in Sm::lock_wait_.
};

struct CtaSlot {
  int cta = -1;  // index in the launch; -1 = free
  std::vector<int> warp_slots;
  unsigned threads = 0, registers = 0, shared = 0;
};

// The SM's only way to the memory side. Sending is immediate today (so timing is as before);
// it is the place where a parallel SM phase will buffer requests (issue 20).
class SmOutbox {
 public:
  explicit SmOutbox(mem::IMemPort& port) : port_(port) {}
  bool try_send(const mem::MemRequest& r, Cycle now) { return port_.try_send(r, now); }
  Cycle retry_at(int sm, Cycle now) const { return port_.retry_at(sm, now); }

 private:
  mem::IMemPort& port_;
};

class Sm final : public sched::IWarpView {
 public:
  Sm(int id, const SmParams& p, func::Executor& ex, mem::IMemPort& port);

  int id() const { return id_; }
  // Can a CTA with these needs start now?
  bool can_accept(unsigned threads, unsigned warps, unsigned registers, unsigned shared) const;
  // Starts CTA `cta` whose functional warps are `warps` (already initialised); returns the
  // CTA slot it took.
  int start_cta(int cta, const std::vector<func::Warp*>& warps, unsigned threads,
                 unsigned registers, unsigned shared, std::uint64_t age);
  // Advances one cycle. Returns true when anything happened (an issue, a fetch, a completion).
  bool tick(Cycle now);
  // Completed CTAs since the last call (their slots are free again).
  bool has_completed() const { return !completed_.empty(); }
  std::vector<int> take_completed();
  bool idle() const { return live_ctas_ == 0; }
  // The lock bits of this SM's shared-memory lock unit (seed 001 sec. 3.2), 1 = held.
  std::uint8_t* lock_bits() { return lock_bits_.data(); }
  // Earliest future cycle at which this SM could make progress without outside events.
  Cycle next_event(Cycle now) const;
  // The SM's counters. Warp-phase totals (stats.warp_phases) are folded in when CTAs complete
  // and when skipped cycles are charged (the GPU does both at the end of a launch).
  const SmStats& stats() const { return stats_; }
  // The launch has ended at `now`: the policies' shared units close what is open and write
  // their records (called once by the GPU, before it reads the statistics).
  void finish_launch(Cycle now) { shared_units_.finish(now); }
  // The units this SM's policies share (the GPU hands the criticality board to the L1).
  sched::SharedUnits& shared_units() { return shared_units_; }
  // What the policies and their shared units reported that counters cannot say (a DDOS branch,
  // a delay-limit change), in the order they wrote it.
  const std::vector<sched::PolicyRecord>& records() const { return records_; }
  const ICacheStats& icache_stats() const { return icache_.stats(); }
  const mem::SharedStats& shared_stats() const { return shared_.stats(); }
  const std::vector<WarpSlot>& slots() const { return slots_; }

  // Memory responses come back through here (called by the GPU).
  void memory_response(const mem::MemRequest& r, Cycle now);
  // True once after a memory response or a new CTA (the GPU wakes a sleeping SM).
  bool take_wakeup() {
    const bool w = woken_;
    woken_ = false;
    return w;
  }
  // Charges `cycles` skipped while asleep to each scheduler's last stall reason.
  void account_skipped(Cycle cycles);
  // Called after every functional step with the PC it started at (the watchdog listens).
  void set_step_observer(std::function<void(func::Warp&, Pc)> f) { on_step_ = std::move(f); }
  // The SM's observers (policies subscribe from their factories; tests and tools may too).
  EventBus& events() { return events_; }
  // Barrier `id` of the CTA in `cta_slot` released `warps` (global ids); the GPU routes the
  // executor's notice here.
  void barrier_released(int cta_slot, unsigned id, const std::vector<int>& warps, Cycle now);
  // The CTA slot that holds launch CTA `cta`, or -1.
  int cta_slot_of(int cta) const;
  func::Executor& executor() { return ex_; }

  // IWarpView (what policies may read).
  unsigned num_slots() const override { return static_cast<unsigned>(slots_.size()); }
  bool live(int slot) const override;
  int cta_slot(int slot) const override { return slot_at(slot).cta_slot; }
  Pc pc(int slot) const override;
  bool at_barrier(int slot) const override;
  unsigned ibuffer_count(int slot) const override { return slot_at(slot).ib_count; }
  unsigned outstanding_memory(int slot) const override {
    return slot_at(slot).pending_loads + slot_at(slot).pending_stores;
  }
  bool issue_blocked(int slot) const override { return ((blocked_ | ldst_blocked_) >> slot) & 1; }
  std::uint64_t issued(int slot) const override { return slot_at(slot).issued; }
  unsigned cta_waiting(int c) const override;
  unsigned cta_warps(int c) const override;

 private:
  struct Writeback {
    Cycle at;
    int slot;
    std::uint32_t reg;
    bool operator>(const Writeback& o) const { return at > o.at; }
  };
  struct LdstEntry {
    int slot;
    func::MemAccess* access;
  };
  struct SharedPending {
    Cycle at;
    int slot;
    func::MemAccess* access;
  };

  const WarpSlot& slot_at(int s) const { return slots_[static_cast<size_t>(s)]; }
  void writeback(Cycle now);
  void tick_units(Cycle now);
  // The reconvergence unit that sent a kUnit request, or null when its warp has finished and
  // the slot holds another (the reserved area's address names the sender).
  simt::TimedHooks* request_unit(const mem::MemRequest& r) const;
  void emit_issue(int sched, int slot, const func::ExecInst& in, Pc pc, const func::StepInfo& info,
                  bool memory, Cycle now);
  void ldst(Cycle now);
  void pop_ldst();
  bool issue(Cycle now);
  bool issue_one(int sched, Cycle now);
  // issue_one for a policy whose order is a rotation of its warps (IWarpScheduler::rotates).
  bool issue_rotated(int sched, Cycle now);
  StallKind try_issue(int slot, Cycle now, int sched);
  StallKind issue_atomic_step(int slot, Cycle now);
  // A pipeline of unit kind `uk` free at `now` (nullptr: none), and taking one for an
  // instruction of class `oc`.
  Cycle* free_pipe(UnitKind uk, Cycle now);
  void occupy(Cycle* pipe, OpClass oc, UnitKind uk, Cycle now);
  bool fetch(Cycle now);
  void flush(WarpSlot& ws, Pc pc, bool control);
  // Recomputes whether slot `s` wants an instruction fetched (bit s of fetchable_).
  void update_fetch_bit(int s);
  void check_done(int slot, Cycle now);
  void finish_access(int slot, func::MemAccess* acc, Cycle now);
  func::MemAccess* alloc_access();
  OpClass op_class(const func::ExecInst& in) const;
  UnitKind unit_of(const func::ExecInst& in) const;
  // An I-buffer entry for `in`, decoded (unit class, op class, unit kind), ready at `ready`.
  WarpSlot::Entry buffered(const func::ExecInst* in, Cycle ready) const {
    return {in, ready, ptx::opcode_unit(in->op), op_class(*in), unit_of(*in)};
  }

  int id_;
  SmParams p_;
  func::Executor& ex_;
  SmOutbox port_;
  ICache icache_;
  EventBus events_;
  std::unique_ptr<sched::WarpPhaseTracker> phases_;  // stats.warp_phases
  void fold_phases();
  sched::SharedUnits shared_units_;
  std::vector<sched::PolicyRecord> records_;
  std::vector<WarpSlot> slots_;
  // Per slot, what the issue stage reads of every warp it looks at each cycle, written by the
  // warp's reconvergence unit and executor as they change (IReconvergence::mirror_to,
  // func::WarpStateCell::mirror_to; bound in start_cta, unbound in reset_slot): one contiguous
  // array instead of two objects per warp, whose cache misses were a third of a memory-bound
  // run's time (issue 48).
  struct HotWarp {
    simt::SplitState split;
    func::WarpState state = func::WarpState::kFinished;
  };
  std::vector<HotWarp> hot_;
  // Per slot: the shared atomic running as a retry loop (sm.shared.atomics = lock_loop;
  // atomic_loop.h, sm_atomic_loop.cc).
  std::vector<AtomicLoop> atomic_loops_;
  // Slots whose lock instruction's replies are out (seed 004 sec. 6.2): the warp issues nothing
  // until its reconvergence unit is ready again.
  std::uint64_t lock_wait_ = 0;
  // Slots whose atomic_loops_ entry runs (acc set).
  std::uint64_t loop_slots_ = 0;
  // A slot taken by a new warp or freed: its generic state and its mechanisms' state start over.
  void reset_slot(int s);
  std::vector<CtaSlot> ctas_;
  std::vector<std::unique_ptr<sched::IWarpScheduler>> scheds_;
  std::vector<std::vector<int>> sched_slots_;  // scheduler -> warp slots it owns
  std::vector<std::vector<Cycle>> unit_busy_;  // unit kind -> pipelines' busy-until
  std::priority_queue<Writeback, std::vector<Writeback>, std::greater<>> wb_;
  std::vector<LdstEntry> ldst_queue_;
  std::vector<SharedPending> shared_pending_;
  std::vector<std::unique_ptr<func::MemAccess>> access_pool_;
  std::vector<func::MemAccess*> free_access_;
  std::vector<int> completed_;
  unsigned used_threads_ = 0, used_warps_ = 0, used_regs_ = 0, used_shared_ = 0;
  int live_ctas_ = 0;
  std::unique_ptr<sched::IFetchPolicy> fetch_policy_;
  // The issue stage may skip writing orders_ for a rotating policy: the fetch policy does not
  // read them (issue_rotated).
  bool rotation_ok_ = false;
  // Per scheduler: the view index it last issued from when its policy rotates (-1: none yet),
  // kNotRotating otherwise (the walk starts after it, as the policy's order would).
  static constexpr int kNotRotating = -2;
  std::vector<int> rotated_last_;
  std::vector<int> fetch_order_;
  SmStats stats_;
  std::function<void(func::Warp&, Pc)> on_step_;
  mem::SharedMemoryUnit shared_;
  std::vector<std::uint8_t> lock_bits_;
  std::vector<Addr> ifill_queue_;     // I-cache lines to request from memory, in order
  std::vector<Addr> ifill_inflight_;  // requested, not back yet
  std::vector<mem::MemRequest> unit_queue_;  // reconvergence units' requests to send, in order
  std::uint64_t timed_units_ = 0;            // slots whose reconvergence unit keeps time or memory
  std::uint64_t clock_units_ = 0;            // of those, units whose next_event() can be < kNever
  std::uint64_t unit_work_ = 0;  // units that asked for a tick (TimedHooks::bind; tick_units)
  bool woken_ = false;
  Cycle last_now_ = 0;  // the cycle of the latest tick (for events outside tick)
  bool ldst_refused_ = false;                // the memory port refused the queue head ...
  Cycle ldst_retry_at_ = 0;                  // ... and can take it from then (~0: after a response)
  std::uint64_t ldst_blocked_ = 0;           // slots waiting for room in the LD/ST queue
  // Slots refused only for want of room in the LD/ST queue, with nothing changed for them since
  // (no issue, flush or memory reply; units that keep time are never here): while the queue is
  // full they are refused again without the whole of try_issue (refuse_ldst). ldst_blocked_
  // forgets them at every pop; this does not. Half of a memory-bound run's try_issue calls
  // (vecadd) were such refusals (issue 48).
  std::uint64_t ldst_waiting_ = 0;
  // try_issue's outcome for a slot in ldst_waiting_ while the LD/ST queue is full.
  StallKind refuse_ldst(int slot, Cycle now);
  // The stall kind of a scheduler whose `live` warps are all blocked or (`refused`) refused for
  // LD/ST-queue room: structural when any waits for the LD/ST queue, else data (structural ranks
  // before data, as the walks' minimum does).
  StallKind blocked_kind(std::uint64_t live, std::uint64_t refused) const {
    return ((live & ldst_blocked_) | refused) != 0 ? StallKind::kStructural : StallKind::kData;
  }
  // Slots waiting on the scoreboard or a fence: skipped by the issue stage until a writeback
  // or a memory response (a bit mask, so the scan over a scheduler's warps stays in registers).
  std::uint64_t blocked_ = 0;
  std::uint64_t fetchable_ = 0;              // slots whose I-buffer wants an instruction
  // Slots with a warp, an empty I-buffer and fetch not stopped: try_issue finds nothing to
  // issue there and changes nothing, unless the slot is in lock_wait_, timed_units_ or
  // loop_slots_ (its outcome: starved_kind). Kept by update_fetch_bit. Most warps a
  // fetch-bound scheduler looks at are here (NW at paper size, issue 48).
  std::uint64_t starved_ = 0;
  // try_issue's outcome for each slot of `slots` (starved_, none in lock_wait_, timed_units_
  // or loop_slots_), the least of them: exit, barrier, or the I-buffer's control or fetch wait.
  StallKind starved_kind(std::uint64_t slots) const;
  std::uint64_t version_ = 0;                // bumps when warps arrive, finish or leave
  std::vector<std::uint64_t> view_version_;  // per scheduler: version its view was built at
  std::vector<std::vector<sched::SchedWarp>> views_;
  std::vector<std::uint8_t> view_any_warp_, view_any_live_;
  std::vector<std::vector<int>> orders_;  // per scheduler (policies may keep them between cycles)
  std::vector<unsigned> view_live_;       // per scheduler: live warps in its view
  std::vector<std::uint64_t> view_live_mask_;  // per scheduler: the slots of those warps
  std::vector<StallKind> last_stall_;
  bool long_latency_issued_ = false;
  bool sched_changed_ = false;  // a scheduler reordered its warps after a cycle without issue
  // A lower bound of the future I-buffer, fetch and pipeline ready times (next_event's scan);
  // lowered whenever one is set, recomputed by a scan once it has passed.
  mutable Cycle ready_min_ = 0;
  void note_ready(Cycle at) { ready_min_ = std::min(ready_min_, at); }
  // What the scan visits: the slots given a ready time (I-buffer, fetch, atomic loop) and the
  // pipelines occupied (bit pipe_bit_[kind] + index) since the scan last found theirs passed,
  // instead of every slot and pipeline (next_event was 3.6% of a 30-CTA run, issue 48). With
  // more than 64 pipelines every one is scanned.
  mutable std::uint64_t ready_slots_ = 0;
  mutable std::uint64_t busy_pipes_ = 0;
  std::vector<Cycle*> pipes_;       // by bit
  std::vector<unsigned> pipe_bit_;  // per unit kind: its first pipeline's bit
  void note_slot_ready(int s, Cycle at) {
    note_ready(at);
    ready_slots_ |= std::uint64_t{1} << s;
  }
  // Scratch for scheduler calls.
  std::vector<sched::SchedWarp> view_;
  std::vector<int> order_;
};

}  // namespace simtsync::sm
