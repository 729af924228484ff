// Corpus (issue 50): a barrier across CTAs built from atomics (a sense-reversing barrier, as
// persistent-kernel codes write it), with every CTA resident. Each phase every CTA writes its
// slot and then reads its neighbour's value from the previous phase; a missed or early release
// shows as a wrong sum. Thread 0 of each CTA does the atomics; __syncthreads() around it.
#include "sample_helpers.h"

static const char* kName = "grid_barrier";

__device__ unsigned arrived;
__device__ volatile unsigned sense;

__device__ void grid_sync(unsigned* local_sense) {
  __syncthreads();
  if (threadIdx.x == 0) {
    const unsigned s = *local_sense ^ 1u;
    *local_sense = s;
    __threadfence();
    if (atomicAdd(&arrived, 1) == gridDim.x - 1) {
      arrived = 0;
      __threadfence();
      sense = s;
    } else {
      while (sense != s) {
      }
    }
    __threadfence();
  }
  __syncthreads();
}

__global__ void phases(int* slots, int* sums, int rounds) {
  __shared__ unsigned local_sense;
  if (threadIdx.x == 0) local_sense = 0;
  const int me = blockIdx.x, right = (blockIdx.x + 1) % gridDim.x;
  int sum = 0;
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.x == 0) slots[(r % 2) * gridDim.x + me] = me * 100 + r;
    grid_sync(&local_sense);
    if (threadIdx.x == 0) sum += slots[(r % 2) * gridDim.x + right];
  }
  if (threadIdx.x == 0) sums[me] = sum;
}

int main(int argc, char** argv) {
  const int ctas = argc > 1 ? atoi(argv[1]) : 8, rounds = argc > 2 ? atoi(argv[2]) : 6;
  int *d_slots, *d_sums;
  CHECK_CUDA(cudaMalloc(&d_slots, 2 * ctas * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_sums, ctas * sizeof(int)));
  phases<<<ctas, 64>>>(d_slots, d_sums, rounds);
  CHECK_CUDA(cudaGetLastError());
  int sums[1024];
  CHECK_CUDA(cudaMemcpy(sums, d_sums, ctas * sizeof(int), cudaMemcpyDeviceToHost));
  for (int c = 0; c < ctas; ++c) {
    int want = 0;
    for (int r = 0; r < rounds; ++r) want += ((c + 1) % ctas) * 100 + r;
    if (sums[c] != want) {
      printf("FAILED %s: CTA %d summed %d, expected %d\n", kName, c, sums[c], want);
      return 1;
    }
  }
  printf("PASSED %s\n", kName);
  return 0;
}
