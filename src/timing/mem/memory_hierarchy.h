// The memory hierarchy behind the SMs' memory port: per SM a coalescer feeding the L1 data
// cache and the constant cache one transaction per core cycle; a request crossbar to the
// L2 slices (each with its atomic unit; a memory partition's slices share its DRAM channel) and a
// reply crossbar back. The core,
// interconnect, L2 and DRAM clocks tick at their own frequencies (clock_domains.h).
//
// A warp's memory instruction is one MemRequest; it completes (and returns to its SM) when the
// last of its packets does. Functional effects happen per packet where the model serializes
// them: L1 hits when they hit, L2 loads and stores at the slice, atomics lane by lane at the
// atomic unit (see docs/memory-model.md).
#pragma once

#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "timing/mem/bit_mask.h"
#include "timing/mem/clock_domains.h"
#include "timing/mem/interconnect.h"
#include "timing/mem/l1_cache.h"
#include "timing/mem/mem_request.h"
#include "timing/mem/memory_partition.h"

namespace simtsync::mem {

class IAtomicObserver;

struct HierarchyStats {
  CacheStats l1, const_cache, l2;
  // The memory-side units' declared counters (i_mem_unit.h), summed over slices by declaration;
  // one entry per unit placed, in mem_units.def's order.
  struct Unit {
    std::string name;
    std::vector<std::uint64_t> values;
  };
  std::vector<Unit> units;
  DramStats dram;
  IcntStats icnt_request, icnt_reply;
  std::uint64_t requests[3] = {};  // warp requests: load, store, atomic
  std::uint64_t transactions = 0;  // coalesced transactions (packets)
  std::uint64_t atomic_lane_ops = 0;
  std::uint64_t refused = 0;                // try_send refusals (the SM's port was busy)
  std::uint64_t coalescer_busy_cycles = 0;  // a request waited to enter L1 behind another
  // Packet round trip (core cycles, coalescer to completion) by where it was served.
  std::uint64_t latency_sum[3] = {}, transactions_served[3] = {};  // L1, L2, DRAM
  std::uint64_t clock_cycles[4] = {};                              // core, interconnect, L2, DRAM
  std::uint64_t partitions = 0;                                    // DRAM channels
  std::uint64_t l2_slices = 0;  // crossbar ports on the memory side
};

inline constexpr const char* kReqKindNames[] = {"loads", "stores", "atomics"};
inline constexpr const char* kLevelNames[] = {"l1", "l2", "dram"};
inline constexpr const char* kClockNames[] = {"core", "icnt", "l2", "dram"};
// The hierarchy's own counters; the per-component structs above have their own tables.
inline constexpr StatField<HierarchyStats> kHierarchyStatFields[] = {
    SIMTSYNC_STAT_ARRAY_SHOWN(HierarchyStats, requests, kReqKindNames, "warp requests by kind"),
    SIMTSYNC_STAT_SHOWN(HierarchyStats, transactions, "coalesced transactions"),
    SIMTSYNC_STAT(HierarchyStats, atomic_lane_ops, "lane operations of atomics"),
    SIMTSYNC_STAT_SHOWN(HierarchyStats, refused, "try_send refusals (the SM's port was busy)"),
    SIMTSYNC_STAT(HierarchyStats, coalescer_busy_cycles,
                  "a request waited to enter L1 behind another"),
    SIMTSYNC_STAT_ARRAY(HierarchyStats, latency_sum, kLevelNames,
                        "transaction round trips by serving level, core cycles summed"),
    SIMTSYNC_STAT_ARRAY(HierarchyStats, transactions_served, kLevelNames,
                        "transactions by serving level"),
    SIMTSYNC_STAT_ARRAY(HierarchyStats, clock_cycles, kClockNames, "cycles of each clock domain"),
    SIMTSYNC_STAT_MAX(HierarchyStats, partitions, "memory partitions (DRAM channels)"),
    SIMTSYNC_STAT_MAX(HierarchyStats, l2_slices,
                      "L2 slices (each with a crossbar port and an atomic unit)"),
};
using HierarchyDerived = StatDerived<HierarchyStats>;
inline constexpr HierarchyDerived kHierarchyDerived[] = {
    {"avg_latency.l1_hit", "average round trip of an L1 hit, core cycles",
     [](const HierarchyStats& h) { return stat_ratio(h.latency_sum[0], h.transactions_served[0]); },
     StatShow::kFixed1},
    {"avg_latency.l2_hit", "average round trip of a transaction served by L2, core cycles",
     [](const HierarchyStats& h) { return stat_ratio(h.latency_sum[1], h.transactions_served[1]); },
     StatShow::kFixed1},
    {"avg_latency.dram", "average round trip of a transaction served by DRAM, core cycles",
     [](const HierarchyStats& h) { return stat_ratio(h.latency_sum[2], h.transactions_served[2]); },
     StatShow::kFixed1},
};

// Adds the counters of `b` to `a` (statistics over several launches).
void accumulate(HierarchyStats& a, const HierarchyStats& b);
// Counter `stat` of unit `unit` (0 when the unit was not placed).
std::uint64_t unit_stat(const HierarchyStats& h, const std::string& unit, const std::string& stat);

// The parallel memory phase (issue 48): what the hierarchy needs from the simulator to tick its
// memory partitions on several host threads (docs/parallel-sm-phase.md).
class IMemPhase {
 public:
  virtual ~IMemPhase() = default;
  virtual unsigned threads() const = 0;
  // Calls f(t) once for every t in [0, threads()), each on its own thread, and returns when all
  // are done. f does not throw.
  virtual void run(const std::function<void(unsigned)>& f) = 0;
  // On partition `part`'s thread: the hierarchy's perform function for `lanes` of `r`, whose
  // lanes are all global and lie in `part`'s lines, without the instruction's own count
  // (count_first) and touching nothing another partition's thread touches; what it cannot do
  // so it records, tagged `when` (the L2 cycle), for merge().
  virtual std::uint64_t perform(unsigned part, std::uint64_t when, const MemRequest& r,
                                std::uint64_t lanes) = 0;
  // After the phase, serially: `r` was performed for the first time (its instruction counts).
  virtual void count_first(const MemRequest& r) = 0;
  // After the phase, serially: applies what perform() recorded, in the order of a serial tick
  // (L2 cycle, then partition, then the partition's own order).
  virtual void merge() = 0;
};

class MemoryHierarchy final : public IMemPort, public IPerform, public IAtomicLanes {
 public:
  // `perform` applies the functional effect of `lanes` of a request; `first` is true the first
  // time the request is performed (so per-instruction counters count it once). It returns the
  // lanes whose operation succeeded (see func::MemAccess::succeeded).
  using PerformFn =
      std::function<std::uint64_t(const MemRequest&, std::uint64_t lanes, bool first)>;
  MemoryHierarchy(const HierarchyParams& p, PerformFn perform);
  ~MemoryHierarchy() override;

