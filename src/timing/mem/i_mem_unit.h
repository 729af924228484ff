// Memory-side units: components that sit in an L2 slice (or are shared by the slices of a memory
// partition) and take part in what happens to some kinds of traffic there. They are a plug-in
// family like the issue policies: one row of mem_units.def names a unit, its factory and its
// declare function, which states the unit's keys (mem.NAME.*) and its statistics once; the
// schema, `simtsync list`, the resolved config and the statistics (JSON `memory.NAME`, CSV) are
// built from that. A new unit is one file in impl/, one row and one CMake line
// (docs/architecture.md, "A new memory-side unit").
//
// What a unit intercepts decides where the hierarchy wires it (intercepts(), placement()):
//  - kReads / kWrites: loads / stores as the slice takes them from its input; admit() may hold
//    one at the head of the input (the slice takes nothing that L2 cycle);
//  - kAtomics: atomic packets whose line is present: the unit executes them (push(), its
//    replies leave through the slice's port after the slice's own). Exactly one unit of a slice
//    does this (the atomic unit);
//  - kLockRequests: the lane operations of lock and unlock instructions at the atomic unit: the
//    unit is its lock arbiter (lock_arbiter(); the lock queue).
// A unit that its keys leave out (mem.lock_queue.mode=off) is not built: its factory returns
// null. Each L2 cycle a slice ticks, then its own units in table order; a partition's shared
// units tick after every slice.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "common/stat_table.h"
#include "config/plugin.h"
#include "timing/mem/mem_params.h"
#include "timing/mem/packet.h"

namespace simtsync::mem {

// What the atomic unit asks of the rest of the simulator for each lane operation (the
// hierarchy answers).
class IAtomicLanes {
 public:
  virtual ~IAtomicLanes() = default;
  virtual Addr lane_address(const Packet& p, unsigned lane) const = 0;
  // Applies one lane's operation; returns true when it succeeded (a compare-and-swap that
  // swapped; every other operation succeeds). The outcome also lands in the request's access.
  virtual bool perform_lane(const Packet& p, unsigned lane) = 0;
  // Lock queuing (lock_queue.h): what the packet's instruction is (0: neither, 1: a lock
  // instruction, 2: an unlock); a lane of `p` parked (its reply comes later, in a packet of its
  // own); `p` needs no reply (every lane parked).
  virtual int lock_kind(const Packet& p) const {
    (void)p;
    return 0;
  }
  virtual void parked(const Packet& p) { (void)p; }
  virtual void dropped(const Packet& p) { (void)p; }
};

enum MemIntercept : unsigned {
  kInterceptReads = 1u << 0,
  kInterceptWrites = 1u << 1,
  kInterceptAtomics = 1u << 2,
  kInterceptLockRequests = 1u << 3,
};

// kSlice: one instance per L2 slice; kPartition: one per memory partition, shared by its slices
// (mem.l2.slices_per_partition).
enum class MemPlacement : std::uint8_t { kSlice, kPartition };

// A read or write of a lock-queue record in memory (bounded queuing sends them through the L2
// slice).
struct RecordOp {
  Addr addr = 0;
  bool write = true;
};

// Lock queuing as the atomic unit consults it, lane by lane (lock_queue.h).
class ILockArbiter {
 public:
  virtual ~ILockArbiter() = default;
  enum class Admit : std::uint8_t { kProceed, kParked, kTurnedAway };
  // A lock request for `addr` from lane `lane` of `p`; record accesses it makes go to `ops`
  // (when not null).
  virtual Admit lock(Addr addr, const Packet& p, unsigned lane, std::uint64_t now,
                     std::vector<RecordOp>* ops) = 0;
  // The proceeding request's compare-and-swap failed: its record leaves the queue.
  virtual void abandon(Addr addr) = 0;
  // An unlock of `addr`: true when a parked request now holds the lock; its packet (that lane
  // only) is returned in `next`, with the cycle it parked.
  virtual bool unlock(Addr addr, std::uint64_t now, Packet& next, std::vector<RecordOp>* ops) = 0;
  // Records live in memory: their reads and writes cost accesses (bounded queuing).
  virtual bool records_in_memory() const = 0;
  // L2 cycles before a turned-away request's reply leaves.
  virtual unsigned backoff() const = 0;
};

// What the hierarchy gives a unit it builds.
struct MemUnitContext {
  const HierarchyParams& hier;
  IAtomicLanes* lanes = nullptr;  // lane operations of atomics (null in some unit tests)
  unsigned slice = 0;             // the slice that builds it (a partition's first, kPartition)
  unsigned partition = 0;         // that slice's memory partition
};

class IMemUnit {
 public:
  virtual ~IMemUnit() = default;
  virtual unsigned intercepts() const = 0;  // MemIntercept bits
  virtual MemPlacement placement() const { return MemPlacement::kSlice; }

