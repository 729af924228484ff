// The reconvergence unit of one warp: decides which threads run next, and where.
//
// The contract has three parts (docs/architecture.md, "Reconvergence units"):
//  1. What the SM reads every cycle: SplitState (pc, active, live, ready, branch_ready), plain
//     data the base class keeps; pc(), active(), ready(), ... are inline reads of it, never a
//     virtual call. A unit computes it in current_state(); the base republishes it after every
//     report and hook, so a unit never publishes by hand (its constructor calls publish() once).
//  2. What the core tells the unit (control reports): after executing an instruction for the
//     active threads it reports exactly one outcome: advance() for straight-line code, branch()
//     for a (possibly divergent) branch, call()/ret() for function calls, exit() for threads that
//     terminate; barrier_arrive()/barrier_release() and warp_sync() for synchronization (and
//     asks barrier_complete() while threads wait at a barrier). A unit implements them as
//     on_advance(), on_branch(), ... After every report pc()/active() name the next split to run
//     (or finished() is true).
//  3. Optional hooks, each a small interface a unit opts into by deriving from it: TimedHooks
//     (time and memory: AWARE's timeouts and spilled tables; the SM ticks the unit, asks its
//     next_event(), drains its outbox and hands it memory replies) and LockHooks (the lock
//     instructions of seed 004, lock_stack). timed() and locks() return them, or nullptr: the
//     IPDOM stack implements neither and costs the SM nothing per cycle.
// Besides: introspection for reports, tests and statistics (entries, name, report_note,
// state_is_entries, collect, call_mask).
//
// Implementations: impl/, registered in reconvergence.def, chosen by sm.reconvergence.impl.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "common/lane_mask.h"
#include "common/types.h"

namespace simtsync::simt {

// The RPC of an entry that reconverges nowhere (the outermost one, a call entry): no PC ever
// equals it; watchdog reports print "-".
inline constexpr Pc kNoRpc = ~Pc{0} - 1;

// One row of the unit's state, for watchdog reports and tests.
struct ReconvergenceEntry {
  Pc pc = 0;
  Pc rpc = 0;
  LaneMask mask = 0;
  bool call = false;  // a call entry (seed 004 sec. 2.2.3)
  // lock_stack (seed 004 ch. 4): a lock-retry (LR) entry holds the threads that sent a lock
  // request, a lock (L) entry those that hold it; neither is popped by reconvergence. A try
  // entry (TR, seed 004 sec. 9.2.2) holds the threads of a try-lock that still have attempts
  // left; it pops when none are left.
  enum class Lock : std::uint8_t { kNone, kRetry, kHeld, kTry };
  Lock lock = Lock::kNone;
  // Split-table units (multipath, aware, its): a split that may run, or a reconvergence-table
  // entry whose `pending` threads have not arrived yet (the rest of mask wait at pc).
  enum class Table : std::uint8_t { kStack, kSplit, kReconvergence };
  Table table = Table::kStack;
  LaneMask pending = 0;
  bool blocked = false;  // a split held at a barrier or a warp-synchronizing instruction
  bool spilled = false;  // virtualized tables: the entry is in memory (or its fill is in flight)
};

// A branch as the core resolved it for the active threads.
struct BranchOutcome {
  LaneMask taken = 0;  // active threads that go to target; the others fall through
  Pc target = 0;
  Pc fallthrough = 0;
  Pc rpc = kExitPc;  // immediate post-dominator (kExitPc: the function's virtual exit)
  // The safe post-dominator the SIMT-deadlock analysis computed for this branch (seed 003
  // Algorithm 2): where a unit that delays reconvergence (AWARE) may reconverge instead of rpc.
  // Equal to rpc for branches that leave no flagged loop.
  Pc safe_rpc = kExitPc;
  bool backward() const { return target <= fallthrough - kInstSize; }
};

// A memory request the unit itself makes (spilling or filling its tables, seed 003 sec. IV-B).
// The SM sends it like an instruction-cache fill and answers with memory_reply(tag).
struct UnitRequest {
  // An offset in the warp's reserved area (kUnitAreaBytes per warp, seed 003: 32 x 32 bytes);
  // the SM places the area in global memory by warp.
  static constexpr unsigned kUnitAreaBytes = 1024;
  Addr addr = 0;
  unsigned bytes = 0;
  bool write = false;
  std::uint64_t tag = 0;
};

// The outcome of memory operations for a set of lanes: the warp's own memory instruction
// (lanes that completed and those whose operation succeeded: a compare-and-swap that swapped, a
// lock bit taken), or the reply to one of the unit's own requests (from_unit, tag).
struct MemoryReply {
  LaneMask lanes = 0;
  LaneMask succeeded = 0;
  Pc pc = 0;  // the instruction (0 for the unit's own requests)
  bool from_unit = false;
  std::uint64_t tag = 0;
};

// collect() for a unit that keeps its counters in an array in declaration order: copies them
// into `out`. A count that differs from the unit's declarations is a simulator bug (throws).
void put_counters(std::span<std::uint64_t> out, std::span<const std::uint64_t> counters);

// What the SM and the executor read about the warp every cycle, kept as plain data by
// IReconvergence and republished after every report and hook (see the file comment).
struct SplitState {
  Pc pc = 0;                 // where the threads that run next are (kExitPc: none)
  LaneMask active = 0;       // the threads that run next
  LaneMask live = 0;         // threads not yet exited (0: the warp has finished)
  bool ready = true;         // the unit can name the next split now (false while it waits for a
                             // fill, an insertion latency or lock replies)
  bool branch_ready = true;  // a control instruction may issue now (AWARE: false while a table
                             // spill waits to leave the SM, seed 003 Fig. 7)
  bool tick = true;          // a unit with TimedHooks: the SM's next tick runs TimedHooks::tick
                             // and sends its requests (false: nothing to do, the SM skips it)
  bool operator==(const SplitState&) const = default;
};

class TimedHooks;
class LockHooks;

class IReconvergence {
 public:
  IReconvergence() = default;
  IReconvergence(const IReconvergence&) = delete;
  IReconvergence& operator=(const IReconvergence&) = delete;
  virtual ~IReconvergence() = default;

