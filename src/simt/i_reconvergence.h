// The reconvergence unit of one warp: decides which threads run next, and where.
//
// Contract: the core asks pc()/active() for the next instruction, executes it for the active
// threads, and then reports exactly one control outcome: advance() for straight-line code,
// branch() for a (possibly divergent) branch, call()/ret() for function calls, and exit() for
// threads that terminate. After every report the unit is in a state where pc()/active() name the
// next split to run (or finished() is true).
//
// Beyond control flow a unit may keep time and memory (AWARE's timeouts and spilled tables,
// lock queues): the SM calls tick() each cycle it ticks the warp's SM and asks next_event() when
// it wants to sleep; requests the unit wants sent to memory wait in its outbox (pop_request),
// and their replies, and the per-lane results of the warp's own memory instructions, come back
// through memory_reply(). A unit that keeps none of this (the IPDOM stack) implements nothing
// of it. Implementations: impl/, registered in reconvergence.def, chosen by
// sm.reconvergence.impl.
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
  // request, a lock (L) entry those that hold it; neither is popped by reconvergence.
  enum class Lock : std::uint8_t { kNone, kRetry, kHeld };
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

class IReconvergence {
 public:
  virtual ~IReconvergence() = default;

  virtual Pc pc() const = 0;
  virtual LaneMask active() const = 0;
  virtual bool finished() const = 0;

  // The active threads executed a non-control instruction and go on at next_pc.
  virtual void advance(Pc next_pc) = 0;
  // The active threads executed a branch (see BranchOutcome).
  virtual void branch(const BranchOutcome& b) = 0;
  void branch(LaneMask taken, Pc target, Pc fallthrough, Pc rpc) {
    branch(BranchOutcome{taken, target, fallthrough, rpc, rpc});
  }
  // The active threads call a function starting at entry; they come back at return_pc.
  virtual void call(Pc entry, Pc return_pc) = 0;
  // The active threads return from the current function. Returns true when the whole call
  // (every thread that entered it) has returned and execution resumes in the caller.
  virtual bool ret() = 0;
  // `lanes` terminate for good (exit, or ret from the kernel).
  virtual void exit(LaneMask lanes) = 0;

  // The active threads arrive at a blocking CTA barrier. Returns the lanes that now wait for
  // its release: a stack serializes paths, so the whole warp waits (its live threads); a unit
  // that lets other splits run (AWARE) blocks only the arriving split, names another one, and
  // returns every lane blocked at the barrier so far. The warp counts as arrived when that is
  // all its live threads.
  virtual LaneMask barrier_arrive(LaneMask arriving) {
    (void)arriving;
    return live();
  }
  // The barrier the warp waits at released: its threads go on after it.
  virtual void barrier_release() { advance(pc() + kInstSize); }
  // True when threads wait at a barrier (barrier_arrive answered fewer than live()) and no other
  // thread can run any more: those that could have exited or wait to reconverge with the held
  // ones. The warp then arrives at the barrier without another barrier_arrive (the executor
  // asks after each step while some of the warp's threads wait at a barrier).
  virtual bool barrier_complete() const { return false; }
  // The active threads reach a warp-synchronizing instruction (bar.warp.sync, or a .sync
  // shfl/vote/match/redux) whose member mask is `members`. True: run it now. False: the unit
  // holds the active threads at this instruction until the other members arrive and names
  // another split (independent thread scheduling). A stack runs its threads in lockstep and
  // always answers true.
  virtual bool warp_sync(LaneMask members) {
    (void)members;
    return true;
  }

