// The second translation unit of two_units (see two_units_a.cu).

#include <cuda_runtime.h>

namespace {
__global__ void fill(int* p) {
  p[threadIdx.x] = 2;
}
}  // namespace

cudaError_t fill_from_b(int* p) {
  fill<<<1, 32>>>(p);
  return cudaDeviceSynchronize();
}
