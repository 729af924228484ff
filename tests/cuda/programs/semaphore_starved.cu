// Issue 50 item 4: a counting semaphore across CTAs whose count is guarded by a lock word, as
// synchronization-primitive libraries write their spinning semaphore. Thread 0 of each CTA:
//   wait: take the lock (compare-and-swap 0 -> 1); if a permit is left, take it; release the
//         lock; if none was left, try again;
//   post: spin on the lock until it is taken, give the permit back, release the lock.
// The count is read and written with plain loads and stores under the lock. A CTA that holds
// the only permit must win the lock once to post it, against CTAs that take and release the
// lock over and over while they wait. On the timing model's gtx480 it loses every race (every
// spinner's period repeats exactly, and the word is taken again a few cycles after each
// release): the watchdog names it (docs/timing-model.md, "Starvation at a compare-and-swap").
// Arguments: CTAs (15), rounds (4), permits (1), back-off (0: none; 1: a waiting CTA pauses for
// a time that grows with its CTA index and its failed tries after each one).
#include "sample_helpers.h"

static const char* kName = "semaphore_starved";

__device__ unsigned int sem_count;  // permits left + 1 (the library convention)
__device__ unsigned int sem_lock;
__device__ int entries, inside, most_inside;

__device__ void pause(int cycles) {
  const long long until = clock64() + cycles;
  while (clock64() < until) {
  }
}

// One attempt to take a permit; every thread of the CTA gets the outcome.
__device__ bool try_take() {
  __shared__ bool locked, took;
  __syncthreads();
  if (threadIdx.x == 0) {
    locked = atomicCAS(&sem_lock, 0u, 1u) == 0u;
    if (locked) __threadfence();
  }
  __syncthreads();
  if (!locked) return false;
  if (threadIdx.x == 0) {
    took = sem_count > 1;
    if (took) --sem_count;
    __threadfence();
    atomicExch(&sem_lock, 0u);
  }
  __syncthreads();
  return took;
}

__device__ void sem_wait(int backoff) {
  for (int tries = 0; !try_take(); ++tries) {
    if (backoff && threadIdx.x == 0) pause(64 * (1 + (blockIdx.x + tries) % 8));
    __syncthreads();
  }
}

__device__ void sem_post() {
  __shared__ bool locked;
  if (threadIdx.x == 0) locked = false;
  __syncthreads();
  while (!locked) {
    if (threadIdx.x == 0 && atomicCAS(&sem_lock, 0u, 1u) == 0u) {
      __threadfence();
      locked = true;
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    ++sem_count;
    __threadfence();
    atomicExch(&sem_lock, 0u);
  }
  __syncthreads();
}

__global__ void users(int rounds, int backoff) {
  for (int r = 0; r < rounds; ++r) {
    sem_wait(backoff);
    if (threadIdx.x == 0) {
      const int now = atomicAdd(&inside, 1) + 1;
      atomicMax(&most_inside, now);
      atomicAdd(&entries, 1);
      atomicSub(&inside, 1);
    }
    __syncthreads();
    sem_post();
  }
}

int main(int argc, char** argv) {
  const int ctas = argc > 1 ? atoi(argv[1]) : 15, rounds = argc > 2 ? atoi(argv[2]) : 4;
  const unsigned permits = argc > 3 ? atoi(argv[3]) : 1;
  const int backoff = argc > 4 ? atoi(argv[4]) : 0;
  const unsigned count = permits + 1;
  CHECK_CUDA(cudaMemcpyToSymbol(sem_count, &count, sizeof count));
  users<<<ctas, 64>>>(rounds, backoff);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  int n = 0, most = 0;
  unsigned left = 0;
  CHECK_CUDA(cudaMemcpyFromSymbol(&n, entries, sizeof n));
  CHECK_CUDA(cudaMemcpyFromSymbol(&most, most_inside, sizeof most));
  CHECK_CUDA(cudaMemcpyFromSymbol(&left, sem_count, sizeof left));
  if (n != ctas * rounds || most < 1 || most > static_cast<int>(permits) || left != count) {
    printf("FAILED %s: %d entries (expected %d), at most %d inside (permits %u), count %u\n",
           kName, n, ctas * rounds, most, permits, left);
    return 1;
  }
  printf("%s: %d entries, at most %d of %u permits in use\n", kName, n, most, permits);
  printf("PASSED %s\n", kName);
  return 0;
}
