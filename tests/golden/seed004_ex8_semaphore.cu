// Seed 004 Example 8: a counting semaphore built on the Example 5 lock. Expected: flagged. The
// wait loop's exit depends on the semaphore count s (and the lock); Signal's s++ and its lock
// operations are reachable after the loop and alias them: a thread that took a resource waits
// at the loop exit for warp-mates that need it to signal first.
__device__ int lock = -1;
__device__ int s = 10;

__device__ void wait_sem() {
  bool loop_continue = true;
  while (loop_continue) {
    if (atomicCAS(&lock, -1, (int)threadIdx.x) == -1) {  // (A)
      if (*(volatile int*)&s > 0) {                      // (B)
        *(volatile int*)&s = s - 1;                      // (C)
        loop_continue = false;                           // (D)
      }                                                  // (E)
      atomicExch(&lock, -1);                             // (F)
    }                                                    // (G)
  }                                                      // (H)
}                                                        // (I)

__device__ void signal_sem() {
  atomicCAS(&lock, -1, (int)threadIdx.x);
  *(volatile int*)&s = s + 1;
  atomicExch(&lock, -1);
}

__global__ void ex8(int* out) {
  wait_sem();
  out[threadIdx.x] = 1;  // critical section
  signal_sem();
}
