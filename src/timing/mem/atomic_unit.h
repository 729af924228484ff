// The atomic unit of an L2 slice: executes global atomics at L2, one lane operation after
// another in arrival order. It starts at most `ops_per_cycle` operations per L2 cycle, and an
// operation on an address must wait `same_address_interval` cycles after the previous one on
// that address (the read-modify-write of one location cannot overlap itself), so contended
// lock words serialize here. Each operation takes its functional effect when it executes; the
// packet's reply leaves `latency` cycles after its last operation.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <iterator>
#include <vector>

#include "common/stat_table.h"
#include "timing/mem/i_mem_unit.h"
#include "timing/mem/mem_params.h"
#include "timing/mem/packet.h"

namespace simtsync::mem {

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

// Watches the atomic units (the timeline trace, src/trace/): told when a unit's occupancy changes
// and when a lane of a lock instruction parks in its lock queue or is handed the lock. Set only by
// a trace: a unit without one tests one null pointer at each change, never per cycle.
class IAtomicObserver {
 public:
  virtual ~IAtomicObserver() = default;
  // `waiting`: packets in the unit's queue and hand-overs not yet executed; `replying`: executed
  // packets whose reply has not left the unit.
  virtual void atomic_occupancy(unsigned slice, std::size_t waiting, std::size_t replying) = 0;
  // Lane `lane` of `p` parked behind the holder of `addr` / was handed `addr` by an unlock.
  virtual void lock_parked(unsigned slice, Addr addr, const Packet& p, unsigned lane) = 0;
  virtual void lock_handed(unsigned slice, Addr addr, const Packet& next) = 0;
};

// The unit executing atomics of one L2 slice (memory-side unit `atomic`, mem_units.def). A slice's
// lock arbiter (the lock queue, when mem.lock_queue.mode is on) is consulted for the lane
// operations of lock and unlock instructions.
class AtomicUnit final : public IMemUnit {
 public:
  AtomicUnit(const AtomicParams& p, IAtomicLanes& lanes, ILockArbiter* arbiter = nullptr);

  unsigned intercepts() const override { return kInterceptAtomics; }
  void attach(ILockArbiter* arbiter) override { locks_ = arbiter; }
  bool can_accept() const override { return !queue_.full(); }
  bool push(const Packet& p, std::uint64_t now) override;
  void tick(std::uint64_t now) override;  // one L2 cycle
  bool has_reply(std::uint64_t now) const override {
    return out_.ready(now) || backoff_.ready(now);
  }
  Packet& front_reply(std::uint64_t now) override {
    return out_.ready(now) ? out_.front() : backoff_.front();
  }
  void pop_reply(std::uint64_t now) override {
    out_.ready(now) ? out_.pop() : backoff_.pop();
    note_occupancy();
  }
  bool busy() const override {
    return !queue_.empty() || !out_.empty() || !grants_.empty() || !backoff_.empty() ||
           !record_out_.empty();
  }
  std::uint64_t next_tick(std::uint64_t now) const override;
  std::uint64_t reply_at() const override {
    return std::min(out_.empty() ? ~std::uint64_t{0} : out_.next_ready(),
                    backoff_.empty() ? ~std::uint64_t{0} : backoff_.next_ready());
  }
  // Bounded lock queuing: the record reads and writes the unit makes, for the L2 slice, and the
  // slice's answer to a hand-over's record read (the hand-over may go).
  bool has_access() const override { return !record_out_.empty(); }
  const Packet& front_access() const override { return record_out_.front(); }
  void pop_access() override { record_out_.pop_front(); }
  void access_done(const Packet& p, std::uint64_t now) override;
  void collect(std::span<std::uint64_t> out) const override {
    collect_stats<AtomicStats>(stats_, kAtomicStatFields, out);
  }
  const AtomicStats& stats() const { return stats_; }
  void observe(IAtomicObserver* o, unsigned slice) {
    obs_ = o;
    slice_ = slice;
  }

 private:
  void note_occupancy() {
    if (obs_)
      obs_->atomic_occupancy(slice_, queue_.size() + grants_.size(), out_.size() + backoff_.size());
  }
  struct Item {
    Packet p;
    std::uint64_t arrived;
    std::uint64_t remaining;   // lanes not yet executed
    std::uint64_t parked = 0;  // lanes parked in a lock queue (they reply on their own)
    bool turned_away = false;  // a lane found its lock queue full: the reply backs off
    std::uint32_t token = 0;   // a hand-over waiting for its record read
  };
  void send_records();
  // One lane operation of `it` (false: it must wait; nothing changed).
  bool execute_lane(Item& it, unsigned lane, std::uint64_t now);
  AtomicParams p_;
  IAtomicLanes& lanes_;
  BoundedQueue<Item> queue_;
  DelayPipe<Packet> out_;
  ILockArbiter* locks_ = nullptr;
  std::deque<Item> grants_;    // hand-overs, ahead of new requests (arrived: when they may go)
  DelayPipe<Packet> backoff_;  // replies of turned-away lock requests
  std::vector<RecordOp> ops_;  // scratch: record accesses of one lane operation
  std::deque<Packet> record_out_;
  std::uint32_t next_token_ = 0;
  // Addresses operated on in the last same_address_interval cycles and the cycle each is free
  // again. Only those can hold an operation back, and there are at most ops_per_cycle x
  // interval of them, so a short list scanned in place beats a hash map (issue 48); entries
  // past their cycle mean nothing and are dropped when a new address would grow the list.
  struct AddrFree {
    Addr addr;
    std::uint64_t free;
  };
  std::vector<AddrFree> addr_free_;
  void set_addr_free(Addr a, std::uint64_t free, std::uint64_t now);
  bool head_started_ = false;
  AtomicStats stats_;
  IAtomicObserver* obs_ = nullptr;
  unsigned slice_ = 0;
};

}  // namespace simtsync::mem
