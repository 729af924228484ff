// One L2 slice of a memory partition with its atomic unit, in front of the partition's DRAM
// channel (owned by the hierarchy; a partition's slices share it, mem.l2.slices_per_partition,
// GPGPU-Sim's sub-partitions). The slice and the atomic unit run on the L2 clock, the channel
// on the DRAM clock; replies leave through the slice's own port to the interconnect (L2 hits,
// fills and acknowledgements first, then atomic replies).
#pragma once

#include "timing/mem/l2_slice.h"

namespace simtsync::mem {

class MemoryPartition {
 public:
  // `slice`: the slice's index within its partition.
  MemoryPartition(const HierarchyParams& p, const AddressMap& map, IPerform& perf,
                  IAtomicLanes& lanes, DramChannel& dram, unsigned slice)
      : atomics_(p.atomic, lanes, p.lock_queue), l2_(p.l2, map, perf, atomics_, dram, slice) {}

  L2Slice& l2() { return l2_; }
  AtomicUnit& atomics() { return atomics_; }
  const L2Slice& l2() const { return l2_; }
  const AtomicUnit& atomics() const { return atomics_; }

  void tick_l2(std::uint64_t now) {
    // Lock-queue records (bounded queuing) go through the slice like any access.
    while (atomics_.has_record_op() && l2_.can_accept()) {
      l2_.push(atomics_.front_record_op());
      atomics_.pop_record_op();
    }
    l2_.tick(now);
    atomics_.tick(now);
  }
  bool busy() const { return l2_.busy() || atomics_.busy(); }
  // The next reply ready to enter the interconnect, if any.
  Packet* reply(std::uint64_t l2_now) {
    // The slice's answers to the partition's own record accesses stay here.
    while (l2_.has_reply(l2_now) && l2_.front_reply().internal != 0) {
      if (l2_.front_reply().internal == 2) atomics_.record_read_done(l2_.front_reply(), l2_now);
      l2_.pop_reply();
    }
    if (l2_.has_reply(l2_now)) return &l2_.front_reply();
    if (atomics_.has_reply(l2_now)) return &atomics_.front_reply(l2_now);
    return nullptr;
  }
  void pop_reply(std::uint64_t l2_now) {
    if (l2_.has_reply(l2_now))
      l2_.pop_reply();
    else
      atomics_.pop_reply(l2_now);
  }

 private:
  AtomicUnit atomics_;
  L2Slice l2_;
};

}  // namespace simtsync::mem
