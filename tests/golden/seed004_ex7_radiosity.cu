// Seed 004 Example 7: excerpt of radiosity (SPLASH-2). LOCK() is the MIMD spin lock; the
// UNLOCK() at D is followed by a break, the one at F is not. Expected: the LOCK spin loop
// (A) is flagged, both unlocks (D and F) redefine the lock; the outer loop is not flagged.
#define LOCK(l) while (atomicCAS((l), 0, 1) != 0) {}
#define UNLOCK(l) atomicExch((l), 0)
__global__ void ex7(int* lock, int* work, int* done, int rounds) {
  int i = 0;
  while (i < rounds) {                    // while (...)
    if (work[threadIdx.x] > i) {          // if (...)
      LOCK(lock);                         // (A)
      if (*done < (int)threadIdx.x) {     // (B)
        *done = *done + 1;                // (C)
        UNLOCK(lock);                     // (D)
        break;                            // (E)
      }
      UNLOCK(lock);                       // (F)
    }
    ++i;
  }
}                                         // (G)
