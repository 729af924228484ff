// One DRAM channel: banks with row buffers (open-page policy), the command timing of
// tCL/tWL/tRCD/tRP/tRAS/tRC/tRRD/tCCD, a shared data bus moving `bus_bytes` per beat at
// `data_rate` beats per clock in bursts of `burst_length` beats, and a request queue scheduled
// FR-FCFS (the oldest row hit whose bank is ready first, else the oldest request whose bank is
// ready) or FCFS; a read's data returns `latency` cycles (the controller and PHY pipeline)
// after its last beat. Times are DRAM clock cycles. When a request is chosen its command sequence
// (precharge, activate, column) is placed at the earliest times the constraints allow.
#pragma once

#include <cstdint>
#include <deque>
#include <iterator>
#include <vector>

#include "common/stat_table.h"
#include "timing/mem/mem_params.h"
#include "timing/mem/packet.h"

namespace simtsync::mem {

struct DramStats {
  std::uint64_t reads = 0, writes = 0;
  std::uint64_t row_hits = 0, row_misses = 0;  // column accesses to an open row / activations
  std::uint64_t bus_busy_cycles = 0;           // DRAM cycles the data bus moved data
  std::uint64_t cycles = 0;                    // DRAM cycles this channel existed for
  std::uint64_t queue_refusals = 0;
  std::uint64_t latency_sum = 0;                  // DRAM cycles from arrival to last beat (reads)
  std::uint64_t precharges = 0;                   // rows closed to open another (energy model)
  std::uint64_t read_bytes = 0, write_bytes = 0;  // moved on the data bus, whole bursts
};

inline constexpr StatField<DramStats> kDramStatFields[] = {
    SIMTSYNC_STAT(DramStats, reads, "read bursts"),
    SIMTSYNC_STAT(DramStats, writes, "write bursts"),
    SIMTSYNC_STAT(DramStats, row_hits, "column accesses to an open row"),
    SIMTSYNC_STAT(DramStats, row_misses, "row activations"),
    SIMTSYNC_STAT(DramStats, bus_busy_cycles, "DRAM cycles the data bus moved data"),
    SIMTSYNC_STAT(DramStats, cycles, "DRAM cycles of all channels"),
    SIMTSYNC_STAT(DramStats, queue_refusals, "requests refused: the scheduler queue was full"),
    SIMTSYNC_STAT(DramStats, latency_sum, "DRAM cycles from arrival to last beat, reads summed"),
    SIMTSYNC_STAT(DramStats, precharges, "row precharges (an open row closed for another)"),
    SIMTSYNC_STAT(DramStats, read_bytes, "bytes read on the data bus (whole bursts)"),
    SIMTSYNC_STAT(DramStats, write_bytes, "bytes written on the data bus (whole bursts)"),
};
inline constexpr StatDerived<DramStats> kDramDerived[] = {
    {"row_hit_rate", "column accesses to an open row",
     [](const DramStats& d) { return stat_ratio(d.row_hits, d.row_hits + d.row_misses); },
     StatShow::kPercent},
    {"bandwidth_utilization", "data-bus busy cycles / channel cycles",
     [](const DramStats& d) { return stat_ratio(d.bus_busy_cycles, d.cycles); },
     StatShow::kPercent},
    {"avg_read_latency", "DRAM cycles from a read's arrival to its last beat, on average",
     [](const DramStats& d) { return stat_ratio(d.latency_sum, d.reads); }},
};

class DramChannel {
 public:
  // `slices`: the L2 slices sharing the channel; a read returns to slice `p.slice % slices`.
  explicit DramChannel(const DramParams& p, unsigned slices = 1);

  // Where `local` (the address inside this channel) lives.
  unsigned bank_of(Addr local) const;
  std::uint64_t row_of(Addr local) const { return local / (Addr{p_.row_bytes} * p_.banks); }

  bool can_accept() const { return queue_.size() < p_.queue; }
  // Queues a read (the fill of `p`) or a write-back of `bytes` at channel address `local`.
  bool push(const Packet& p, Addr local, unsigned bytes, bool write);
  // One DRAM cycle; true when a read's data came back (has_return).
  bool tick(std::uint64_t now);
  // Reads whose data has fully arrived (by the DRAM clock), in completion order, per L2 slice
  // (`slice`: its index within the channel); the slice takes them on its own clock.
  bool has_return(unsigned slice = 0) const { return !returned_[slice].empty(); }
  Packet& front_return(unsigned slice = 0) { return returned_[slice].front(); }
  void pop_return(unsigned slice = 0) { returned_[slice].pop_front(); }
  bool busy() const;
  // The earliest DRAM cycle from `next` on at which tick() can change anything: a read's data
  // comes back, or a queued request's bank can take a command (~0: none).
  std::uint64_t next_tick(std::uint64_t next) const;
  // `n` cycles up to `now` passed in which tick() had nothing to do (see next_tick()).
  void skip_to(std::uint64_t now, std::uint64_t n) {
    now_ = now;
    stats_.cycles += n;
  }
  DramStats& stats() { return stats_; }
  const DramStats& stats() const { return stats_; }

 private:
  struct Req {
    Packet p;
    unsigned bank = 0;
    std::uint64_t row = 0;
    unsigned bytes = 0;
    bool write = false;
    std::uint64_t arrived = 0;
  };
  struct Bank {
    bool open = false;
    std::uint64_t row = 0;
    std::uint64_t act = 0;  // last activate
    bool activated = false;
    std::uint64_t next = 0;  // its last column command: no new command before
  };
  struct Done {
    std::uint64_t at;
    Packet p;
  };
  void schedule(std::uint64_t now);  // one command sequence, if a request can go
  void issue(std::size_t i, std::uint64_t now);

  DramParams p_;
  std::vector<Bank> banks_;
  std::deque<Req> queue_;
  std::deque<Done> done_;                     // reads whose data is still on the bus
  std::vector<std::deque<Packet>> returned_;  // per slice: reads complete, waiting for the L2
  std::uint64_t last_act_ = 0, last_col_ = 0, bus_free_ = 0;
  bool any_act_ = false;
  std::uint64_t now_ = 0;
  DramStats stats_;
};

}  // namespace simtsync::mem
