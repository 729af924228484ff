// tl_mimd: the test-lock microbenchmark written as for a CPU (the OpenMP omp_test_lock loop of
// seed 003 sec. V): retry the lock until it is taken, then count and release. SIMT-deadlocks
// under the IPDOM stack as soon as two warp-mates want the same lock.
#include "simtsync.cuh"

extern "C" __global__ void tl_mimd(int* locks, volatile int* counts, const int* targets,
                                   int per_thread) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < per_thread; ++i) {
    int l = targets[tid * per_thread + i];
    while (atomicCAS(&locks[l], 0, 1) != 0) {
      SIMTSYNC_SPIN_LOOP();
    }
    __threadfence();
    counts[l] = counts[l] + 1;
    __threadfence();
    atomicExch(&locks[l], 0);
  }
}
