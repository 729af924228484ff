// managed_var: __managed__ variables (a scalar with an initial value and an array) read and
// written by the host directly and by kernels, coherent after each cudaDeviceSynchronize.

#include <cuda_runtime.h>

#include <cstdio>

static const char* kName = "managed_var";

__managed__ int counter = 5;
__managed__ float data[64];

__global__ void scaleAndCount(float factor) {
  const int i = threadIdx.x;
  data[i] *= factor;
  atomicAdd(&counter, 1);
}

int main() {
  if (counter != 5) {
    printf("FAILED %s: initial value %d, expected 5\n", kName, counter);
    return 1;
  }
  for (int i = 0; i < 64; ++i) data[i] = static_cast<float>(i);
  for (int round = 0; round < 2; ++round) {
    scaleAndCount<<<1, 64>>>(2.0f);
    if (cudaDeviceSynchronize() != cudaSuccess) {
      printf("FAILED %s: launch\n", kName);
      return 1;
    }
  }
  int bad = 0;
  for (int i = 0; i < 64; ++i) bad += data[i] != 4.0f * static_cast<float>(i);
  if (bad || counter != 5 + 128) {
    printf("FAILED %s: %d wrong values, counter %d (expected %d)\n", kName, bad, counter, 133);
    return 1;
  }
  printf("PASSED %s\n", kName);
  return 0;
}
