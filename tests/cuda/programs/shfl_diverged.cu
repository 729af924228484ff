// A __shfl_sync with a full member mask that only half the warp reaches (the other lanes took
// the other side of a branch on threadIdx.x). Undefined in CUDA without independent thread
// scheduling; on the lockstep reconvergence units simtsync stops the kernel with a fault naming
// the instruction and the missing lanes (issue 50: SSDE once created this silently).
#include "sample_helpers.h"

static const char* kName = "shfl_diverged";

__global__ void half(int* out) {
  int v = static_cast<int>(threadIdx.x) * 3;
  if (threadIdx.x < 16) v = __shfl_sync(0xffffffffu, v, 0);
  out[threadIdx.x] = v;
}

int main() {
  int* d_out;
  CHECK_CUDA(cudaMalloc(&d_out, 32 * sizeof(int)));
  half<<<1, 32>>>(d_out);
  const cudaError_t e = cudaDeviceSynchronize();
  printf("%s: %s\n", kName, cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
