// unsupported_call: a runtime API a simulator is not expected to support must fail cleanly.
// cudaGraphCreate(&g, 0) has to return an error other than cudaSuccess (its message is
// printed), the error is cleared with cudaGetLastError, and a tiny kernel must then still run
// correctly. PASSED needs both. Note: on a real GPU cudaGraphCreate succeeds, so this program
// reports FAILED there by design.

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#include "sample_helpers.h"

static const char* kName = "unsupported_call";

__global__ void squareKernel(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * data[i];
}

int main() {
  cudaGraph_t graph = nullptr;
  cudaError_t graphErr = cudaGraphCreate(&graph, 0);
  if (graphErr == cudaSuccess) {
    // Deliberately no cudaGraphDestroy: keep the set of runtime symbols this program needs small.
    printf("FAILED %s: cudaGraphCreate unexpectedly succeeded\n", kName);
    return 1;
  }
  printf("cudaGraphCreate failed as expected: %d (%s)\n", static_cast<int>(graphErr),
         cudaGetErrorString(graphErr));
  // Clear the (non-sticky) error so that it is not reported by later calls.
  cudaGetLastError();

  const int n = 64;
  int hData[n];
  for (int i = 0; i < n; ++i) hData[i] = i - 20;
  int* dData = nullptr;
  CHECK_CUDA(cudaMalloc(&dData, n * sizeof(int)));
  CHECK_CUDA(cudaMemcpy(dData, hData, n * sizeof(int), cudaMemcpyHostToDevice));
  squareKernel<<<1, n>>>(dData, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(hData, dData, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(dData));

  for (int i = 0; i < n; ++i) {
    int expected = (i - 20) * (i - 20);
    if (hData[i] != expected) {
      printf("FAILED %s: data[%d] = %d, expected %d\n", kName, i, hData[i], expected);
      return 1;
    }
  }
  printf("PASSED %s\n", kName);
  return 0;
}
