// lockinst_limits: the two code shapes seed 004 sec. 4.5 names as limits of the lock
// instructions (the lock_stack unit), as kernels. Both are correct under MIMD scheduling; under
// the lock stack they deadlock, and the watchdog must report it (exit 3).
#include "simtsync.cuh"

// Example 12: a branch outside the critical section whose reconvergence point lies inside it.
// Odd threads lock in the then-arm (B) and run a critical section there (C), even threads lock
// in the else-arm (D); both arms join at E, still holding the lock, and unlock after it (F).
// The arms' stack entries have E as their RPC, but a subwarp that unlocks at F goes on at G,
// past E: its entry can no longer pop, and the other arm's entry below it does not run until
// it does. Code at G that only runs on to the exit hides this (exiting pops the entry), so G
// here waits until every thread has been through the critical section (counter[0] == total):
// correct under MIMD scheduling and on a stack that reconverged the arms at E, a deadlock
// under the lock stack. `lock_at` is `lock` in the else-arm: the same word, but an argument of
// its own so that nvcc cannot hoist the two calls above the branch as one. Every thread adds 1
// to counter[0] (E); odd ones also add 1 to counter[1] (C).
extern "C" __global__ void lockinst_ex12(int* lock, int* lock_at, volatile int* counter,
                                         int total) {
  if (threadIdx.x & 1) {          // A
    simtsync_lock(lock);          // B
    counter[1] = counter[1] + 1;  // C: critical section
  } else {
    simtsync_lock(lock_at);  // D
  }
  counter[0] = counter[0] + 1;  // E: more code, still under the lock
  __threadfence();
  simtsync_unlock(lock);        // F
  while (counter[0] < total) {  // G: more code (waits for the other threads)
    SIMTSYNC_SPIN_LOOP();
  }
}

// Example 13: a nested lock inside a divergent branch. Every thread takes a lock of its own
// (A: lock[t]); even threads then also take their odd neighbour's lock (C: lock[t + 1]), which
// the neighbour holds while it waits at F, the reconvergence point of B, for the even threads:
// a lock held by a thread that is not at the top of the stack. counter[t] counts the critical
// sections of thread t (2 for even threads, 1 for odd ones).
extern "C" __global__ void lockinst_ex13(int* lock, volatile int* counter) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  simtsync_lock(&lock[t]);        // A
  if ((t & 1) == 0) {             // B
    simtsync_lock(&lock[t + 1]);  // C
    counter[t] = counter[t] + 1;  // D: critical section
    __threadfence();
    simtsync_unlock(&lock[t + 1]);  // E
  }
  counter[t] = counter[t] + 1;  // F: more code
  __threadfence();
  simtsync_unlock(&lock[t]);  // G
}