  // The L2 slices' tags, to start the next launch with (mem.l2.keep_across_launches), and
  // their restoration: false when the state came from another L2 geometry.
  std::vector<TagArray::State> l2_state() const;
  bool restore_l2_state(const std::vector<TagArray::State>& s);

  bool try_send(const MemRequest& r, Cycle now) override;
  void set_deferred(bool on) override { deferred_ = on; }
  void commit() override;
  bool pop_response(int sm, Cycle now, MemRequest& out) override;
  bool any_response() const override { return responses_waiting_ != 0; }
  int next_responder(int sm) const override;
  void tick(Cycle now) override;
  bool busy() const override { return outstanding_ != 0; }
  Cycle retry_at(int sm, Cycle now) const override {
    // The coalescer moves at most one packet per cycle into L1.
    const SmSide& s = sms_[static_cast<size_t>(sm)];
    return s.pending.empty() ? kNever : now + (s.pending.size() - s.next);
  }
  Cycle next_event() const override;
  HierarchyStats stats() const;
  // A unit intercepts the lane operations of lock instructions (lock queuing is on).
  bool lock_queuing() const { return lock_queuing_; }
  // SM `sm`'s criticality board (its issue policy writes it): its L1 runs CACP when mem.l1.cacp
  // is on, or auto and the board asks for it. Call before the first cycle.
  void set_critical_warps(int sm, const CriticalWarps* board);
  // The L1 of SM `sm` (tests).
  const L1Cache& l1(int sm) const { return *sms_[static_cast<size_t>(sm)].l1; }
  // Ticks the L2 slices and DRAM channels of each cycle on `phase`'s threads, one memory
  // partition (a channel and its slices) per job, when enough slices are busy and the
  // partitions are independent (see tick_partitions); null: always serially, as before.
  void set_phase(IMemPhase* phase) { phase_ = phase; }
  unsigned partitions() const { return map_.partitions(); }
  // Cycles whose L2 side ran on the phase's threads (host information: 0 with one thread).
  std::uint64_t parallel_phases() const { return parallel_phases_; }
  // The timeline trace (src/trace/): `o` watches every slice's atomic unit; while it hears one,
  // the core cycle being simulated and the SM warp slot of a packet's request.
  void observe_atomics(IAtomicObserver* o);
  Cycle core_now() const { return last_now_; }
  int warp_slot_of(const Packet& p) const;

