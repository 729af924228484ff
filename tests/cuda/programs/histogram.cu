// histogram: 256-bin histogram of 10000 bytes. Each block clears a __shared__ histogram, counts
// its grid-stride share of the input with shared-memory atomicAdd, then merges its bins into the
// global histogram with global atomicAdd. The global histogram is cleared with cudaMemset. The
// input is skewed (a third of the bytes fall in 16 hot bins) to create atomic contention.

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "sample_helpers.h"

static const char* kName = "histogram";

#define NUM_BINS 256

__global__ void histogram256(const unsigned char* data, unsigned int* bins, int n) {
  __shared__ unsigned int localBins[NUM_BINS];
  for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x) localBins[b] = 0;
  __syncthreads();

  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    atomicAdd(&localBins[data[i]], 1u);
  }
  __syncthreads();

  for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x) {
    unsigned int count = localBins[b];
    if (count != 0) atomicAdd(&bins[b], count);
  }
}

int main() {
  const int n = 10000;
  const int threads = 256;
  const int blocks = 8;

  unsigned char* hData = static_cast<unsigned char*>(malloc(n));
  unsigned int hBins[NUM_BINS];
  unsigned int expected[NUM_BINS] = {0};
  uint32_t seed = 31337u;
  for (int i = 0; i < n; ++i) {
    uint32_t r = lcgNext(&seed);
    // Upper bits are the best-distributed bits of an LCG.
    hData[i] = (r % 3u == 0u) ? static_cast<unsigned char>(0x40 + ((r >> 28) & 0xF))
                              : static_cast<unsigned char>(r >> 24);
    ++expected[hData[i]];
  }

  unsigned char* dData = nullptr;
  unsigned int* dBins = nullptr;
  CHECK_CUDA(cudaMalloc(&dData, n));
  CHECK_CUDA(cudaMalloc(&dBins, NUM_BINS * sizeof(unsigned int)));
  CHECK_CUDA(cudaMemcpy(dData, hData, n, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(dBins, 0, NUM_BINS * sizeof(unsigned int)));

  histogram256<<<blocks, threads>>>(dData, dBins, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(hBins, dBins, NUM_BINS * sizeof(unsigned int), cudaMemcpyDeviceToHost));

  int result = 0;
  unsigned long long total = 0;
  for (int b = 0; b < NUM_BINS; ++b) {
    total += hBins[b];
    if (hBins[b] != expected[b] && result == 0) {
      printf("FAILED %s: bin %d = %u, expected %u\n", kName, b, hBins[b], expected[b]);
      result = 1;
    }
  }
  if (result == 0 && total != static_cast<unsigned long long>(n)) {
    printf("FAILED %s: bins sum to %llu, expected %d\n", kName, total, n);
    result = 1;
  }

  CHECK_CUDA(cudaFree(dData));
  CHECK_CUDA(cudaFree(dBins));
  free(hData);
  if (result == 0) printf("PASSED %s\n", kName);
  return result;
}
