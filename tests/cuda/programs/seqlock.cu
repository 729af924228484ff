// Corpus (issue 50): a sequence lock. One writer (thread 0 of CTA 0) updates a pair whose
// halves must always sum to 1000, bumping the sequence number to odd before and to even after;
// readers (thread 0 of every other CTA) retry until they read the same even number before and
// after the pair. A torn read (a pair not summing to 1000 accepted) fails the check.
#include "sample_helpers.h"

static const char* kName = "seqlock";

__device__ volatile unsigned seq;
__device__ volatile int pair_a, pair_b;
__device__ int torn, reads_done;

__global__ void seqlock(int writes, int reads) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    for (int w = 1; w <= writes; ++w) {
      seq = seq + 1;  // odd: writing
      __threadfence();
      pair_a = w;
      pair_b = 1000 - w;
      __threadfence();
      seq = seq + 1;  // even: stable
    }
    return;
  }
  for (int r = 0; r < reads; ++r) {
    int a, b;
    unsigned s0, s1;
    do {
      s0 = seq;
      __threadfence();
      a = pair_a;
      b = pair_b;
      __threadfence();
      s1 = seq;
    } while ((s0 & 1u) || s0 != s1);
    if (a + b != 1000) atomicAdd(&torn, 1);
    atomicAdd(&reads_done, 1);
  }
}

int main(int argc, char** argv) {
  const int ctas = argc > 1 ? atoi(argv[1]) : 6, writes = 50, reads = 20;
  const int a0 = 0, b0 = 1000;
  CHECK_CUDA(cudaMemcpyToSymbol(pair_a, &a0, sizeof a0));
  CHECK_CUDA(cudaMemcpyToSymbol(pair_b, &b0, sizeof b0));
  seqlock<<<ctas, 32>>>(writes, reads);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  int t = 0, n = 0;
  CHECK_CUDA(cudaMemcpyFromSymbol(&t, torn, sizeof t));
  CHECK_CUDA(cudaMemcpyFromSymbol(&n, reads_done, sizeof n));
  if (t != 0 || n != (ctas - 1) * reads) {
    printf("FAILED %s: %d torn reads, %d reads (expected %d)\n", kName, t, n, (ctas - 1) * reads);
    return 1;
  }
  printf("PASSED %s\n", kName);
  return 0;
}
