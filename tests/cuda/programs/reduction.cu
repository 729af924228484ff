// reduction: sum of 8192 ints two ways.
//   1. blockTreeReduce: each thread adds two inputs into dynamic shared memory (extern __shared__,
//      size given as the third launch parameter), a tree reduction with __syncthreads per level,
//      then thread 0 stores the block sum and atomicAdds it into one global int.
//   2. warpShuffleReduce: grid-stride loads, __shfl_down_sync within each warp, warp sums in
//      static shared memory, a second shuffle pass in warp 0 and one atomicAdd per block.
// Both totals and the per-block sums of kernel 1 are checked against a CPU reference.

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "sample_helpers.h"

static const char* kName = "reduction";

// blockDim.x must be a power of two; each block covers 2 * blockDim.x inputs.
__global__ void blockTreeReduce(const int* in, int* blockSums, int* total, int n) {
  extern __shared__ int sdata[];
  int tid = threadIdx.x;
  int half = blockDim.x;
  int i = blockIdx.x * 2 * half + tid;
  int v = 0;
  if (i < n) v += in[i];
  if (i + half < n) v += in[i + half];
  sdata[tid] = v;
  __syncthreads();
  for (int s = half / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) {
    blockSums[blockIdx.x] = sdata[0];
    atomicAdd(total, sdata[0]);
  }
}

__device__ int warpSum(int v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// blockDim.x must be a multiple of 32 and at most 1024.
__global__ void warpShuffleReduce(const int* in, int* total, int n) {
  __shared__ int warpSums[32];
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  int v = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    v += in[i];
  }
  v = warpSum(v);
  if (lane == 0) warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int numWarps = blockDim.x / 32;
    v = (lane < numWarps) ? warpSums[lane] : 0;
    v = warpSum(v);
    if (lane == 0) atomicAdd(total, v);
  }
}

int main() {
  const int n = 8192;
  const int treeThreads = 128;
  const int treeBlocks = (n + 2 * treeThreads - 1) / (2 * treeThreads);  // 32
  const int shflThreads = 256;
  const int shflBlocks = 16;  // grid-stride: each thread handles two inputs

  int* hIn = static_cast<int*>(malloc(n * sizeof(int)));
  int* hBlockSums = static_cast<int*>(malloc(treeBlocks * sizeof(int)));
  uint32_t seed = 777u;
  for (int i = 0; i < n; ++i) hIn[i] = static_cast<int>(lcgNext(&seed) % 201u) - 100;

  int expectedTotal = 0;
  for (int i = 0; i < n; ++i) expectedTotal += hIn[i];

  int *dIn = nullptr, *dBlockSums = nullptr, *dTotals = nullptr;
  CHECK_CUDA(cudaMalloc(&dIn, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&dBlockSums, treeBlocks * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&dTotals, 2 * sizeof(int)));
  CHECK_CUDA(cudaMemcpy(dIn, hIn, n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(dTotals, 0, 2 * sizeof(int)));

  blockTreeReduce<<<treeBlocks, treeThreads, treeThreads * sizeof(int)>>>(dIn, dBlockSums, dTotals,
                                                                          n);
  CHECK_CUDA(cudaGetLastError());
  warpShuffleReduce<<<shflBlocks, shflThreads>>>(dIn, dTotals + 1, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());

  int hTotals[2] = {0, 0};
  CHECK_CUDA(cudaMemcpy(hTotals, dTotals, 2 * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(hBlockSums, dBlockSums, treeBlocks * sizeof(int), cudaMemcpyDeviceToHost));

  int result = 0;
  for (int b = 0; b < treeBlocks; ++b) {
    int expected = 0;
    for (int i = b * 2 * treeThreads; i < (b + 1) * 2 * treeThreads && i < n; ++i) {
      expected += hIn[i];
    }
    if (hBlockSums[b] != expected) {
      printf("FAILED %s: tree block sum %d = %d, expected %d\n", kName, b, hBlockSums[b], expected);
      result = 1;
      break;
    }
  }
  if (result == 0 && hTotals[0] != expectedTotal) {
    printf("FAILED %s: tree total = %d, expected %d\n", kName, hTotals[0], expectedTotal);
    result = 1;
  }
  if (result == 0 && hTotals[1] != expectedTotal) {
    printf("FAILED %s: shuffle total = %d, expected %d\n", kName, hTotals[1], expectedTotal);
    result = 1;
  }

  CHECK_CUDA(cudaFree(dIn));
  CHECK_CUDA(cudaFree(dBlockSums));
  CHECK_CUDA(cudaFree(dTotals));
  free(hIn);
  free(hBlockSums);
  printf("sum: %d\n", expectedTotal);
  if (result == 0) printf("PASSED %s\n", kName);
  return result;
}
