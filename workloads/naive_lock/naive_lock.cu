// naive_lock: the MIMD spin lock of seed 003 Fig. 1. Correct on a CPU; on a SIMT machine with
// an IPDOM reconvergence stack the thread that wins the lock waits at the loop exit for its
// lagging warp-mates, which wait for the lock: a SIMT-induced deadlock.
extern "C" __global__ void naive_lock(int* mutex, int* counter) {
  while (atomicCAS(mutex, 0, 1) != 0) {
  }
  *counter = *counter + 1;
  __threadfence();
  atomicExch(mutex, 0);
}
