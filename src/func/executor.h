// Instruction semantics: executes one instruction of one warp on the functional state.
//
// Memory instructions execute in two steps so a timing model can place each effect in time:
// generate() computes per-lane addresses (and store/atomic operands) into a MemAccess when the
// instruction issues; perform() reads, writes or applies the atomic when the memory side says
// so, writing load/atomic results to registers. The functional mode calls both at once.
#pragma once

#include <bit>
#include <cstdint>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/types.h"
#include "func/cta.h"
#include "func/exec_stats.h"
#include "func/global_memory.h"
#include "func/lane_mask.h"
#include "func/program.h"
#include "func/warp.h"
#include "simt/registry.h"

namespace simtsync::func {

struct LaunchInfo {
  const DecodedFunction* kernel = nullptr;
  Dim3 grid, block;
  unsigned warp_size = 32;
  std::uint32_t dynamic_shared = 0;
  unsigned warps_per_cta = 0;
  unsigned lock_bits = 1024;  // shared-memory lock bits per CTA when no SM provides them
  // The reconvergence unit of every warp (sm.reconvergence.impl); null: the IPDOM stack.
  const simt::UnitChoice* reconvergence = nullptr;
  // Lock requests wait in the memory partitions (sm.lock_queue): replies to a lock instruction
  // come lane by lane as grants (seed 004 sec. 6.3) instead of all at once.
  bool lock_queue = false;
  // Calls in progress per warp before a stack-overflow fault (watchdog.max_call_depth; 0: none).
  std::uint32_t max_call_depth = 1024;
};

// One memory instruction in flight for one warp.
struct MemAccess {
  const ExecInst* inst = nullptr;
  LaneMask mask = 0;
  unsigned bytes = 0;  // bytes per element
  unsigned vec = 1;
  Addr addr[64];              // resolved per lane: global address, shared or local offset
  std::uint8_t space[64];     // ptx::Space per lane (generic resolved to its window)
  std::uint64_t data[64][4];  // store data / atomic operands (b, c)
  Addr frame = 0;  // lock-bit intrinsics: the caller's frame holding their .param arguments
  // Per-lane outcome, filled as the memory side performs lanes (possibly in several parts):
  // lanes performed so far, and those whose operation succeeded (a compare-and-swap that
  // swapped, a lock bit taken; every performed lane for other operations).
  LaneMask done = 0;
  LaneMask succeeded = 0;
};

// True when no lane of the access resolved outside shared memory (the SM's shared-memory unit
// takes only such accesses; see Sm::ldst).
inline bool all_lanes_shared(const MemAccess& a) {
  for (LaneMask m = a.mask; m != 0; m &= m - 1)
    if (static_cast<ptx::Space>(a.space[std::countr_zero(m)]) != ptx::Space::kShared) return false;
  return true;
}

// What one step did, for observers of the issue stage (filled only when asked for).
struct StepInfo {
  LaneMask active = 0;  // threads the instruction ran for (before its guard)
  LaneMask guard = 0;   // ... of which its guard predicate held
  bool branch = false;  // a bra: `guard` took it to target
  Pc target = 0;
  // A setp (or a fused LDSLK, which sets a predicate too: its address): the first guarded
  // lane's two source operands.
  bool setp = false;
  std::uint64_t setp_a = 0, setp_b = 0;
  bool barrier_arrival = false;  // arrived at a CTA barrier (bar.sync/arrive/red)
};

// Who holds each taken shared-memory lock bit and what each thread whose last LDSLK failed is
// waiting for, so that a deadlock report can name the cause (seed 001 sec. 4.4: a thread that
// waits for a bit it holds itself through an aliased word; a holder in the same warp). Keyed by
// the bit's place in its lock-bit array, which is launch-wide unique; launch-wide.
struct LockBitLedger {
  struct Attempt {
    int warp = -1;  // global warp id
    unsigned lane = 0;
    Addr addr = 0;     // shared-memory byte address of the LDSLK
    unsigned bit = 0;  // its lock bit (index in the SM's or the CTA's lock-bit array)
  };
  std::unordered_map<const std::uint8_t*, Attempt> holders;  // bit -> the LDSLK that took it
  // (warp << 8 | lane) -> (bit, the failed LDSLK); a thread leaves when it takes a bit.
  std::unordered_map<std::uint64_t, std::pair<const std::uint8_t*, Attempt>> waiting;
  static std::uint64_t key(int warp, unsigned lane) {
    return (static_cast<std::uint64_t>(warp) << 8) | lane;
  }
};

// The executors of one launch (one per SM in the timing model) count steps and progress on
// their own, so that a parallel SM phase touches no shared counter; `steps` and `progress` here
// are the launch's totals up to the last fold() (the timing model folds after every phase,
// serially). Each executor's lock-bit ledger covers its SM's lock bits and warps; a report
// merges them (merged_locks()).
struct ExecShared {
  std::uint64_t progress = 0;
  std::uint64_t steps = 0;
  std::vector<const LockBitLedger*> ledgers;  // one per executor, in creation order
  LockBitLedger merged_locks() const;
};

// The parallel memory phase (issue 48) performs each memory partition's packets on one host
// thread, several partitions at once (Executor::perform_shard). A shard is one partition's:
// its own view of global memory, and the records of what a perform changes beyond the lanes it
// performs, kept for the caller to apply after the phase in the order a serial tick would have
// made them.
struct PerformShard {
  PerformShard(GlobalMemory& m, std::shared_mutex& pages) : mem(m, pages) {}
  GlobalMemory::View mem;
  // A lane's global compare-and-swap: the warp's record of its last one (Warp::cas_*) depends
  // on the order of all of them (Executor::record_warp_cas replays them).
  struct Cas {
    std::uint64_t when;  // the caller's tag: `when` below at the time
    Warp* w;
    Addr addr;
    Pc pc;
    bool swapped;
  };
  std::vector<Cas> cas;
  std::uint64_t when = 0;
};

// The counters a perform of global lanes adds besides the instruction's own (one per shard and
// executor; sums, so the order they are added in does not matter).
struct PerformCounts {
  std::uint64_t cas_attempts = 0, cas_failures = 0;
  std::uint64_t lock_requests = 0, lock_acquired = 0, unlock_requests = 0;
  std::uint64_t progress = 0;
  bool any() const {
    return (cas_attempts | cas_failures | lock_requests | lock_acquired | unlock_requests |
            progress) != 0;
  }
};

// Told of events the core cannot see from one step (the timing model routes them to SMs).
class IExecListener {
 public:
  virtual ~IExecListener() = default;
  // Barrier `id` of CTA `cta` released the warps in `warps` (global warp ids).
  virtual void barrier_released(int cta, unsigned id, const std::vector<int>& warps) = 0;
};

// Outcome of one step, for the scheduler.
// kMemory: a memory instruction issued its addresses into the caller's MemAccess (deferred
// mode); its effect waits for perform().
enum class StepResult : std::uint8_t { kExecuted, kBarrierWait, kFinished, kMemory };

class Executor {
 public:
  // `shared` (may be null: the executor keeps its own) holds the launch's totals when several
  // executors run one launch.
  Executor(const Program& prog, GlobalMemory& mem, const LaunchInfo& launch, WarpTable& warps,
           CtaTable& ctas, ExecShared* shared = nullptr);

