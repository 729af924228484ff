// The atomic unit of an L2 slice: executes global atomics at L2, one lane operation after
// another in arrival order. It starts at most `ops_per_cycle` operations per L2 cycle, and an
// operation on an address must wait `same_address_interval` cycles after the previous one on
// that address (the read-modify-write of one location cannot overlap itself), so contended
// lock words serialize here. Each operation takes its functional effect when it executes; the
// packet's reply leaves `latency` cycles after its last operation.
#pragma once

#include <cstdint>
#include <iterator>
#include <unordered_map>

#include "common/stat_table.h"
#include "timing/mem/mem_params.h"
#include "timing/mem/packet.h"

namespace simtsync::mem {

// What the unit asks of the rest of the simulator for each lane operation.
class IAtomicLanes {
 public:
  virtual ~IAtomicLanes() = default;
  virtual Addr lane_address(const Packet& p, unsigned lane) const = 0;
  // Applies one lane's operation; returns true when it succeeded (a compare-and-swap that
  // swapped; every other operation succeeds). The outcome also lands in the request's access.
  virtual bool perform_lane(const Packet& p, unsigned lane) = 0;
};

struct AtomicStats {
  std::uint64_t packets = 0, ops = 0;
  std::uint64_t queue_wait_cycles = 0;     // L2 cycles packets waited in the unit's queue
  std::uint64_t address_stall_cycles = 0;  // cycles the head waited for its address
  std::uint64_t queue_refusals = 0;        // the queue was full
  std::uint64_t max_queue = 0;
};

inline constexpr StatField<AtomicStats> kAtomicStatFields[] = {
    SIMTSYNC_STAT(AtomicStats, packets, "atomic packets executed"),
    SIMTSYNC_STAT(AtomicStats, ops, "lane operations executed"),
    SIMTSYNC_STAT(AtomicStats, queue_wait_cycles, "L2 cycles packets waited in the unit's queue"),
    SIMTSYNC_STAT(AtomicStats, address_stall_cycles, "cycles the head waited for its address"),
    SIMTSYNC_STAT(AtomicStats, queue_refusals, "packets refused: the queue was full"),
    SIMTSYNC_STAT_MAX(AtomicStats, max_queue, "longest queue seen"),
};

class AtomicUnit {
 public:
  AtomicUnit(const AtomicParams& p, IAtomicLanes& lanes);

  bool can_accept() const { return !queue_.full(); }
  bool push(const Packet& p, std::uint64_t now);
  void tick(std::uint64_t now);  // one L2 cycle
  bool has_reply(std::uint64_t now) const { return out_.ready(now); }
  Packet& front_reply() { return out_.front(); }
  void pop_reply() { out_.pop(); }
  bool busy() const { return !queue_.empty() || !out_.empty(); }
  const AtomicStats& stats() const { return stats_; }

 private:
  struct Item {
    Packet p;
    std::uint64_t arrived;
    std::uint64_t remaining;  // lanes not yet executed
  };
  AtomicParams p_;
  IAtomicLanes& lanes_;
  BoundedQueue<Item> queue_;
  DelayPipe<Packet> out_;
  std::unordered_map<Addr, std::uint64_t> addr_free_;  // address -> cycle it is free again
  bool head_started_ = false;
  std::uint64_t last_prune_ = 0;
  AtomicStats stats_;
};

}  // namespace simtsync::mem
