// Address mapping over memory partitions: consecutive `interleave`-byte chunks go to
// consecutive partitions (channels); inside a partition the chunks it owns are packed into one
// dense channel address space, which the DRAM channel splits into bank, row and column.
#pragma once

#include "common/types.h"
#include "timing/mem/mem_params.h"

namespace simtsync::mem {

class AddressMap {
 public:
  explicit AddressMap(const AddressMapParams& p)
      : parts_(p.partitions ? p.partitions : 1), inter_(p.interleave ? p.interleave : 256) {}
  unsigned partitions() const { return parts_; }
  unsigned partition_of(Addr a) const { return static_cast<unsigned>((a / inter_) % parts_); }
  // The address inside its partition's channel.
  Addr local_of(Addr a) const { return (a / inter_ / parts_) * inter_ + a % inter_; }

 private:
  unsigned parts_, inter_;
};

}  // namespace simtsync::mem