  // 1. Every cycle: plain reads of the published state (no virtual call).
  const SplitState& state() const { return state_; }
  Pc pc() const { return state_.pc; }
  LaneMask active() const { return state_.active; }
  // Threads not yet exited.
  LaneMask live() const { return state_.live; }
  bool finished() const { return state_.live == 0; }
  bool ready() const { return state_.ready; }
  bool branch_ready() const { return state_.branch_ready; }
  // The optional hooks (nullptr: the unit has none; see TimedHooks and LockHooks).
  TimedHooks* timed() const { return timed_; }
  LockHooks* locks() const { return locks_; }

  // 2. Control reports; each runs the unit's on_*() and republishes its state.
  // The active threads executed a non-control instruction and go on at next_pc.
  void advance(Pc next_pc) {
    on_advance(next_pc);
    publish();
  }
  // The active threads executed a branch (see BranchOutcome).
  void branch(const BranchOutcome& b) {
    on_branch(b);
    publish();
  }
  void branch(LaneMask taken, Pc target, Pc fallthrough, Pc rpc) {
    branch(BranchOutcome{taken, target, fallthrough, rpc, rpc});
  }
  // The active threads call a function starting at entry; they come back at return_pc.
  void call(Pc entry, Pc return_pc) {
    on_call(entry, return_pc);
    publish();
  }
  // The active threads return from the current function. Returns true when the whole call
  // (every thread that entered it) has returned and execution resumes in the caller.
  bool ret() {
    const bool whole = on_ret();
    publish();
    return whole;
  }
  // `lanes` terminate for good (exit, or ret from the kernel).
  void exit(LaneMask lanes) {
    on_exit(lanes);
    publish();
  }
  // The active threads arrive at a blocking CTA barrier. Returns the lanes that now wait for
  // its release: a stack serializes paths, so the whole warp waits (its live threads); a unit
  // that lets other splits run (AWARE) blocks only the arriving split, names another one, and
  // returns every lane blocked at the barrier so far. The warp counts as arrived when that is
  // all its live threads.
  LaneMask barrier_arrive(LaneMask arriving) {
    const LaneMask waiting = on_barrier_arrive(arriving);
    publish();
    return waiting;
  }
  // The barrier the warp waits at released: its threads go on after it.
  void barrier_release() {
    on_barrier_release();
    publish();
  }
  // The active threads reach a warp-synchronizing instruction (bar.warp.sync, or a .sync
  // shfl/vote/match/redux) whose member mask is `members`. True: run it now. False: the unit
  // holds the active threads at this instruction until the other members arrive and names
  // another split (independent thread scheduling). A stack runs its threads in lockstep and
  // always answers true.
  bool warp_sync(LaneMask members) {
    const bool run = on_warp_sync(members);
    publish();
    return run;
  }
  // True when threads wait at a barrier (barrier_arrive answered fewer than live()) and no other
  // thread can run any more: those that could have exited or wait to reconverge with the held
  // ones. The warp then arrives at the barrier without another barrier_arrive (the executor
  // asks after each step while some of the warp's threads wait at a barrier).
  virtual bool barrier_complete() const { return false; }