 private:
  struct Req {
    MemRequest r;
    unsigned remaining = 0;
    bool performed = false;
    // Its functional effects stay inside the memory partitions of its packets' lines (see
    // partition_local()).
    bool local = true;
    unsigned parked = 0;    // lanes waiting in lock queues (each comes back as a grant packet)
    bool released = false;  // only parked lanes are left: the SM's request slot was freed
  };
  struct Sent {
    MemRequest r;
    PacketKind kind;
  };
  struct SmSide {
    std::vector<Packet> pending;  // packets of the request entering L1, in order
    std::size_t next = 0;
    std::unique_ptr<L1Cache> l1, cc;
    unsigned in_flight = 0;
    unsigned parked = 0;    // requests whose only lanes left wait in lock queues
    bool cc_first = false;  // the constant/instruction cache's misses inject first this cycle
    std::deque<MemRequest> responses;
    std::vector<Packet> done;  // scratch
    std::vector<Sent> sent;    // accepted, not yet committed (a deferred phase)
    std::uint64_t refused = 0;
    // Asleep (sm_asleep_): its tick would change nothing until a reply reaches it, its
    // request-network input has room or it sends again (tick_core). Since the tick numbered
    // sleep_from; its entering packet refused at once by this cache every tick (null: none).
    std::uint64_t sleep_from = 0;
    L1Cache* sleep_refusing = nullptr;
  };

  void perform(const Packet& p) override;
  Addr lane_address(const Packet& p, unsigned lane) const override;
  bool perform_lane(const Packet& p, unsigned lane) override;
  int lock_kind(const Packet& p) const override;
  void parked(const Packet& p) override;
  void dropped(const Packet& p) override;
  void complete(const Packet& p, Cycle now);
  // Builds the memory-side units the config selects (i_mem_unit.h) and the slices around them.
  void place_units();
  // Enters the SM's accepted requests into the shared request table and counters.
  void commit_sm(SmSide& s);
  unsigned request_bytes(const Packet& p) const;
  unsigned reply_bytes(const Packet& p) const;
  void tick_core(Cycle now);
  void tick_sm(std::size_t i, Cycle now);  // SM i's side of tick_core
  void wake_sm(std::size_t i);             // ends SM i's sleep (tick_sm)
  void tick_icnt(std::uint64_t now);
  void tick_l2(std::uint64_t m);    // one L2 cycle of every slice
  void tick_dram(std::uint64_t d);  // one DRAM cycle of every channel
  // The parallel memory phase: true when the L2 and DRAM ticks up to `t_fs` may run per
  // partition on the phase's threads.
  bool parallel_ready(std::uint64_t t_fs) const;
  // The L2 and DRAM cycles up to `t_fs`, each partition's on its thread, then the merge.
  void tick_partitions(std::uint64_t t_fs);
  // Partition c's share of tick_partitions (its slices' L2 cycles, then its channel's).
  void tick_partition(unsigned c);
  // Whether a request's functional effects touch only the lines of its packets (global lanes,
  // each inside one line): then partitions perform it independently.
  bool partition_local(const MemRequest& r) const;
  unsigned partition_of(const Packet& p) const {
    return map_.partition_of_slice(static_cast<unsigned>(p.slice));
  }
  // Nothing in flight anywhere (no request, packet or write-back): the clocks may skip.
  bool quiet() const;
  // The clock edges up to `t_fs` had nothing to do (next_event()): time passes without ticks.
  void pass_idle(std::uint64_t t_fs);
  Cycle core_cycle_of(const ClockDomain& d, std::uint64_t n) const;

