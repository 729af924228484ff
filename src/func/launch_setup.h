// Launch bookkeeping shared by the functional runner and the timing model: the launch shape,
// CTA and warp objects, and putting one CTA into its initial state (thread ids, reconvergence
// unit at the kernel entry, zeroed shared memory and registers).
#pragma once

#include <vector>

#include "func/cta.h"
#include "func/executor.h"
#include "func/warp.h"

namespace simtsync::func {

LaunchInfo make_launch_info(const DecodedFunction& kernel, Dim3 grid, Dim3 block,
                            unsigned warp_size, std::uint32_t dynamic_shared);

// Creates every CTA and warp object of the grid. With `allocate` false, warps get their
// register and shared storage only when setup_cta() runs (the timing model dispatches CTAs
// over time and frees them when they complete).
void create_grid(const Program& prog, const LaunchInfo& li, bool allocate, std::vector<Cta>& ctas,
                 std::vector<Warp>& warps);

// Puts CTA `c` into its initial state (allocating storage if needed).
void setup_cta(const Program& prog, const LaunchInfo& li, Cta& c, std::vector<Warp>& warps);

// Frees the storage of a completed CTA.
void release_cta(Cta& c, std::vector<Warp>& warps);

}  // namespace simtsync::func
