// Issue 13: the seed 003 Fig. 1 spin lock in helper functions, compiled with -O0 -G (as the
// seed authors' scripts do): the helpers stay `.func` bodies and atomicCAS/atomicExch become
// calls of the ptxas builtins __iAtomicCAS/__iAtomicExch. Expected: after inlining, the CAS
// loop of acquire() is flagged, with release()'s atomicExch as its redefining write.
__device__ void acquire(int* mutex) {
  while (atomicCAS(mutex, 0, 1) != 0) {
  }
}
__device__ void release(int* mutex) {
  __threadfence();
  atomicExch(mutex, 0);
}
__global__ void spin_O0(int* mutex, int* counter) {
  acquire(mutex);
  *counter = *counter + 1;
  release(mutex);
}
