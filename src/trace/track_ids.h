// Track numbers of the trace-event file shared by the tracer's parts (tracer.cc: warps, locks,
// barriers, launches; tracer_memory.cc: atomic units and lock queues).
#pragma once

namespace simtsync::trace {

inline constexpr int kLockPid = 100000;
inline constexpr int kBarrierTid = 1000;  // + CTA slot, under the SM's pid
inline constexpr int kQueueTid = 10000;   // + lock queue track, under kLockPid

}  // namespace simtsync::trace
