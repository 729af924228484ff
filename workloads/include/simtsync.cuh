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

// The tiny-lock primitives of seed 001 (Listing 4), built on the lock bits. The simulator
// decodes each LDSLK and STSUL call sequence nvcc emits into one machine operation, so these
// cost what their SASS costs: lock = one LDSLK, waitlock = LDSLK + branch per attempt,
// unlock = one STSUL.
//   simtsync_tiny_lock(p): takes the lock bit of *p without checking (the caller knows it is
//     free, e.g. a producer initialising its channel before a __syncthreads()).
//   simtsync_tiny_waitlock(p): retries LDSLK until this thread takes the bit; returns the word
//     read by the successful attempt (the channel's data). A busy-wait loop: marked.
//   simtsync_tiny_unlock(p, v): stores v to *p and frees its bit (STSUL; the store releases).
// Threads of one warp that wait for each other must keep lock and unlock in one divergent path
// (seed 001 Listing 8, simtsync_tiny_trylock below) or they SIMD-deadlock (sec. 4.4.1).
__device__ __forceinline__ void simtsync_tiny_lock(volatile int* p) {
  (void)simtsync_ldslk(p);
}
__device__ __forceinline__ int simtsync_tiny_waitlock(volatile int* p) {
  int v;
  while (!simtsync_lock_bit(p, &v)) {
    SIMTSYNC_SPIN_LOOP();
  }
  return v;
}
__device__ __forceinline__ void simtsync_tiny_unlock(volatile int* p, int v) {
  simtsync_stsul(p, v);
}
// One attempt, for the critical-section scheme of Listing 8:
// `if (simtsync_tiny_trylock(p, &v)) { ...; simtsync_tiny_unlock(p, w); done = true; }` inside
// the retry loop.
__device__ __forceinline__ bool simtsync_tiny_trylock(volatile int* p, int* value = nullptr) {
  return simtsync_lock_bit(p, value);
}

// Warp-shared lock bit (seed 001 sec. 4.5, Listing 9): one bit for a whole warp. All lanes
// pass the same p. warp_lock: every lane asks, one takes it. warp_waitlock: every lane retries
// until a vote says one lane took it. warp_unlock: lane 0, the representative, frees it by
// storing v. Call them with the whole warp converged.
__device__ __forceinline__ void simtsync_tiny_warp_lock(volatile int* p) {
  (void)simtsync_ldslk(p);
}
__device__ __forceinline__ void simtsync_tiny_warp_waitlock(volatile int* p) {
  while (!__any_sync(0xffffffffu, simtsync_lock_bit(p))) {
    SIMTSYNC_SPIN_LOOP();
  }
}
__device__ __forceinline__ void simtsync_tiny_warp_unlock(volatile int* p, int v) {
  if ((threadIdx.x & 31) == 0) simtsync_stsul(p, v);
}

// Lock and unlock instructions (seed 004 ch. 4): the GPU takes the lock itself, so a textbook
// critical section works under SIMT without a retry loop in the program:
//
//   simtsync_lock(p);    // returns once this thread holds the lock word *p
//   ... critical section ...
//   simtsync_unlock(p);  // releases it
//
// A lock word is a 32-bit int in global memory: -1 (SIMTSYNC_LOCK_FREE) when free, the holder's
// unique thread id (its linear index in the grid) while held; initialise lock words to -1
// (e.g. cudaMemset to 0xff). simtsync_lock sends a compare-and-swap (-1 -> thread id) for every
// active thread and the reconvergence unit `lock_stack` (sm.reconvergence.impl=lock_stack)
// retries the threads that did not get it, with the lock-retry and lock entries of seed 004
// Fig. 4.1-4.4; with lock queuing (sm.lock_queue) a request for a held lock waits in the memory
// partition instead. simtsync_unlock exchanges -1 into the word. Both are decoded into single
// instructions (the call sequence nvcc emits costs nothing extra). Nested locks are taken in a
// fixed order (lower address first) and released innermost first. The bodies trap on a real GPU.
#define SIMTSYNC_LOCK_FREE (-1)
extern "C" __device__ __noinline__ void simtsync_lock(int* p) {
  asm volatile("trap;" ::"l"(p) : "memory");
}
extern "C" __device__ __noinline__ void simtsync_unlock(int* p) {
  asm volatile("trap;" ::"l"(p) : "memory");
}

// Try-lock instruction (seed 004 sec. 9.2.2, the thesis's future work): like simtsync_lock, but
// a thread gives up after `attempts` tries (1: a single attempt, as Barnes-Hut's atomicCAS
// tree build does) and goes on with false instead of waiting in the lock-retry loop:
//
//   if (simtsync_try_lock(p, 1)) {  // true: this thread holds *p
//     ... critical section ...
//     simtsync_unlock(p);
//   } else {
//     ... the alternate path (e.g. re-traverse and try again later) ...
//   }
//
// The threads that took the lock wait (holding it) until the warp's other threads have
// acquired or spent their attempts; then the whole warp goes on after the try-lock with its
// results. A try-lock never waits in a lock queue (it fails at once). `attempts` must be the
// same for every thread of the warp. Release a try-held lock with simtsync_unlock, innermost
// lock first. One instruction, decoded like simtsync_lock; the body traps on a real GPU.
extern "C" __device__ __noinline__ unsigned long long simtsync_try_lock(int* p, int attempts) {
  unsigned long long r;
  asm volatile("trap; mov.u64 %0, 0;" : "=l"(r) : "l"(p), "r"(attempts) : "memory");
  return r;
}
