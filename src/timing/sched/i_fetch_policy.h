// The fetch policy of an SM: which warps' I-buffers are filled first.
//
// Contract: each cycle the fetch stage calls order() with a bit mask of the warp slots that
// want an instruction (I-buffer not full, no unresolved branch) and fetches for the first
// sm.fetch_width of them, in the returned order, reporting each with fetched(). Round robin
// now; barrier-aware policies (CFF, FEF: seed 002) plug in here. Registered in
// fetch_policies.def.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/types.h"

namespace simtsync::sched {

class IFetchPolicy {
 public:
  virtual ~IFetchPolicy() = default;
  // Writes the slots of `wanting` (bit i = slot i) into `out`, highest priority first.
  virtual void order(std::uint64_t wanting, unsigned num_slots, Cycle now,
                     std::vector<int>& out) = 0;
  virtual void fetched(int slot, Cycle now) = 0;
  virtual std::string name() const = 0;
};

std::unique_ptr<IFetchPolicy> make_fetch_policy(const std::string& impl);

}  // namespace simtsync::sched
