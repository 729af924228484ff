// Seed 003 Fig. 3: the SIMT-compliant spin lock (acquire and release inside the loop body).
// Expected: not flagged (no shared write reachable from, or parallel to, the loop).
__global__ void fig3(int* mutex, int* counter) {
  bool done = false;
  while (!done) {
    if (atomicCAS(mutex, 0, 1) == 0) {
      *counter = *counter + 1;
      __threadfence();
      atomicExch(mutex, 0);
      done = true;
    }
  }
}
