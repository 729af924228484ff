// atm_backoff_fixed: atm_simt (seed 000 Fig. 6a) with a software back-off after each failed
// transfer attempt (seed 000 Fig. 3): the thread busy-waits `delay + delay_per_cta * blockIdx.x`
// cycles on clock64() before it tries again (delay_per_cta = 1000, delay = 0: OpenMP 4.0's
// omp_set_lock on NVIDIA GPUs). The loop keeps atm_simt's shape; the spin mark stays last in the
// body (see atm_simt.cu).
#include "simtsync.cuh"
#include "simtsync_backoff.cuh"

extern "C" __global__ void atm_backoff_fixed(volatile int* balance, int* locks, const int* from,
                                             const int* to, const int* amount, int per_thread,
                                             int delay, int delay_per_cta) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const long long wait = delay + static_cast<long long>(delay_per_cta) * blockIdx.x;
  for (int i = 0; i < per_thread; ++i) {
    int t = tid * per_thread + i;
    int a = from[t], b = to[t], m = amount[t];
    int first = min(a, b), second = max(a, b);
    bool done = false;
    while (!done) {
      if (atomicCAS(&locks[first], 0, 1) == 0) {
        if (atomicCAS(&locks[second], 0, 1) == 0) {
          __threadfence();
          balance[a] = balance[a] - m;
          balance[b] = balance[b] + m;
          __threadfence();
          atomicExch(&locks[second], 0);
          atomicExch(&locks[first], 0);
          done = true;
        } else {
          atomicExch(&locks[first], 0);
        }
      }
      if (!done) {
        simtsync_delay_cycles(wait);
      }
      SIMTSYNC_SPIN_LOOP();  // last in the body: see the note at the top
    }
  }
}
