// Corpus (issue 50): a counting semaphore across CTAs, as synchronization-primitive libraries
// write it: thread 0 of each CTA takes a permit with a compare-and-swap on the count (retrying on
// the value it got back), works inside (the number inside must never exceed the permits) and
// posts the permit back with an atomic add; the rest of the CTA waits at a barrier.
#include "sample_helpers.h"

static const char* kName = "semaphore";

__device__ int permits;
__device__ int inside, most_inside, entries;

__device__ void sem_wait() {
  int v = *(volatile int*)&permits;
  for (;;) {
    if (v > 0) {
      const int old = atomicCAS(&permits, v, v - 1);
      if (old == v) return;
      v = old;
    } else {
      v = *(volatile int*)&permits;
    }
  }
}

__global__ void users(int rounds) {
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.x == 0) {
      sem_wait();
      const int now = atomicAdd(&inside, 1) + 1;
      atomicMax(&most_inside, now);
      atomicAdd(&entries, 1);
      atomicSub(&inside, 1);
      __threadfence();
      atomicAdd(&permits, 1);  // post
    }
    __syncthreads();
  }
}

int main(int argc, char** argv) {
  const int ctas = argc > 1 ? atoi(argv[1]) : 12, rounds = argc > 2 ? atoi(argv[2]) : 4;
  const int n_permits = argc > 3 ? atoi(argv[3]) : 2;
  CHECK_CUDA(cudaMemcpyToSymbol(permits, &n_permits, sizeof n_permits));
  users<<<ctas, 64>>>(rounds);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  int most = 0, n = 0, left = 0;
  CHECK_CUDA(cudaMemcpyFromSymbol(&most, most_inside, sizeof most));
  CHECK_CUDA(cudaMemcpyFromSymbol(&n, entries, sizeof n));
  CHECK_CUDA(cudaMemcpyFromSymbol(&left, permits, sizeof left));
  if (n != ctas * rounds || most > n_permits || most < 1 || left != n_permits) {
    printf("FAILED %s: %d entries (expected %d), at most %d inside (permits %d), %d left\n", kName,
           n, ctas * rounds, most, n_permits, left);
    return 1;
  }
  printf("%s: %d entries, at most %d of %d permits in use\n", kName, n, most, n_permits);
  printf("PASSED %s\n", kName);
  return 0;
}
