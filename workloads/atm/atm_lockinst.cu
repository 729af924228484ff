// atm_lockinst: atm's bank transfers (atm_simt.cu, seed 000 Fig. 6a) with the lock and unlock
// instructions of seed 004 ch. 4: both account locks are taken with simtsync_lock, nested, in
// address order (the lower account, whose lock word has the lower address, first), and released
// innermost first. No retry loop and no give-back of the first lock: simtsync_lock returns only
// once the thread holds the lock, and the lock_stack unit (seed 004 sec. 4.4) lets the threads
// that hold locks release all of them before their warp-mates contend again. Lock words: -1
// free, else the holder's grid thread id. Needs sm.reconvergence.impl=lock_stack.
#include "simtsync.cuh"

extern "C" __global__ void atm_lockinst(volatile int* balance, int* locks, const int* from,
                                        const int* to, const int* amount, int per_thread) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < per_thread; ++i) {
    int t = tid * per_thread + i;
    int a = from[t], b = to[t], m = amount[t];
    int first = min(a, b), second = max(a, b);
    simtsync_lock(&locks[first]);
    simtsync_lock(&locks[second]);
    __threadfence();
    balance[a] = balance[a] - m;
    balance[b] = balance[b] + m;
    __threadfence();
    simtsync_unlock(&locks[second]);
    simtsync_unlock(&locks[first]);
  }
}
