// Seed 004 Example 5: spin lock written for a SIMT stack (loop_continue flag; the lock is
// released inside the loop body). Expected: not flagged.
__global__ void ex5(int* lock, int* counter) {
  bool loop_continue = true;
  while (loop_continue) {
    if (atomicCAS(lock, -1, (int)threadIdx.x) == -1) {
      *counter = *counter + 1;  // critical section
      atomicExch(lock, -1);     // release lock
      loop_continue = false;    // exit loop
    }
  }
}
