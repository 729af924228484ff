// two_units (with two_units_b.cu): two translation units each define a kernel named `fill` in
// an anonymous namespace, so both fat binaries hold the same kernel name with different code.
// The runtime must keep them apart: launching each unit's kernel writes that unit's value.

#include <cuda_runtime.h>

#include <cstdio>

namespace {
__global__ void fill(int* p) {
  p[threadIdx.x] = 1;
}
}  // namespace

cudaError_t fill_from_a(int* p) {
  fill<<<1, 32>>>(p);
  return cudaDeviceSynchronize();
}

cudaError_t fill_from_b(int* p);

int main() {
  int* d = nullptr;
  int h[32];
  if (cudaMalloc(&d, sizeof h) != cudaSuccess) return 1;
  int bad = 0;
  for (int round = 0; round < 2; ++round) {
    const int want = round == 0 ? 1 : 2;
    if ((round == 0 ? fill_from_a(d) : fill_from_b(d)) != cudaSuccess) {
      printf("FAILED two_units: launch %d\n", round);
      return 1;
    }
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 32; ++i) bad += h[i] != want;
  }
  if (bad) {
    printf("FAILED two_units: %d values came from the other unit's kernel\n", bad);
    return 1;
  }
  printf("PASSED two_units\n");
  return 0;
}
