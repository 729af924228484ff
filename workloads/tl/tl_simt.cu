// tl_simt: test-lock microbenchmark (seed 003 Table I, TL), SIMT-compliant form. Each thread
// takes `per_thread` locks in turn (targets[] names which one) and increments that lock's
// counter inside the critical section. The lock attempt and the release sit in the same loop
// body (seed 000 Fig. 1a), so a winner leaves the critical section before reconverging.
// Fine-grained: many locks; coarse-grained: one lock for every thread.
// The spin mark ends the loop body on purpose. With the mark first, nvcc -O3 threads the
// success path straight out of the loop and turns the code back into the MIMD lock loop
// (seen for am, atm and cp_ds; the hazard seed 004 sec. 6.5.3 reports); an asm statement at
// the join of both paths is not duplicated, which keeps the critical section in the loop.
#include "simtsync.cuh"

extern "C" __global__ void tl_simt(int* locks, volatile int* counts, const int* targets,
                                   int per_thread) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < per_thread; ++i) {
    int l = targets[tid * per_thread + i];
    bool done = false;
    while (!done) {
      if (atomicCAS(&locks[l], 0, 1) == 0) {
        __threadfence();
        counts[l] = counts[l] + 1;
        __threadfence();
        atomicExch(&locks[l], 0);
        done = true;
      }
      SIMTSYNC_SPIN_LOOP();  // last in the body: see the note at the top
    }
  }
}