  // Executes the instruction at the warp's PC for its active threads. With `defer` set, a
  // memory instruction only generates its access into *defer (StepResult::kMemory) and the
  // caller performs it later; otherwise it is performed at once.
  // With `info`, what the instruction did is written there (see StepInfo).
  StepResult step(Warp& w, MemAccess* defer = nullptr, StepInfo* info = nullptr);
  // The instruction step() would execute next (nullptr past the end of the function).
  const ExecInst* peek(const Warp& w) const;

  // Memory two-step interface (see file comment).
  void generate(Warp& w, const ExecInst& in, LaneMask exec, MemAccess& acc);
  void perform(Warp& w, MemAccess& acc);
  // Performs only the lanes in `subset` (a memory hierarchy performs a warp's access one
  // transaction, or one atomic lane, at a time); `count` is false for every part but the first
  // so per-instruction counters count the instruction once.
  // Returns the lanes of `subset` whose operation succeeded (see MemAccess::succeeded).
  LaneMask perform(Warp& w, MemAccess& acc, LaneMask subset, bool count);
  // perform(w, acc, subset, false) for an access whose lanes are all global, on the thread of
  // a memory partition, while other threads perform other partitions' lines (of accesses of
  // this executor too): it writes the lanes' registers, memory through `sh.mem`, the access's
  // done and succeeded bits (atomically), and nothing else of the launch: counters go to `c`
  // (add_counts), the warp's CAS record to `sh.cas` (record_warp_cas). The instruction's own
  // count is count_first(), once.
  LaneMask perform_shard(Warp& w, MemAccess& acc, LaneMask subset, PerformShard& sh,
                         PerformCounts& c) const;
  // What perform(..., count = true) counts once per instruction, for an access whose lanes are
  // all global.
  void count_first(const MemAccess& acc);
  // Adds a shard's counts (and clears them).
  void add_counts(PerformCounts& c);
  // A global compare-and-swap lane's outcome in the warp's record of its last one.
  static void record_warp_cas(Warp& w, Addr addr, Pc pc, bool swapped);
  // Replies of a lock instruction's access (simtsync_lock/unlock/try_lock) for `replied`; `all`
  // when they are the last: the warp's reconvergence unit updates its stack (seed 004 sec. 6.2,
  // 6.3); a try-lock's resolved threads get their result (sec. 9.2.2).
  void lock_reply(Warp& w, const MemAccess& acc, LaneMask replied, bool all);
  // In the timing model %clock/%clock64 read the core cycle of this counter (nullptr: the
  // functional step count).
  void set_clock(const Cycle* cycle) { clock_ = cycle; }
  void set_listener(IExecListener* l) { listener_ = l; }

