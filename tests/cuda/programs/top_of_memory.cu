// top_of_memory: a kernel that stores to and loads from the last word of the 64-bit address
// space must fault (cudaErrorIllegalAddress; `simtsync exec` exits 5). Before issue 45 the range
// check `addr + size <= end` wrapped to 0 there, and the store and load succeeded. The program
// prints PASSED when the launch reports the fault, so the test needs both exit 5 and PASSED.

#include <cuda_runtime.h>

#include <cstdio>

static const char* kName = "top_of_memory";

__global__ void topKernel(int* out) {
  int* top = reinterpret_cast<int*>(~static_cast<unsigned long long>(3));  // 0xFFFFFFFFFFFFFFFC
  *top = 42;
  out[0] = *top;
}

int main() {
  int* d = nullptr;
  if (cudaMalloc(&d, sizeof(int)) != cudaSuccess) {
    printf("FAILED %s: cudaMalloc\n", kName);
    return 1;
  }
  topKernel<<<1, 1>>>(d);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaErrorIllegalAddress) {
    printf("FAILED %s: the kernel returned %d (%s), expected cudaErrorIllegalAddress\n", kName,
           static_cast<int>(err), cudaGetErrorName(err));
    return 1;
  }
  printf("PASSED %s: %s\n", kName, cudaGetErrorName(err));
  return 0;
}
