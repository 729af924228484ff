// Address mapping over memory partitions: consecutive `interleave`-byte chunks go to
// consecutive partitions (channels); inside a partition the chunks it owns are packed into one
// dense channel address space, which the DRAM channel splits into bank, row and column. A
// partition may hold several L2 slices (GPGPU-Sim's sub-partitions): the chunks a channel owns
// go to its slices in turn, each slice with its own crossbar port and atomic unit. Slice
// `c * slices_per_partition + k` is slice k of channel c.
#pragma once

#include "common/types.h"
#include "timing/mem/mem_params.h"

namespace simtsync::mem {

class AddressMap {
 public:
  explicit AddressMap(const AddressMapParams& p)
      : parts_(p.partitions ? p.partitions : 1),
        sub_(p.slices_per_partition ? p.slices_per_partition : 1),
        inter_(p.interleave ? p.interleave : 256) {}
  unsigned partitions() const { return parts_; }  // DRAM channels
  unsigned slices() const { return parts_ * sub_; }
  unsigned slices_per_partition() const { return sub_; }
  unsigned slice_of(Addr a) const {
    const Addr chunk = a / inter_;
    return static_cast<unsigned>(chunk % parts_ * sub_ + chunk / parts_ % sub_);
  }
  unsigned partition_of_slice(unsigned slice) const { return slice / sub_; }
  // Every address and that address plus `k` lie in the same partition.
  bool same_partition_after(Addr k) const { return k % inter_ == 0 && k / inter_ % parts_ == 0; }
  // The address inside its partition's channel.
  Addr local_of(Addr a) const { return (a / inter_ / parts_) * inter_ + a % inter_; }
  // The address inside its slice: its channel and slice digits removed (what a slice's cache
  // indexes its sets with).
  Addr slice_local_of(Addr a) const {
    return (a / inter_ / (Addr{parts_} * sub_)) * inter_ + a % inter_;
  }

 private:
  unsigned parts_, sub_, inter_;
};

}  // namespace simtsync::mem
