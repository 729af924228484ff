// Lane masks live in common/ (the reconvergence layer below func/ uses them too).
#pragma once

#include "common/lane_mask.h"

namespace simtsync::func {

using simtsync::first_lane;
using simtsync::full_mask;
using simtsync::LaneIter;
using simtsync::LaneMask;
using simtsync::lanes;
using simtsync::popcount;

}  // namespace simtsync::func
