// Split and reconvergence tables: the Multi-Path model (ElTantawy et al., HPCA 2014, as seed 003
// sec. IV-B summarizes it) and AWARE, which extends it (seed 003 sec. IV-B, Fig. 6 and 7).
//
// The warp split table (ST) holds the splits that may run: PC, reconvergence PC, active mask and
// the reconvergence-table entry they will meet at. The reconvergence table (RT) holds where
// diverged threads meet again: PC, the outer reconvergence PC, the threads expected and the
// pending mask of those not yet arrived. A divergent branch replaces its split by one RT entry
// and two ST entries; a split that reaches its reconvergence PC leaves the ST and clears its
// threads from the pending mask; an RT entry with no pending thread becomes a split again at its
// PC (the reconverged entry). A branch whose reconvergence point is the one its split already
// waits for adds no RT entry (a loop's iterations).
//
// One split runs at a time, chosen in FIFO order of ST insertion and run greedily until it
// executes a branch, reaches a reconvergence point or a barrier: the branch's outcomes (the
// not-taken path first) go to the back of the FIFO, so paths are visited breadth-first.
// Options (all keys of the unit):
//  - delayed: reconverge at BranchOutcome::safe_rpc (seed 003 Algorithm 2 on the loops
//    Algorithm 1 flags, branches around them recomputed; see ExecInst::safe_reconv_pc);
//  - timeout: threads that wait at a reconvergence point longer than this many cycles are split
//    off as a new ST entry (Fig. 6b); 0: never;
//  - insert_latency: a new ST entry is eligible this many cycles after insertion;
//  - lookup_latency: reading an ST entry through the FIFO's index when the FIFO output changes,
//    and the RT entry a split meets at (its pending-mask update before a reconverged entry is
//    inserted), each take this many cycles;
//  - st_entries / rt_entries: physical table sizes; entries beyond them are spilled to and filled
//    from the warp's reserved area in global memory (12-byte ST and 16-byte RT requests), FIFO
//    replacement for the ST, LRU for the RT, with the one-entry spill-request, reconverged-entry
//    and pending-mask-update buffers of Fig. 7: a control instruction issues only when both
//    spill-request buffers are empty (a spill request holds its buffer until it leaves the SM),
//    no instruction issues while the reconverged-entry or pending-mask-update buffer is occupied
//    (see split_table.cc for what fills them).
// Barriers: a split that reaches one is marked blocked with its PC after the barrier and skipped
// at the FIFO output; the warp arrives when all its live threads are blocked.
// Calls: a call turns its split into an RT entry at the return PC; the callee's threads meet
// there when they return (threads in different calls never merge, so recursion levels stay
// apart).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "config/plugin.h"
#include "simt/i_reconvergence.h"

namespace simtsync::simt {

struct SplitTableOptions {
  std::string name = "multipath";
  bool delayed = false;
  Cycle timeout = 0;  // 0: off
  unsigned insert_latency = 0;
  unsigned lookup_latency = 0;
  unsigned st_entries = 0;  // 0: unbounded (no virtualization)
  unsigned rt_entries = 0;
};

class SplitTable : public IReconvergence, public TimedHooks {
 public:
  SplitTable(Pc start, LaneMask threads, const SplitTableOptions& o);

  bool barrier_complete() const override;
  Cycle next_event(Cycle now) const override;

  LaneMask call_mask() const override;
  std::vector<ReconvergenceEntry> entries() const override;
  std::string name() const override { return o_.name; }
  void collect(std::span<std::uint64_t> out) const override { put_counters(out, counters_); }
  std::string report_note() const override;

  // The counters, in the order declare_stats declares them (multipath and aware both do).
  // Occupancy is sampled once per executed instruction, in buckets of valid entries: 0, 1, 2,
  // 3-4, 5-8, 9-16, 17 and more.
  static constexpr unsigned kBuckets = 7;
  enum Stat : unsigned {
    kStatSplits,
    kStatReconverged,
    kStatFifoSwitches,
    kStatDelayed,
    kStatTimeouts,
    kStatStSpills,
    kStatStFills,
    kStatRtSpills,
    kStatRtFills,
    kStatTableBytes,
    kStatStOccupancy,                                // kBuckets counters
    kStatRtOccupancy = kStatStOccupancy + kBuckets,  // kBuckets counters
    kStatCount = kStatRtOccupancy + kBuckets
  };
  static unsigned bucket(std::size_t n) {
    return n <= 2 ? static_cast<unsigned>(n) : n <= 4 ? 3 : n <= 8 ? 4 : n <= 16 ? 5 : 6;
  }
  static void declare_stats(config::PluginDecl& d);

  // For tests: the table sizes (valid entries).
  std::size_t st_size() const;
  std::size_t rt_size() const;

