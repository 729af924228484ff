// scan: exclusive prefix sum of 4096 ints in three kernel launches.
//   1. blockScan: each block (256 threads) loads 512 elements into __shared__ memory and runs a
//      work-efficient (Blelloch) up-sweep / down-sweep scan with __syncthreads between levels;
//      it writes the block-local exclusive scan and the block's total.
//   2. blockScan again, as a single block over the 8 block totals, giving each block's offset.
//   3. addBlockOffsets: adds each block's offset to its 512 elements.
// The result is compared with a sequential CPU exclusive scan.

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "sample_helpers.h"

static const char* kName = "scan";

#define SCAN_THREADS 256
#define SCAN_ELEMS (2 * SCAN_THREADS)

// Exclusive scan of each SCAN_ELEMS-element chunk of in[0..n). If blockSums is not null, the
// chunk total is stored in blockSums[blockIdx.x]. Launch with SCAN_THREADS threads per block.
__global__ void blockScan(const int* in, int* out, int* blockSums, int n) {
  __shared__ int temp[SCAN_ELEMS];
  int tid = threadIdx.x;
  int base = blockIdx.x * SCAN_ELEMS;
  temp[tid] = (base + tid < n) ? in[base + tid] : 0;
  temp[tid + SCAN_THREADS] = (base + tid + SCAN_THREADS < n) ? in[base + tid + SCAN_THREADS] : 0;

  // Up-sweep: build partial sums in place; after it temp[SCAN_ELEMS - 1] is the chunk total.
  int offset = 1;
  for (int d = SCAN_ELEMS / 2; d > 0; d /= 2) {
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  __syncthreads();
  if (tid == 0) {
    if (blockSums != nullptr) blockSums[blockIdx.x] = temp[SCAN_ELEMS - 1];
    temp[SCAN_ELEMS - 1] = 0;
  }

  // Down-sweep: push the prefixes back down the tree.
  for (int d = 1; d < SCAN_ELEMS; d *= 2) {
    offset /= 2;
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      int t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  __syncthreads();

  if (base + tid < n) out[base + tid] = temp[tid];
  if (base + tid + SCAN_THREADS < n) out[base + tid + SCAN_THREADS] = temp[tid + SCAN_THREADS];
}

// Adds offsets[blockIdx.x] to the SCAN_ELEMS-element chunk of data handled by this block.
__global__ void addBlockOffsets(int* data, const int* offsets, int n) {
  int add = offsets[blockIdx.x];
  int i = blockIdx.x * SCAN_ELEMS + threadIdx.x;
  if (i < n) data[i] += add;
  if (i + SCAN_THREADS < n) data[i + SCAN_THREADS] += add;
}

int main() {
  const int n = 4096;
  const int blocks = (n + SCAN_ELEMS - 1) / SCAN_ELEMS;  // 8; the second pass needs <= SCAN_ELEMS

  int* hIn = static_cast<int*>(malloc(n * sizeof(int)));
  int* hOut = static_cast<int*>(malloc(n * sizeof(int)));
  uint32_t seed = 4242u;
  for (int i = 0; i < n; ++i) hIn[i] = static_cast<int>(lcgNext(&seed) >> 27);  // 0..31

  int *dIn = nullptr, *dOut = nullptr, *dBlockSums = nullptr, *dBlockOffsets = nullptr;
  CHECK_CUDA(cudaMalloc(&dIn, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&dOut, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&dBlockSums, blocks * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&dBlockOffsets, blocks * sizeof(int)));
  CHECK_CUDA(cudaMemcpy(dIn, hIn, n * sizeof(int), cudaMemcpyHostToDevice));

  blockScan<<<blocks, SCAN_THREADS>>>(dIn, dOut, dBlockSums, n);
  CHECK_CUDA(cudaGetLastError());
  blockScan<<<1, SCAN_THREADS>>>(dBlockSums, dBlockOffsets, nullptr, blocks);
  CHECK_CUDA(cudaGetLastError());
  addBlockOffsets<<<blocks, SCAN_THREADS>>>(dOut, dBlockOffsets, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(hOut, dOut, n * sizeof(int), cudaMemcpyDeviceToHost));

  int result = 0;
  int running = 0;
  for (int i = 0; i < n; ++i) {
    if (hOut[i] != running) {
      printf("FAILED %s: out[%d] = %d, expected %d\n", kName, i, hOut[i], running);
      result = 1;
      break;
    }
    running += hIn[i];
  }

  CHECK_CUDA(cudaFree(dIn));
  CHECK_CUDA(cudaFree(dOut));
  CHECK_CUDA(cudaFree(dBlockSums));
  CHECK_CUDA(cudaFree(dBlockOffsets));
  free(hIn);
  free(hOut);
  if (result == 0) printf("PASSED %s\n", kName);
  return result;
}
