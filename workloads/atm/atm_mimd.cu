// atm_mimd: the bank transfers of atm_simt.cu written as for a CPU: spin on the lower-numbered
// account's lock, then on the other's, transfer, release both. Deadlock-free under MIMD
// scheduling (locks are taken in a global order); under the IPDOM stack a warp-mate that wins a
// lock waits at the spin loop's exit for lanes that spin on that same lock.
#include "simtsync.cuh"

extern "C" __global__ void atm_mimd(volatile int* balance, int* locks, const int* from,
                                    const int* to, const int* amount, int per_thread) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < per_thread; ++i) {
    int t = tid * per_thread + i;
    int a = from[t], b = to[t], m = amount[t];
    int first = min(a, b), second = max(a, b);
    while (atomicCAS(&locks[first], 0, 1) != 0) {
      SIMTSYNC_SPIN_LOOP();
    }
    while (atomicCAS(&locks[second], 0, 1) != 0) {
      SIMTSYNC_SPIN_LOOP();
    }
    __threadfence();
    balance[a] = balance[a] - m;
    balance[b] = balance[b] + m;
    __threadfence();
    atomicExch(&locks[second], 0);
    atomicExch(&locks[first], 0);
  }
}