  // kInterceptReads / kInterceptWrites: may the slice take `p` from its input now? (Asked again
  // each L2 cycle `p` stays at the head: the slice may fail to take it for its own reasons, so
  // only taken() says it went in.) The units' own accesses are not shown.
  virtual bool admit(const Packet& p, std::uint64_t now) {
    (void)p;
    (void)now;
    return true;
  }
  virtual void taken(const Packet& p, std::uint64_t now) {
    (void)p;
    (void)now;
  }

  // kInterceptAtomics: the executor of atomics (see the file comment).
  virtual bool can_accept() const { return false; }
  virtual bool push(const Packet& p, std::uint64_t now) {
    (void)p;
    (void)now;
    return false;
  }
  virtual bool has_reply(std::uint64_t now) const {
    (void)now;
    return false;
  }
  virtual Packet& front_reply(std::uint64_t now);
  virtual void pop_reply(std::uint64_t now) { (void)now; }
  // Accesses the unit makes through its slice (lock-queue records): `internal` packets the
  // slice serves and answers back to the unit with access_done().
  virtual bool has_access() const { return false; }
  virtual const Packet& front_access() const;
  virtual void pop_access() {}
  virtual void access_done(const Packet& p, std::uint64_t now) {
    (void)p;
    (void)now;
  }
  // The slice's lock arbiter, if it has one (wired after every unit is built).
  virtual void attach(ILockArbiter* arbiter) { (void)arbiter; }

  // kInterceptLockRequests.
  virtual ILockArbiter* lock_arbiter() { return nullptr; }

  // One L2 cycle. Only while the unit or its slice is busy(): a slice with nothing in flight is
  // not ticked (issue 48), so a unit with work of its own says so here.
  virtual void tick(std::uint64_t now) { (void)now; }
  virtual bool busy() const { return false; }
  // After the unit's tick at L2 cycle `now`: the earliest L2 cycle at which its tick can change
  // anything, ~0 when only something from outside (a packet its slice pushes, access_done) can.
  // Never later than the true cycle (earlier costs only speed): the hierarchy does not tick the
  // unit's slice before it unless the slice has work of its own. Replies waiting to leave do
  // not count: the interconnect asks has_reply() every cycle of its own.
  virtual std::uint64_t next_tick(std::uint64_t now) const {
    return busy() ? now + 1 : ~std::uint64_t{0};
  }
  // The earliest L2 cycle at which has_reply() can turn true (~0: never without new work; 0:
  // maybe now). Never later than the true cycle.
  virtual std::uint64_t reply_at() const { return busy() ? 0 : ~std::uint64_t{0}; }
  // The unit's counters, in the order its declare function declared them.
  virtual void collect(std::span<std::uint64_t> out) const { (void)out; }
};

using MemUnitFactory = std::unique_ptr<IMemUnit> (*)(const MemUnitContext&,
                                                     const config::PluginParams&);

// A component's declared stats table as a unit's statistics: declared once (declare_stats in its
// declare function), copied out in the same order (collect_stats in collect()).
template <class T>
void declare_stats(config::PluginDecl& d, std::span<const StatField<T>> fields) {
  for (const auto& f : fields)
    for (unsigned i = 0; i < f.count; ++i)
      d.stat(f.count == 1 ? std::string(f.name) : std::string(f.name) + "." + f.labels[i],
             f.description, f.sum);
}
template <class T>
void collect_stats(const T& s, std::span<const StatField<T>> fields, std::span<std::uint64_t> out) {
  std::size_t k = 0;
  for (const auto& f : fields) {
    const std::uint64_t* v = f.at(const_cast<T&>(s));
    for (unsigned i = 0; i < f.count && k < out.size(); ++i) out[k++] = v[i];
  }
}

}  // namespace simtsync::mem
