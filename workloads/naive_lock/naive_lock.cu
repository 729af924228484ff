// naive_lock: the MIMD spin lock of seed 003 Fig. 1 (correct on a CPU; a SIMT-induced deadlock
// under the IPDOM stack: the winner waits at the loop exit for warp-mates that wait for it).
#include "simtsync.cuh"
extern "C" __global__ void naive_lock(int* mutex, int* counter) {
  do { SIMTSYNC_SPIN_LOOP(); } while (atomicCAS(mutex, 0, 1) != 0);
  *counter = *counter + 1;
  __threadfence();
  atomicExch(mutex, 0);
}
