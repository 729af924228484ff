// atm_backoff_exp: atm_simt (seed 000 Fig. 6a) with exponential software back-off (seed 000
// Fig. 3): after a failed transfer attempt the thread busy-waits `d` cycles on clock64(), d
// starting at `delay_base` for each transfer and doubling after every failure up to `delay_cap`.
#include "simtsync.cuh"
#include "simtsync_backoff.cuh"

extern "C" __global__ void atm_backoff_exp(volatile int* balance, int* locks, const int* from,
                                           const int* to, const int* amount, int per_thread,
                                           int delay_base, int delay_cap) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < per_thread; ++i) {
    int t = tid * per_thread + i;
    int a = from[t], b = to[t], m = amount[t];
    int first = min(a, b), second = max(a, b);
    bool done = false;
    int d = delay_base;
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
        simtsync_delay_cycles(d);
        d = min(2 * d, delay_cap);
      }
      SIMTSYNC_SPIN_LOOP();  // last in the body: see the note at the top
    }
  }
}