  ExecStats& stats() { return stats_; }
  // Device printf output of this executor's threads, keyed for a deterministic merge.
  struct PrintfRecord {
    std::uint64_t when;  // core cycle (timing) or launch step count (functional)
    int warp;
    unsigned lane;
    std::string text;
  };
  const std::vector<PrintfRecord>& printf_records() const { return printf_; }
  // The printf output of several executors, ordered by time, warp, then lane.
  static std::string merged_printf(const std::vector<const Executor*>& executors);
  // Bumped whenever the machine makes visible progress: memory changes value, a warp
  // finishes, a barrier releases. The watchdog watches it. Launch totals: the folded ones plus
  // this executor's since the last fold (exact whenever the others have folded theirs).
  std::uint64_t progress() const { return shared_->progress + progress_; }
  std::uint64_t steps() const { return shared_->steps + steps_; }
  // This executor's steps and progress since the last fold.
  std::uint64_t local_steps() const { return steps_; }
  std::uint64_t local_progress() const { return progress_; }
  // Adds this executor's counts to the launch totals and restarts them.
  void fold() {
    shared_->steps += steps_;
    shared_->progress += progress_;
    steps_ = progress_ = 0;
  }
  std::uint64_t clock() const { return clock_ ? *clock_ : steps(); }
  const Program& program() const { return prog_; }
  const LaunchInfo& launch() const { return launch_; }
  // Every executor's lock-bit ledger of the launch, merged (for reports).
  LockBitLedger lock_ledger() const { return shared_->merged_locks(); }
  const GlobalMemory& memory() const { return mem_; }

