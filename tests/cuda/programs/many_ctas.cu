// many_ctas: a grid of one-thread CTAs, far more than any GPU holds at once (issue 45). Every
// CTA writes a value of its index through shared memory and a barrier. The simulator creates
// a CTA when it becomes resident and frees it when it completes, so the memory it takes
// follows the resident CTAs, not the grid. The argument is the CTA count (default 1,000,000).
// PASSED needs every element right.

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "sample_helpers.h"

static const char* kName = "many_ctas";

__global__ void stamp(unsigned* out) {
  __shared__ unsigned s;
  if (threadIdx.x == 0) s = blockIdx.x * 3 + 1;
  __syncthreads();
  out[blockIdx.x] = s;
}

int main(int argc, char** argv) {
  const unsigned n = argc > 1 ? static_cast<unsigned>(std::strtoul(argv[1], nullptr, 10)) : 1000000;
  unsigned* d = nullptr;
  CHECK_CUDA(cudaMalloc(&d, n * sizeof(unsigned)));
  CHECK_CUDA(cudaMemset(d, 0, n * sizeof(unsigned)));
  stamp<<<n, 1>>>(d);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<unsigned> h(n);
  CHECK_CUDA(cudaMemcpy(h.data(), d, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (unsigned i = 0; i < n; ++i)
    if (h[i] != i * 3 + 1) {
      printf("FAILED many_ctas: out[%u] = %u, expected %u\n", i, h[i], i * 3 + 1);
      return 1;
    }
  printf("PASSED many_ctas (%u CTAs)\n", n);
  CHECK_CUDA(cudaFree(d));
  return 0;
}
