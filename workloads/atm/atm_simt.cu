// atm_simt: bank transfers with two nested locks (seed 000 Fig. 6a, sec. V). Each thread runs
// `per_thread` transfers; a transfer locks both accounts, moves the amount and releases. In the
// SIMT-compliant form of Fig. 6a both lock attempts, the transfer and both releases sit in one
// loop body; a thread that gets the first lock but not the second gives the first back and
// retries. Locks are tried in account order so that a warp's lanes cannot keep taking each
// other's second lock in lockstep forever (a livelock under a deterministic SIMT schedule).
// The spin mark ends the loop body on purpose. With the mark first, nvcc -O3 threads the
// success path straight out of the loop and turns the code back into the MIMD lock loop
// (seen for am, atm and cp_ds; the hazard seed 004 sec. 6.5.3 reports); an asm statement at
// the join of both paths is not duplicated, which keeps the critical section in the loop.
#include "simtsync.cuh"

extern "C" __global__ void atm_simt(volatile int* balance, int* locks, const int* from,
                                    const int* to, const int* amount, int per_thread) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
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
      SIMTSYNC_SPIN_LOOP();  // last in the body: see the note at the top
    }
  }
}
