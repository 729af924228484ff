// launch_limits: launches that break CUDA's limits must fail before anything runs, with the error
// CUDA gives, and leave the context usable (issue 45):
//   - a grid or block dimension over cudaDeviceProp's maxGridSize / maxThreadsDim, or more
//     threads per block than maxThreadsPerBlock: cudaErrorInvalidConfiguration (grid.x = 2^31
//     is a bad configuration, not a lack of host memory);
//   - static plus dynamic shared memory over the SM's: cudaErrorInvalidValue. With the argument
//     "static-only" the kernel's static shared memory alone is over the SM's (the test runs it
//     with a smaller sm.shared_memory_bytes), launched with no dynamic shared memory.
// A small kernel must then still run correctly. PASSED needs all of it.

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "sample_helpers.h"

static const char* kName = "launch_limits";

constexpr int kStaticInts = 10240;  // 40 KB of static shared memory

__global__ void bigSharedKernel(int* out) {
  __shared__ int buf[kStaticInts];
  extern __shared__ int dyn[];
  buf[threadIdx.x] = threadIdx.x;
  dyn[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = buf[kStaticInts - 1 - threadIdx.x] + dyn[0];
}

__global__ void addOne(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1;
}

static int failures = 0;

static void expect(const char* what, cudaError_t want) {
  // A launch's own error is not sticky: cudaGetLastError returns and clears it.
  cudaError_t got = cudaGetLastError();
  if (got != want) {
    printf("FAILED %s: %s gave %d (%s), expected %d (%s)\n", kName, what, static_cast<int>(got),
           cudaGetErrorName(got), static_cast<int>(want), cudaGetErrorName(want));
    ++failures;
  } else {
    printf("%s: %s\n", what, cudaGetErrorName(got));
  }
}

int main(int argc, char** argv) {
  const bool static_only = argc > 1 && std::strcmp(argv[1], "static-only") == 0;
  const int n = 64;
  int* d = nullptr;
  CHECK_CUDA(cudaMalloc(&d, n * sizeof(int)));
  CHECK_CUDA(cudaMemset(d, 0, n * sizeof(int)));

  if (static_only) {
    bigSharedKernel<<<1, 32>>>(d);
    expect("40 KB of static shared memory on a smaller SM", cudaErrorInvalidValue);
  } else {
    int shared_per_block = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&shared_per_block, cudaDevAttrMaxSharedMemoryPerBlock, 0));
    const size_t dynamic = static_cast<size_t>(shared_per_block) - kStaticInts * sizeof(int) + 4;
    bigSharedKernel<<<1, 32, dynamic>>>(d);
    expect("static + dynamic shared memory 4 bytes over the SM's", cudaErrorInvalidValue);

    addOne<<<dim3(0x80000000u), 1>>>(d, n);
    expect("grid.x = 2^31", cudaErrorInvalidConfiguration);
    addOne<<<dim3(1, 65536), 1>>>(d, n);
    expect("grid.y = 65536", cudaErrorInvalidConfiguration);
    addOne<<<dim3(1, 1, 65536), 1>>>(d, n);
    expect("grid.z = 65536", cudaErrorInvalidConfiguration);
    addOne<<<1, dim3(1025)>>>(d, n);
    expect("block.x = 1025", cudaErrorInvalidConfiguration);
    addOne<<<1, dim3(1, 1025)>>>(d, n);
    expect("block.y = 1025", cudaErrorInvalidConfiguration);
    addOne<<<1, dim3(1, 1, 65)>>>(d, n);
    expect("block.z = 65", cudaErrorInvalidConfiguration);
    addOne<<<1, dim3(32, 32, 2)>>>(d, n);
    expect("2048 threads per block", cudaErrorInvalidConfiguration);
  }

  // Nothing above ran, and the context still works. (The simulator charges every kernel of a
  // module with all of the module's .shared variables, so in the static-only case addOne does
  // not fit either: there the copy below shows the error was not sticky.)
  CHECK_CUDA(cudaDeviceSynchronize());
  int h[n];
  if (static_only) {
    CHECK_CUDA(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) h[i] += 1;
    CHECK_CUDA(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  } else {
    addOne<<<2, 32>>>(d, n);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
  }
  CHECK_CUDA(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(d));
  for (int i = 0; i < n; ++i)
    if (h[i] != 1) {
      printf("FAILED %s: data[%d] = %d, expected 1\n", kName, i, h[i]);
      return 1;
    }
  if (failures) return 1;
  printf("PASSED %s\n", kName);
  return 0;
}
