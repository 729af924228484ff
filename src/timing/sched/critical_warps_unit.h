// The SM's criticality board (critical_warps.h) as a unit shared by its policies: every
// scheduler of the SM that predicts criticality writes its own warps' bits into the same board,
// and the GPU hands the board to the SM's L1 (TimingGpu::run).
#pragma once

#include "timing/sched/context.h"
#include "timing/sched/critical_warps.h"

namespace simtsync::sched {

struct CriticalWarpsUnit final : ISharedUnit {
  static constexpr const char* kName = "critical_warps";
  CriticalWarps board;
};

}  // namespace simtsync::sched
