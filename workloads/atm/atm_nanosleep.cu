// atm_nanosleep: atm_simt (seed 000 Fig. 6a) with the back-off of the CUDA C++ Programming
// Guide's __nanosleep mutex: after a failed transfer attempt the thread sleeps 8 ns, doubled
// after every failure of the transfer up to 8 << max_level ns (max_level 5: 256 ns).
#include "simtsync.cuh"
#include "simtsync_backoff.cuh"

extern "C" __global__ void atm_nanosleep(volatile int* balance, int* locks, const int* from,
                                         const int* to, const int* amount, int per_thread,
                                         int max_level) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < per_thread; ++i) {
    int t = tid * per_thread + i;
    int a = from[t], b = to[t], m = amount[t];
    int first = min(a, b), second = max(a, b);
    bool done = false;
    int level = 0;
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
        simtsync_nanosleep_level(level);
        if (level < max_level) ++level;
      }
      SIMTSYNC_SPIN_LOOP();  // last in the body: see the note at the top
    }
  }
}