  HierarchyParams p_;
  PerformFn perform_;
  AddressMap map_;
  std::vector<SmSide> sms_;
  std::vector<std::unique_ptr<DramChannel>> channels_;   // one per memory partition
  std::vector<std::unique_ptr<MemoryPartition>> parts_;  // one per L2 slice
  // Only busy components are visited (issue 48), in index order as a scan of all would: SMs
  // that may have something in the hierarchy (in_flight or parked, cleared lazily), slices
  // that may be busy() and the L2 cycle each must tick next (MemoryPartition::next_tick; a
  // packet pushed in, a DRAM fill or a record read's answer sets it to 0). Partitions with
  // shared units fall back to ticking every busy slice every cycle (one slice's tick can give
  // another work).
  BitMask sm_busy_, part_busy_;
  // SMs whose side sleeps (SmSide::sleep_from), and those of them with misses waiting for room
  // at their request-network input; core ticks so far.
  BitMask sm_asleep_, sm_asleep_inject_;
  std::uint64_t core_ticks_ = 0;
  BitMask responders_;  // SMs whose response queue is not empty
  std::vector<std::uint64_t> part_next_;
  bool event_driven_ = true;
  // Memory-side units shared by a partition's slices (MemPlacement::kPartition), by row.
  std::vector<MemoryPartition::Unit> shared_units_;
  std::vector<std::unique_ptr<IMemUnit>> shared_owned_;
  std::vector<std::string> unit_names_;  // by row of mem_units.def
  bool lock_queuing_ = false;
  Crossbar req_net_, rep_net_;
  ClockDomain core_clk_, icnt_clk_, l2_clk_, dram_clk_;
  std::vector<Req> reqs_;
  std::vector<std::uint32_t> free_reqs_;
  std::uint64_t outstanding_ = 0;        // warp requests not yet returned to their SM
  // quiet() held with nothing sent since: only a request (outstanding_) gives the hierarchy
  // work again, so the scan of every partition and channel is not repeated each cycle (3% of
  // a compute-bound run, NW at paper size: issue 48).
  mutable bool quiet_known_ = false;
  std::uint64_t responses_waiting_ = 0;  // in the SMs' response queues, all SMs
  bool deferred_ = false;
  Cycle last_now_ = 0;
  HierarchyStats st_;

  // The parallel memory phase. While it runs (in_phase_), perform, perform_lane, parked and
  // dropped only record into their partition's log what touches state other partitions share
  // (the request table, the SMs' response queues, the counters); after it the logs are applied
  // in the order a serial tick gives: L2 cycle, partition, the partition's own order.
  IMemPhase* phase_ = nullptr;
  bool in_phase_ = false;
  bool observing_ = false;           // the timeline trace watches the atomic units: serial
  std::uint64_t nonlocal_live_ = 0;  // live requests that are not partition_local()
  std::uint64_t parallel_phases_ = 0;
  struct PartEvent {
    std::uint64_t when;  // L2 cycle
    bool dropped;        // dropped(p); else parked(p)
    Packet p;
  };
  struct alignas(64) PartLog {
    std::uint64_t when = 0;            // the L2 cycle the partition is ticking
    std::vector<PartEvent> events;     // parked / dropped, in order
    std::vector<std::uint32_t> first;  // requests it performed that had not been before
    std::exception_ptr error;          // what its tick threw (a kernel fault)
    std::uint64_t error_when = 0;
  };
  std::vector<PartLog> logs_;     // one per memory partition
  std::vector<char> slice_busy_;  // part_busy_ during the phase, a byte per slice
  std::vector<std::uint64_t> l2_cycles_, dram_cycles_;  // this phase's clock edges
  std::vector<std::size_t> merge_at_;                   // scratch of for_each_in_tick_order
};

}  // namespace simtsync::mem