 protected:
  void on_advance(Pc next_pc) override;
  void on_branch(const BranchOutcome& b) override;
  void on_call(Pc entry, Pc return_pc) override;
  bool on_ret() override;
  void on_exit(LaneMask lanes) override;
  LaneMask on_barrier_arrive(LaneMask arriving) override;
  void on_barrier_release() override;
  SplitState current_state() const override;
  void on_tick(Cycle now) override;
  bool on_pop_request(UnitRequest& out) override;
  void on_request_sent(std::uint64_t tag) override;
  void on_memory_reply(const MemoryReply& r) override;

 private:
  static constexpr int kNone = -1;
  enum class Where : std::uint8_t { kPhysical, kVirtual, kTransient };
  struct Split {
    bool valid = false;
    Pc pc = 0;
    Pc rpc = 0;
    LaneMask mask = 0;
    int rt = kNone;        // the RT entry it meets at (kNone: the warp's outermost level)
    bool blocked = false;  // at a barrier, pc already after it
    Cycle eligible = 0;    // insertion latency
    Where where = Where::kPhysical;
    bool pinned = false;         // filled, not yet run: not a spill victim
    std::uint64_t inserted = 0;  // insertion number (identifies the entry across index reuse)
  };
  struct Rt {
    bool valid = false;
    Pc pc = 0;          // the reconvergence PC
    Pc rpc = 0;         // the reconvergence PC of the split that diverged (outer level)
    LaneMask mask = 0;  // threads that reconverge here
    LaneMask pending = 0;
    int parent = kNone;
    bool call = false;        // a call: threads return here (pc is the return PC)
    LaneMask returned = 0;    // a call: threads that executed its ret (bookkeeping for ret())
    Cycle waiting_since = 0;  // first arrival since the last reconvergence or timeout
    bool waiting = false;
    Where where = Where::kPhysical;
    std::uint64_t used = 0;  // LRU stamp
  };

  // A free slot of `table` (its free list first, else a new one at the end).
  template <class T>
  static int take_slot(std::vector<T>& table, std::vector<int>& free);
  int new_split(Pc pc, Pc rpc, LaneMask mask, int rt);
  int new_rt();
  void push_fifo(int s) { fifo_.push_back(s); }
  void remove_split(int s);
  // A split at its reconvergence PC (or at a function's exit) meets its RT entry.
  void arrive(int s);
  void reconverge(int r);
  // A reconverged or timed-out split enters the ST, or the reconverged-entry buffer when the ST
  // is full and its spill-request buffer occupied.
  void insert_from_rt(Pc pc, Pc rpc, LaneMask mask, int parent);
  // Removes reached splits, reconverges entries with no pending thread, picks the next split.
  void settle();
  void select();
  // Some split is blocked at a barrier; some thread can still run (a split that is not blocked,
  // one in the reconverged-entry buffer or an arrival in the pending-mask-update buffer).
  bool any_blocked() const;
  bool any_runnable() const;
  void touch_rt(int r);
  bool rt_usable(int r);  // resident (fills it otherwise: not usable yet)
  // Physical entries of `table` other than `keep`; whether an insertion (other than a
  // branch's, which the issue restriction gives room) can take a slot now: one is free, or the
  // victim's spill request can enter its empty buffer.
  template <class T>
  static unsigned resident(const std::vector<T>& table, int keep);
  bool st_room(int keep) const;
  bool rt_room(int keep) const;
  void make_room_st(int keep);
  void make_room_rt(int keep);
  // Fills whose reply came back while their table had no room: inserted when it has.
  void complete_fills();
  void sample();
  // The running split is eligible and neither the reconverged-entry nor the pending-mask-update
  // buffer is occupied (SplitState::ready); both spill-request buffers are empty
  // (SplitState::branch_ready).
  bool can_issue() const;
  bool spills_clear() const { return st_spills_out_ == 0 && rt_spills_out_ == 0; }

  SplitTableOptions o_;
  std::vector<Split> st_;
  std::vector<Rt> rt_;
  std::vector<int> free_st_, free_rt_;
  std::deque<int> fifo_;
  int cur_ = kNone;
  LaneMask live_ = 0;
  Cycle now_ = 0;
  std::uint64_t order_ = 0;
  // Virtualization (Fig. 7): the one-entry buffers and the requests waiting to leave.
  std::deque<UnitRequest> out_;
  int rt_fill_wait_ = kNone;    // the pending-mask-update buffer waits for this RT entry's fill
  LaneMask deferred_mask_ = 0;  // ... with the arriving threads
  struct Held {
    bool valid = false;
    Pc pc = 0, rpc = 0;
    LaneMask mask = 0;
    int parent = kNone;
  };
  Held held_;  // the reconverged-entry buffer: a split out of the RT waiting for ST room
  unsigned st_spills_out_ = 0;  // spill-request buffers: spills not yet left the SM
  unsigned rt_spills_out_ = 0;
  std::vector<int> st_filled_, rt_filled_;  // fills back, waiting for room
  int last_ = kNone;            // the split that ran last
  std::uint64_t last_id_ = 0;   // ... by insertion number (indices are reused)
  std::array<std::uint64_t, kStatCount> counters_{};
};

}  // namespace simtsync::simt
