// Seed 003 Fig. 1: the MIMD spin lock. Expected: the CAS loop is flagged; the redefining write
// is the atomicExch that releases the lock; the safe post-dominator follows that write.
__global__ void fig1(int* mutex, int* counter) {
  while (atomicCAS(mutex, 0, 1) != 0) {
  }
  *counter = *counter + 1;
  __threadfence();
  atomicExch(mutex, 0);
}
