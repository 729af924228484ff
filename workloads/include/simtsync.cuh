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

// Shared-memory lock bits (seed 001 sec. 3.2): Fermi's lock unit keeps one lock bit per
// shared-memory word address modulo 1024 (`sm.shared.lock_bits`); SASS reaches it through
// LDSLK (load a word and try to take its lock bit) and STSUL (store a word and free its lock
// bit), which PTX cannot express. As in seed 004 sec. 6.2, they are written here as calls to
// functions the simulator intercepts and executes as shared-memory instructions:
//
//   simtsync_ldslk(p): loads the shared word *p and tries to take its lock bit; returns the
//     word in the low 32 bits and 1 in bit 32 when this thread took the bit (it was free),
//     0 when another thread holds it. Lanes of one warp are served in lane order, so of
//     several lanes asking for one bit only the first gets it.
//   simtsync_stsul(p, v): stores v to the shared word *p and frees its lock bit.
//
// A lock bit is free at kernel start. Words 1024 apart share a bit (aliasing). `p` must point
// into shared memory. The bodies are never executed by simtsync; on a real GPU, which has no
// such instructions at the PTX level, they trap.
extern "C" __device__ __noinline__ unsigned long long simtsync_ldslk(volatile int* p) {
  unsigned long long r;
  asm volatile("trap; mov.u64 %0, 0;" : "=l"(r) : "l"(p) : "memory");
  return r;
}
extern "C" __device__ __noinline__ void simtsync_stsul(volatile int* p, int v) {
  asm volatile("trap;" ::"l"(p), "r"(v) : "memory");
}

// LDSLK with the lock result split out: true when the calling thread took the lock bit of *p;
// the word read goes to *value when it is not null.
__device__ __forceinline__ bool simtsync_lock_bit(volatile int* p, int* value = nullptr) {
  const unsigned long long r = simtsync_ldslk(p);
  if (value) *value = static_cast<int>(r & 0xffffffffu);
  return (r >> 32) != 0;
}
