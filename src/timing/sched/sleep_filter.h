// nanosleep in the timing model: a warp that issues `nanosleep.u32 t` does not issue again for t
// nanoseconds, converted to core cycles at gpu.core_clock_mhz (rounded up; PTX caps t at 1 ms
// and lets the hardware sleep anywhere in [0, 2t]: the model sleeps exactly t). The functional
// model treats nanosleep as a no-op.
//
// It is a filter around the SM's issue policy (whichever one is selected), built by
// make_scheduler when SchedulerParams::core_clock_mhz is set (every timing run): it hears each
// issued nanosleep on the SM's event bus and leaves the sleeping warp out of the policy's order
// until it wakes, and says when the next warp wakes (next_event), so the SM does not sleep past
// it. The cycles in which a scheduler offers nothing because its warps sleep are `held`.
//
// Only an immediate operand can be read here (the issue event carries no register values):
// `nanosleep.u32 %r` still issues as a no-op. nvcc's __nanosleep(t) always passes a register,
// so the workloads sleep through `simtsync_nanosleep<T>()` (workloads/include/
// simtsync_backoff.cuh), which emits the immediate form.
#pragma once

#include <cstdint>
#include <memory>

#include "timing/sched/i_warp_scheduler.h"

namespace simtsync::sched {

// Core cycles a sleep of `ns` nanoseconds lasts at `core_clock_mhz` (ns capped at 1 ms).
Cycle nanosleep_cycles(std::uint64_t ns, double core_clock_mhz);

// Wraps `inner` with the nanosleep filter; subscribes to ctx.events (without an event bus the
// filter hears nothing and passes the order through).
std::unique_ptr<IWarpScheduler> with_nanosleep(std::unique_ptr<IWarpScheduler> inner,
                                               const PolicyContext& ctx, double core_clock_mhz);

}  // namespace simtsync::sched