  // 3. Introspection (reports, tests, statistics; never per cycle).
  // Threads that entered the innermost call still in progress (those whose registers the
  // caller saved); 0 at kernel level.
  virtual LaneMask call_mask() const = 0;
  virtual std::vector<ReconvergenceEntry> entries() const = 0;
  virtual std::string name() const = 0;
  // True when entries() (with pc() and active(), which follow from them) is the unit's whole
  // state, so two warps with equal entries behave alike from then on: the functional
  // watchdog's recurrence check (a machine back in an earlier state repeats for ever) is only
  // sound for such units. Units with more state (counters, queues, per-thread scheduling
  // history) keep the default.
  virtual bool state_is_entries() const { return false; }
  // Something the unit did that a deadlock report should mention (empty: nothing).
  virtual std::string report_note() const { return ""; }
  // Statistics. A unit declares its counters once, in its declare function
  // (config::PluginDecl::stat), and keeps them itself in declaration order. When the warp
  // finishes, the executor hands it `out`, zeroed and sized from those declarations, to write
  // them into, and sums them over warps as declared (config::accumulate). A unit that declares
  // none is never asked: no cost per warp.
  virtual void collect(std::span<std::uint64_t> out) const { (void)out; }
  // The published state is also written to `m` from now on (nullptr: stop), which receives it
  // now: the timing SM keeps its warps' states in one array per SM (issue 48), so the issue
  // stage reads them without following each warp's unit. Bound while the warp holds a slot.
  void mirror_to(SplitState* m) {
    mirror_ = m;
    if (m) *m = state_;
  }
  // For checks (tests, debug builds): the published state is what the unit computes now.
  bool state_is_current() const { return state_ == current_state(); }

 protected:
  // What the unit implements. on_* change the unit's state; the base republishes after each.
  virtual void on_advance(Pc next_pc) = 0;
  virtual void on_branch(const BranchOutcome& b) = 0;
  virtual void on_call(Pc entry, Pc return_pc) = 0;
  virtual bool on_ret() = 0;
  virtual void on_exit(LaneMask lanes) = 0;
  virtual LaneMask on_barrier_arrive(LaneMask arriving) {
    (void)arriving;
    return live();
  }
  virtual void on_barrier_release() { on_advance(pc() + kInstSize); }
  virtual bool on_warp_sync(LaneMask members) {
    (void)members;
    return true;
  }
  // The state the SM reads, computed from the unit's own (SplitState's fields).
  virtual SplitState current_state() const = 0;
  // Stores current_state() as the published state: the base calls it after every report and
  // hook; a unit's constructor calls it once, last.
  inline void publish();  // defined after TimedHooks

 private:
  friend class TimedHooks;
  friend class LockHooks;
  SplitState state_;
  SplitState* mirror_ = nullptr;
  TimedHooks* timed_ = nullptr;
  LockHooks* locks_ = nullptr;
};

// Optional hook: a unit that keeps time or memory (AWARE's timeouts, insertion latencies and
// spilled tables; the finite lock stack's spills and fills). Deriving from it (constructed with
// `this`) makes timed() return it: the SM then ticks the unit in each of its ticks while the
// unit's published state asks for it (SplitState::tick: AWARE always, the lock stack only with
// requests to send), asks next_event() when it wants to sleep (if keeps_time()),
// sends the requests waiting in the unit's outbox (pop_request) to L2 like
// instruction fills, reports when each has left the SM (request_sent), and hands back their
// replies, and the per-lane results of the warp's own memory instructions, through
// memory_reply(). Each call republishes the unit's state, as a report does.
class TimedHooks {
 public:
  void tick(Cycle now) {
    on_tick(now);
    unit_.publish();
  }
  // The earliest cycle the unit's state changes by itself (kNever: never).
  virtual Cycle next_event(Cycle now) const = 0;
  bool pop_request(UnitRequest& out) {
    if (!on_pop_request(out)) return false;
    unit_.publish();
    return true;
  }
  // A request popped from the outbox has left the SM for the memory system (the SM's port took
  // it): a unit that holds a buffer until then (AWARE's spill-request buffers) frees it.
  void request_sent(std::uint64_t tag) {
    on_request_sent(tag);
    unit_.publish();
  }
  void memory_reply(const MemoryReply& r) {
    on_memory_reply(r);
    unit_.publish();
  }
  // Bound by the timing SM while the warp holds a slot (nullptrs: unbound): `clock` is the SM's
  // latest tick, which the unit reads between ticks; `work` is the SM's mask of units to tick,
  // in which the unit sets `bit` whenever it publishes a state that asks for a tick
  // (SplitState::tick), so the SM visits only units with something to do.
  void bind(const Cycle* clock, std::uint64_t* work, std::uint64_t bit) {
    clock_ = clock;
    work_ = work;
    work_bit_ = bit;
    if (work_ && unit_.state().tick) *work_ |= work_bit_;
  }
  // False: next_event() is always kNever (the unit changes only when told), so the SM need not
  // ask it when it decides how long to sleep.
  virtual bool keeps_time() const { return true; }

