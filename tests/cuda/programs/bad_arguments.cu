// bad_arguments: runtime calls whose arguments a program got wrong must fail with the error
// CUDA gives, not succeed on a wrapped size or crash (issue 45): a pitched allocation whose
// pitch * height does not fit in 64 bits, symbol copies at an offset that wraps (a __constant__
// and a __device__ variable, both directions), a copy to a device address at the top of the
// address space, and copies with a null host pointer (H2D, D2H, async). A small kernel must then
// still run correctly. PASSED needs all of it.

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#include "sample_helpers.h"

static const char* kName = "bad_arguments";

__constant__ int cFactor[4];
__device__ int dTotal[4];

__global__ void scaleKernel(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    data[i] *= cFactor[0];
    atomicAdd(&dTotal[0], data[i]);
  }
}

static int failures = 0;

static void expect(const char* what, cudaError_t got, cudaError_t want) {
  // Every error here is a non-sticky argument error: clear it before the next call.
  cudaGetLastError();
  if (got != want) {
    printf("FAILED %s: %s returned %d (%s), expected %d (%s)\n", kName, what, static_cast<int>(got),
           cudaGetErrorName(got), static_cast<int>(want), cudaGetErrorName(want));
    ++failures;
  } else {
    printf("%s: %s\n", what, cudaGetErrorName(got));
  }
}

int main() {
  void* pitched = nullptr;
  size_t pitch = 0;
  const size_t big = size_t{1} << 33;
  expect("cudaMallocPitch(2^33 x 2^33)", cudaMallocPitch(&pitched, &pitch, big, big),
         cudaErrorMemoryAllocation);

  int h[4] = {3, 3, 3, 3};
  const size_t wrap = static_cast<size_t>(-4);
  expect("cudaMemcpyFromSymbol(__constant__, offset -4)", cudaMemcpyFromSymbol(h, cFactor, 4, wrap),
         cudaErrorInvalidValue);
  expect("cudaMemcpyFromSymbol(__device__, offset -4)", cudaMemcpyFromSymbol(h, dTotal, 4, wrap),
         cudaErrorInvalidValue);
  expect("cudaMemcpyToSymbol(__constant__, offset -4)", cudaMemcpyToSymbol(cFactor, h, 4, wrap),
         cudaErrorInvalidValue);
  expect("cudaMemcpyToSymbol(__device__, offset -4)", cudaMemcpyToSymbol(dTotal, h, 4, wrap),
         cudaErrorInvalidValue);

  expect("cudaMemcpy((void*)-4, h, 4, H2D)",
         cudaMemcpy(reinterpret_cast<void*>(wrap), h, 4, cudaMemcpyHostToDevice),
         cudaErrorInvalidValue);
  expect("cudaMemcpy(h, (void*)-4, 4, D2H)",
         cudaMemcpy(h, reinterpret_cast<void*>(wrap), 4, cudaMemcpyDeviceToHost),
         cudaErrorInvalidValue);

  const int n = 64;
  int* d = nullptr;
  CHECK_CUDA(cudaMalloc(&d, n * sizeof(int)));
  expect("cudaMemcpy(d, nullptr, 16, H2D)", cudaMemcpy(d, nullptr, 16, cudaMemcpyHostToDevice),
         cudaErrorInvalidValue);
  expect("cudaMemcpy(nullptr, d, 16, D2H)", cudaMemcpy(nullptr, d, 16, cudaMemcpyDeviceToHost),
         cudaErrorInvalidValue);
  expect("cudaMemcpyAsync(d, nullptr, 16, H2D)",
         cudaMemcpyAsync(d, nullptr, 16, cudaMemcpyHostToDevice, 0), cudaErrorInvalidValue);
  expect("cudaMemcpyAsync(nullptr, d, 16, D2H)",
         cudaMemcpyAsync(nullptr, d, 16, cudaMemcpyDeviceToHost, 0), cudaErrorInvalidValue);

  int hData[n];
  int sum = 0;
  for (int i = 0; i < n; ++i) {
    hData[i] = i - 20;
    sum += 3 * (i - 20);
  }
  CHECK_CUDA(cudaMemcpyToSymbol(cFactor, h, sizeof h));
  CHECK_CUDA(cudaMemcpy(d, hData, n * sizeof(int), cudaMemcpyHostToDevice));
  scaleKernel<<<2, 32>>>(d, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(hData, d, n * sizeof(int), cudaMemcpyDeviceToHost));
  int total = 0;
  CHECK_CUDA(cudaMemcpyFromSymbol(&total, dTotal, sizeof total));
  CHECK_CUDA(cudaFree(d));
  for (int i = 0; i < n; ++i)
    if (hData[i] != 3 * (i - 20)) {
      printf("FAILED %s: data[%d] = %d, expected %d\n", kName, i, hData[i], 3 * (i - 20));
      return 1;
    }
  if (total != sum) {
    printf("FAILED %s: total %d, expected %d\n", kName, total, sum);
    return 1;
  }
  if (failures) return 1;
  printf("PASSED %s\n", kName);
  return 0;
}
