// simtsync intrinsics for CUDA kernels. Include from a workload's .cu file.
//
// SIMTSYNC_SPIN_LOOP(): marks the innermost loop that contains it as a busy-wait loop (a spin
// lock's retry loop, a wait on a flag). It is ground truth for spin detection (DDOS true/false
// detection rates) and for checking the SIMT-deadlock analysis; synchronization-free code never
// uses it. It compiles to `pmevent 7;`, an instruction that only pulses a performance-monitor
// event: harmless on real hardware and a no-op in the simulator. The loop's backward branches
// are the marked spin-inducing branches.
#pragma once

#define SIMTSYNC_SPIN_EVENT 7
#define SIMTSYNC_SPIN_LOOP() asm volatile("pmevent 7;")