 protected:
  explicit TimedHooks(IReconvergence* unit) : unit_(*unit) { unit->timed_ = this; }
  TimedHooks(const TimedHooks&) = delete;
  TimedHooks& operator=(const TimedHooks&) = delete;
  ~TimedHooks() = default;
  virtual void on_tick(Cycle now) = 0;
  virtual bool on_pop_request(UnitRequest& out) = 0;
  virtual void on_request_sent(std::uint64_t tag) = 0;
  virtual void on_memory_reply(const MemoryReply& r) = 0;
  // The SM's latest tick (0 before a clock is bound: the functional model keeps no time).
  Cycle clock() const { return clock_ ? *clock_ : 0; }

 private:
  friend class IReconvergence;
  void wake() {
    if (work_) *work_ |= work_bit_;
  }
  IReconvergence& unit_;
  const Cycle* clock_ = nullptr;
  std::uint64_t* work_ = nullptr;
  std::uint64_t work_bit_ = 0;
};

inline void IReconvergence::publish() {
  state_ = current_state();
  if (mirror_) *mirror_ = state_;
  if (timed_ && state_.tick) timed_->wake();
}

// Optional hook: lock instructions (seed 004 ch. 4-6; the lock_stack unit). Deriving from it
// (constructed with `this`) makes locks() return it; a warp whose unit has none faults on
// simtsync_lock/unlock. The core reports:
// - lock_sent(pc): the active threads issued `lock` at pc and sent their requests; kLockRetry
//   when they retry from their lock-retry entry. The unit is not ready() until their outcome is
//   in:
// - lock_replied(acquired, next): every reply is back; `acquired` took the lock and go on at
//   next (after the lock), the others retry; or, with lock queuing (a request for a held lock
//   waits in the memory partition), lock_granted(replied, acquired, next) as replies come:
//   `acquired` were granted the lock, the rest of `replied` turned away (a full queue).
// - unlock_sent(): the active threads issued `unlock` (false: they hold no lock); unlock(next)
//   when its replies are back: they go on at next.
// kLockNestedQueued: a nested lock while requests of the lock around it still wait in lock
// queues, which deadlocks (seed 004 sec. 5.2.2); nothing was changed.
// - try_lock_sent(pc, attempts): the active threads issued a try-lock (seed 004 sec. 9.2.2)
//   with a bound of `attempts` tries (>= 1; kLockRetry for a retry); try_lock_replied(acquired,
//   next) when every reply is back: `acquired` hold the lock; returns the lanes that failed for
//   good (their attempts are spent): they leave the retry mechanism and every resolved thread
//   (acquired or failed) goes on at next, where the program branches on the result. Lanes
//   neither acquired nor failed retry. A try-lock is never queued (it fails at once).
// Each call republishes the unit's state, as a report does.
class LockHooks {
 public:
  enum LockSend : int { kLockFirst = 1, kLockRetry, kLockNestedQueued };
  LockSend lock_sent(Pc pc) {
    const LockSend s = on_lock_sent(pc);
    unit_.publish();
    return s;
  }
  void lock_replied(LaneMask acquired, Pc next) {
    on_lock_replied(acquired, next);
    unit_.publish();
  }
  void lock_granted(LaneMask replied, LaneMask acquired, Pc next) {
    on_lock_granted(replied, acquired, next);
    unit_.publish();
  }
  LockSend try_lock_sent(Pc pc, unsigned attempts) {
    const LockSend s = on_try_lock_sent(pc, attempts);
    unit_.publish();
    return s;
  }
  LaneMask try_lock_replied(LaneMask acquired, Pc next) {
    const LaneMask failed = on_try_lock_replied(acquired, next);
    unit_.publish();
    return failed;
  }
  bool unlock_sent() {
    const bool held = on_unlock_sent();
    unit_.publish();
    return held;
  }
  bool unlock(Pc next) {
    const bool done = on_unlock(next);
    unit_.publish();
    return done;
  }

 protected:
  explicit LockHooks(IReconvergence* unit) : unit_(*unit) { unit->locks_ = this; }
  LockHooks(const LockHooks&) = delete;
  LockHooks& operator=(const LockHooks&) = delete;
  ~LockHooks() = default;
  virtual LockSend on_lock_sent(Pc pc) = 0;
  virtual void on_lock_replied(LaneMask acquired, Pc next) = 0;
  virtual void on_lock_granted(LaneMask replied, LaneMask acquired, Pc next) = 0;
  virtual LockSend on_try_lock_sent(Pc pc, unsigned attempts) = 0;
  virtual LaneMask on_try_lock_replied(LaneMask acquired, Pc next) = 0;
  virtual bool on_unlock_sent() = 0;
  virtual bool on_unlock(Pc next) = 0;

 private:
  IReconvergence& unit_;
};

}  // namespace simtsync::simt
