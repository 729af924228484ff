// spin_lock: the classic naive SIMT spin lock. Every thread of 4 blocks x 64 threads acquires a
// global lock with atomicCAS, increments a global counter non-atomically (volatile load and
// store), issues __threadfence and releases the lock with atomicExch. The host checks that the
// counter equals the number of threads.
//
// Expected to deadlock under an IPDOM stack and to finish under independent thread scheduling.
//
// Why: the acquire loop and the critical section are separate code. Under a stack-based (IPDOM)
// reconvergence model the one lane of a warp that wins the CAS leaves the loop and waits at the
// loop's immediate post-dominator for its siblings, which keep spinning on a lock that is only
// released after that reconvergence point: the warp never makes progress. With independent
// thread scheduling (Volta and later) the winner runs its critical section and releases the
// lock while its siblings spin, so every thread eventually gets the lock.

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#include "sample_helpers.h"

static const char* kName = "spin_lock";

__global__ void naiveSpinLock(int* lock, volatile int* counter) {
  // Acquire: spin until this thread swaps the lock from 0 to 1.
  while (atomicCAS(lock, 0, 1) != 0) {
  }

  // Critical section: a plain (non-atomic) read-modify-write of the counter.
  int value = *counter;
  *counter = value + 1;
  __threadfence();

  // Release.
  atomicExch(lock, 0);
}

int main() {
  const int blocks = 4;
  const int threads = 64;

  int *dLock = nullptr, *dCounter = nullptr;
  CHECK_CUDA(cudaMalloc(&dLock, sizeof(int)));
  CHECK_CUDA(cudaMalloc(&dCounter, sizeof(int)));
  CHECK_CUDA(cudaMemset(dLock, 0, sizeof(int)));
  CHECK_CUDA(cudaMemset(dCounter, 0, sizeof(int)));

  naiveSpinLock<<<blocks, threads>>>(dLock, dCounter);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());

  int counter = -1, lock = -1;
  CHECK_CUDA(cudaMemcpy(&counter, dCounter, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(&lock, dLock, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(dLock));
  CHECK_CUDA(cudaFree(dCounter));

  if (counter != blocks * threads) {
    printf("FAILED %s: counter = %d, expected %d\n", kName, counter, blocks * threads);
    return 1;
  }
  if (lock != 0) {
    printf("FAILED %s: lock left at %d, expected 0\n", kName, lock);
    return 1;
  }
  printf("PASSED %s\n", kName);
  return 0;
}
