// Hand-built warp states for the issue-policy tests (no SM involved).
#pragma once

#include <vector>

#include "timing/sched/i_warp_scheduler.h"

namespace simtsync::sched {

// Slot i holds a live warp with age ages[i] and warp id (SM slot) i; age < 0 marks an empty slot.
inline std::vector<SchedWarp> warps(const std::vector<int>& ages) {
  std::vector<SchedWarp> w(ages.size());
  for (size_t i = 0; i < ages.size(); ++i) {
    w[i].valid = ages[i] >= 0;
    w[i].age = ages[i] < 0 ? 0 : static_cast<std::uint64_t>(ages[i]);
    w[i].warp_id = static_cast<int>(i);
  }
  return w;
}

}  // namespace simtsync::sched
