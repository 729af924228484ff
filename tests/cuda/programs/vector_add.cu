// vector_add: element-wise C = A + B on 4000 floats (not a multiple of the block size, so the
// bounds check matters). Tests cudaGetDeviceCount, cudaGetDeviceProperties, cudaMalloc,
// cudaMemcpy in both directions, cudaMemset, a 1D launch with the grid computed from n,
// cudaGetLastError after the launch, cudaDeviceSynchronize and cudaFree. Slots of C past n are
// pre-filled with a sentinel and must stay untouched.

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "sample_helpers.h"

static const char* kName = "vector_add";

__global__ void vectorAdd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const int n = 4000;
  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;
  const int padded = blocks * threads;  // every launched thread has a slot in C

  int deviceCount = 0;
  CHECK_CUDA(cudaGetDeviceCount(&deviceCount));
  if (deviceCount < 1) {
    printf("FAILED %s: cudaGetDeviceCount returned %d devices\n", kName, deviceCount);
    return 1;
  }
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  printf("device count: %d\n", deviceCount);
  printf("device 0: %s, %d SMs, warp size %d\n", prop.name, prop.multiProcessorCount,
         prop.warpSize);
  if (prop.multiProcessorCount < 1 || prop.warpSize < 1) {
    printf("FAILED %s: implausible device properties\n", kName);
    return 1;
  }

  float* hA = static_cast<float*>(malloc(n * sizeof(float)));
  float* hB = static_cast<float*>(malloc(n * sizeof(float)));
  float* hC = static_cast<float*>(malloc(padded * sizeof(float)));
  uint32_t seed = 12345u;
  for (int i = 0; i < n; ++i) {
    // Small integers stored as floats so that the sums are exact.
    hA[i] = static_cast<float>(static_cast<int>(lcgNext(&seed) >> 20) - 2048);
    hB[i] = static_cast<float>(static_cast<int>(lcgNext(&seed) >> 20) - 2048);
  }

  float *dA = nullptr, *dB = nullptr, *dC = nullptr;
  CHECK_CUDA(cudaMalloc(&dA, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dB, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dC, padded * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dA, hA, n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dB, hB, n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(dC, 0xFF, padded * sizeof(float)));

  vectorAdd<<<blocks, threads>>>(dA, dB, dC, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());

  CHECK_CUDA(cudaMemcpy(hC, dC, padded * sizeof(float), cudaMemcpyDeviceToHost));

  int result = 0;
  for (int i = 0; i < n; ++i) {
    float expected = hA[i] + hB[i];
    if (hC[i] != expected) {
      printf("FAILED %s: c[%d] = %f, expected %f\n", kName, i, hC[i], expected);
      result = 1;
      break;
    }
  }
  for (int i = n; result == 0 && i < padded; ++i) {
    uint32_t bits;
    memcpy(&bits, &hC[i], sizeof(bits));
    if (bits != 0xFFFFFFFFu) {
      printf("FAILED %s: c[%d] past n was written (bounds check missing)\n", kName, i);
      result = 1;
    }
  }

  CHECK_CUDA(cudaFree(dA));
  CHECK_CUDA(cudaFree(dB));
  CHECK_CUDA(cudaFree(dC));
  free(hA);
  free(hB);
  free(hC);
  if (result == 0) printf("PASSED %s\n", kName);
  return result;
}