  // Time (see the file comment). ready(): the unit can name the next split now (false while
  // it waits for a fill); next_event(): the earliest cycle its state changes by itself
  // (kNever: never).
  virtual void tick(Cycle now) { (void)now; }
  virtual Cycle next_event(Cycle now) const {
    (void)now;
    return kNever;
  }
  virtual bool ready() const { return true; }
  // True when the unit keeps time or memory: only then does the SM tick it, ask its
  // next_event() and drain its outbox (a stack costs nothing per cycle).
  virtual bool timed() const { return false; }
  // True when entries() (with pc() and active(), which follow from them) is the unit's whole
  // state, so two warps with equal entries behave alike from then on: the functional
  // watchdog's recurrence check (a machine back in an earlier state repeats for ever) is only
  // sound for such units. Units with more state (counters, queues, per-thread scheduling
  // history) keep the default.
  virtual bool state_is_entries() const { return false; }
  // Memory (see the file comment).
  virtual bool pop_request(UnitRequest& out) {
    (void)out;
    return false;
  }
  virtual void memory_reply(const MemoryReply& r) { (void)r; }
  // A request popped from the outbox has left the SM for the memory system (the SM's port took
  // it): a unit that holds a buffer until then (AWARE's spill-request buffers) frees it.
  virtual void request_sent(std::uint64_t tag) { (void)tag; }
  // False: a control instruction (bra, brx, call, ret, exit, trap) may not issue now, though
  // others may (AWARE: a branch waits until the spill-request buffers are empty, so the entries
  // it inserts have room, seed 003 Fig. 7).
  virtual bool branch_ready() const { return true; }

  // Lock instructions (seed 004 ch. 4-6; the lock_stack unit). The core reports:
  // - lock_sent(pc): the active threads issued `lock` at pc and sent their requests; returns
  //   kNoLockUnit when the unit has no lock semantics, kLockRetry when they retry from their
  //   lock-retry entry. The unit is not ready() until their outcome is in:
  // - lock_replied(acquired, next): every reply is back; `acquired` took the lock and go on at
  //   next (after the lock), the others retry; or, with lock queuing (a request for a held lock
  //   waits in the memory partition), lock_granted(replied, acquired, next) as replies come:
  //   `acquired` were granted the lock, the rest of `replied` turned away (a full queue).
  // - unlock_sent(): the active threads issued `unlock` (false: no lock semantics, or they hold
  //   no lock); unlock(next) when its replies are back: they go on at next.
  // kLockNestedQueued: a nested lock while requests of the lock around it still wait in lock
  // queues, which deadlocks (seed 004 sec. 5.2.2); nothing was changed.
  enum LockSend : int { kNoLockUnit = 0, kLockFirst, kLockRetry, kLockNestedQueued };
  virtual bool lock_semantics() const { return false; }
  // Something the unit did that a deadlock report should mention (empty: nothing).
  virtual std::string report_note() const { return ""; }
  // Statistics. A unit declares its counters once, in its declare function
  // (config::PluginDecl::stat), and keeps them itself in declaration order. When the warp
  // finishes, the executor hands it `out`, zeroed and sized from those declarations, to write
  // them into, and sums them over warps as declared (config::accumulate). A unit that declares
  // none is never asked: no cost per warp.
  virtual void collect(std::span<std::uint64_t> out) const { (void)out; }
  virtual LockSend lock_sent(Pc pc) {
    (void)pc;
    return kNoLockUnit;
  }
  virtual void lock_replied(LaneMask acquired, Pc next) {
    (void)acquired;
    (void)next;
  }
  virtual void lock_granted(LaneMask replied, LaneMask acquired, Pc next) {
    (void)replied;
    (void)acquired;
    (void)next;
  }
  virtual bool unlock_sent() { return false; }
  virtual bool unlock(Pc next) {
    (void)next;
    return false;
  }

  // Threads that entered the innermost call still in progress (those whose registers the
  // caller saved); 0 at kernel level.
  virtual LaneMask call_mask() const = 0;
  // Threads not yet exited.
  virtual LaneMask live() const = 0;
  virtual std::vector<ReconvergenceEntry> entries() const = 0;
  virtual std::string name() const = 0;
};

}  // namespace simtsync::simt
