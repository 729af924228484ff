// device_assert: a kernel whose thread 37 fails a device-side assert. The launch itself
// succeeds (it is asynchronous on a GPU); cudaDeviceSynchronize must then return
// cudaErrorAssert, and the error stays (it is sticky: the context is unusable). The simulator
// names the assertion, file, line and function on stderr; `simtsync exec` exits with 5.

#include <cuda_runtime.h>

#include <cassert>
#include <cstdio>

static const char* kName = "device_assert";

__global__ void checkValues(const int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) assert(v[i] != 37 && "value 37 is not allowed");
}

int main() {
  const int n = 64;
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = i;
  int* d = nullptr;
  if (cudaMalloc(&d, sizeof h) != cudaSuccess ||
      cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice) != cudaSuccess) {
    printf("FAILED %s: set-up\n", kName);
    return 1;
  }
  checkValues<<<2, 32>>>(d, n);
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaErrorAssert) {
    printf("FAILED %s: cudaDeviceSynchronize returned %s, expected cudaErrorAssert\n", kName,
           cudaGetErrorName(e));
    return 1;
  }
  if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaErrorAssert) {
    printf("FAILED %s: the assert error is not sticky\n", kName);
    return 1;
  }
  printf("PASSED %s: %s\n", kName, cudaGetErrorString(e));
  return 0;
}