 private:
  std::uint64_t value(const Warp& w, const Src& s, unsigned lane) const {
    if (s.kind == Src::Kind::kReg) return w.reg(s.reg)[lane] ^ (s.negate ? 1 : 0);
    if (s.kind == Src::Kind::kImm) return s.imm;
    return value_slow(w, s, lane);
  }
  std::uint64_t value_slow(const Warp& w, const Src& s, unsigned lane) const;
  std::uint64_t special(const Warp& w, const Src& s, unsigned lane) const;
  LaneMask guard_mask(const Warp& w, const ExecInst& in, LaneMask active) const;

  // Integer, floating-point, compare, move and convert instructions.
  void exec_alu(Warp& w, const ExecInst& in, LaneMask m);
  void exec_int(Warp& w, const ExecInst& in, LaneMask m);
  void exec_float(Warp& w, const ExecInst& in, LaneMask m);
  void exec_cvt(Warp& w, const ExecInst& in, LaneMask m);
  void exec_compare(Warp& w, const ExecInst& in, LaneMask m);
  void exec_move(Warp& w, const ExecInst& in, LaneMask m);
  // False: the unit holds the threads at this warp-synchronizing instruction (see warp_sync).
  bool exec_warp_op(Warp& w, const ExecInst& in, LaneMask active, LaneMask m);
  // Asks the unit whether the active threads may run the warp-synchronizing instruction `in`
  // now (IReconvergence::warp_sync with its member mask); when held, the step is not counted
  // as an executed instruction.
  bool warp_sync(Warp& w, const ExecInst& in, LaneMask active, LaneMask m);
  StepResult exec_barrier(Warp& w, const ExecInst& in, LaneMask m, StepInfo* info);
  StepResult execute(Warp& w, MemAccess* defer, StepInfo* info);  // step() without the below
  // The warp (whose last split reached a barrier while others could still run) counts as
  // arrived at barrier `id` of its CTA.
  void arrive_at_barrier(Warp& w, unsigned id, StepInfo* info);
  void exec_call(Warp& w, const ExecInst& in, LaneMask m);
  // vprintf and __assertfail (HostCall).
  void exec_host_call(Warp& w, const ExecInst& in, LaneMask m);
  std::string device_string(Warp& w, unsigned lane, const ExecInst& in, Addr generic);
  void exec_ret(Warp& w, LaneMask m);
  void finish_lanes(Warp& w, LaneMask m);
  void release_barriers(Cta& c);
  void perform_lock_bit(Warp& w, MemAccess& acc);
  void generate_lock(Warp& w, const ExecInst& in, LaneMask exec, MemAccess& acc);
  // A lock instruction at issue: tells the unit (it waits for the replies).
  void send_lock(Warp& w, const ExecInst& in, LaneMask m);
  // The shared-memory offset of a lock-bit intrinsic's generic address `p` (faults outside the
  // shared window).
  Addr lock_bit_word(Warp& w, unsigned lane, const ExecInst& in, Addr p);

  // Per-lane access helpers used by perform().
  std::uint8_t* lane_ptr(Warp& w, unsigned lane, std::uint8_t space, Addr a, unsigned bytes,
                         bool write, const ExecInst& in);
  [[noreturn]] void fault(const Warp& w, unsigned lane, const ExecInst& in,
                          const std::string& what) const;

  const Program& prog_;
  GlobalMemory& mem_;
  // Global reads go through this private view (perform() runs concurrently on the SMs of a
  // parallel SM phase for kernel-parameter loads); writes, always serial, through mem_.
  GlobalMemory::Reader rd_;
  LaunchInfo launch_;
  WarpTable& warps_;
  CtaTable& ctas_;
  ExecStats stats_;
  std::vector<std::uint64_t> unit_counters_;  // a finished warp's unit counters (collect)
  std::vector<PrintfRecord> printf_;
  ExecShared own_shared_;
  ExecShared* shared_;
  std::uint64_t steps_ = 0;     // since the last fold
  std::uint64_t progress_ = 0;  // since the last fold
  LockBitLedger locks_;
  IExecListener* listener_ = nullptr;
  bool count_ = true;  // perform(): count the instruction in stats_
  const Cycle* clock_ = nullptr;
  MemAccess scratch_;
};

}  // namespace simtsync::func
