// launch_ex: cudaLaunchKernelEx with a performance-hint attribute (stream priority) and
// cudaPointerGetAttributes on device, pinned, managed and ordinary host memory.

#include <cuda_runtime.h>

#include "sample_helpers.h"

static const char* kName = "launch_ex";

__global__ void addOffset(int* v, int offset) {
  v[threadIdx.x] += offset;
}

static bool expectType(const void* p, cudaMemoryType want, const char* what) {
  cudaPointerAttributes a;
  CHECK_CUDA(cudaPointerGetAttributes(&a, p));
  if (a.type != want)
    printf("FAILED %s: %s has memory type %d, expected %d\n", kName, what, static_cast<int>(a.type),
           static_cast<int>(want));
  return a.type == want;
}

int main() {
  int* d = nullptr;
  int* pinned = nullptr;
  int* managed = nullptr;
  int plain[32];
  CHECK_CUDA(cudaMalloc(&d, sizeof plain));
  CHECK_CUDA(cudaMallocHost(&pinned, sizeof plain));
  CHECK_CUDA(cudaMallocManaged(&managed, sizeof plain));
  bool ok = expectType(d, cudaMemoryTypeDevice, "cudaMalloc memory") &&
            expectType(pinned, cudaMemoryTypeHost, "cudaMallocHost memory") &&
            expectType(managed, cudaMemoryTypeManaged, "cudaMallocManaged memory") &&
            expectType(plain, cudaMemoryTypeUnregistered, "a stack array");
  if (!ok) return 1;

  for (int i = 0; i < 32; ++i) managed[i] = i;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(1);
  config.blockDim = dim3(32);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributePriority;
  attr[0].val.priority = 0;
  config.attrs = attr;
  config.numAttrs = 1;
  CHECK_CUDA(cudaLaunchKernelEx(&config, addOffset, managed, 100));
  CHECK_CUDA(cudaDeviceSynchronize());
  for (int i = 0; i < 32; ++i) {
    if (managed[i] != i + 100) {
      printf("FAILED %s: element %d is %d, expected %d\n", kName, i, managed[i], i + 100);
      return 1;
    }
  }
  printf("PASSED %s\n", kName);
  return 0;
}
