// One L2 slice of a memory partition with its memory-side units (i_mem_unit.h: the atomic unit,
// the lock queue when it is on, any other the config places), in front of the partition's DRAM
// channel (owned by the hierarchy; a partition's slices share it, mem.l2.slices_per_partition,
// GPGPU-Sim's sub-partitions). The slice and its units run on the L2 clock, the channel on the
// DRAM clock; replies leave through the slice's own port to the interconnect (L2 hits, fills
// and acknowledgements first, then the units' replies in table order).
#pragma once

#include <algorithm>
#include <memory>
#include <vector>

#include "timing/mem/l2_slice.h"

namespace simtsync::mem {

class MemoryPartition {
 public:
  // A unit of this slice: its row in mem_units.def, and the instance (owned here, or shared with
  // the partition's other slices and owned by the hierarchy).
  struct Unit {
    unsigned row = 0;
    IMemUnit* unit = nullptr;
    bool shared = false;
  };
  // `slice`: the slice's index within its partition. `units`: the slice's units in table order
  // (`owned` holds those that are its own); exactly one intercepts atomics.
  MemoryPartition(const HierarchyParams& p, const AddressMap& map, IPerform& perf,
                  DramChannel& dram, unsigned slice, std::vector<Unit> units,
                  std::vector<std::unique_ptr<IMemUnit>> owned);

  L2Slice& l2() { return *l2_; }
  const L2Slice& l2() const { return *l2_; }
  const std::vector<Unit>& units() const { return units_; }

  void tick_l2(std::uint64_t now) {
    // The units' own accesses (lock-queue records) go through the slice like any access.
    for (std::size_t i = 0; i < units_.size(); ++i) {
      IMemUnit& u = *units_[i].unit;
      while (u.has_access() && l2_->can_accept()) {
        Packet a = u.front_access();
        a.origin = static_cast<std::uint8_t>(i);
        l2_->push(a);
        u.pop_access();
      }
    }
    l2_->tick(now);
    for (const Unit& u : units_)
      if (!u.shared) u.unit->tick(now);  // a partition's shared units tick in the hierarchy
  }
  // After tick_l2(now): the earliest L2 cycle at which tick_l2 can change anything, ~0 when
  // only a packet from outside (the interconnect, a DRAM fill, a record read's answer) can.
  std::uint64_t next_tick(std::uint64_t now) const {
    if (l2_->has_work()) return now + 1;
    std::uint64_t t = ~std::uint64_t{0};
    for (const Unit& u : units_) t = std::min(t, u.unit->next_tick(now));
    return t;
  }
  // The earliest L2 cycle at which reply() can return a packet or answer a unit (~0: none).
  std::uint64_t reply_at() const {
    std::uint64_t t = l2_->reply_at();
    for (const Unit& u : units_) t = std::min(t, u.unit->reply_at());
    return t;
  }
  bool busy() const {
    if (l2_->busy()) return true;
    for (const Unit& u : units_)
      if (u.unit->busy()) return true;
    return false;
  }
  // The next reply ready to enter the interconnect, if any.
  Packet* reply(std::uint64_t l2_now) {
    // The slice's answers to the units' own accesses stay here.
    while (l2_->has_reply(l2_now) && l2_->front_reply().internal != 0) {
      const Packet& r = l2_->front_reply();
      units_[r.origin].unit->access_done(r, l2_now);
      l2_->pop_reply();
      answered_ = true;
    }
    if (l2_->has_reply(l2_now)) return &l2_->front_reply();
    for (const Unit& u : units_)
      if (u.unit->has_reply(l2_now)) return &u.unit->front_reply(l2_now);
    return nullptr;
  }
  // reply() handed a unit the answer to one of its own accesses since the last call (its next
  // tick may have work).
  bool take_answered() {
    const bool a = answered_;
    answered_ = false;
    return a;
  }
  void pop_reply(std::uint64_t l2_now) {
    if (l2_->has_reply(l2_now)) {
      l2_->pop_reply();
      return;
    }
    for (const Unit& u : units_)
      if (u.unit->has_reply(l2_now)) {
        u.unit->pop_reply(l2_now);
        return;
      }
  }

 private:
  std::vector<std::unique_ptr<IMemUnit>> owned_;
  std::vector<Unit> units_;
  std::unique_ptr<L2Slice> l2_;
  bool answered_ = false;
};

}  // namespace simtsync::mem
