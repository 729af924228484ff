// device_printf: device-side printf with an int and a double argument. Threads 0..3 of block 0
// print one line each (the other 60 threads and block 1 print nothing); the host only checks
// that the kernel completes and cudaDeviceSynchronize succeeds. The device output is flushed by
// cudaDeviceSynchronize, so the complete expected stdout is, in this order:
//
// thread 0 of block 0: value 0 0.000000
// thread 1 of block 0: value 10 1.500000
// thread 2 of block 0: value 20 3.000000
// thread 3 of block 0: value 30 4.500000
// PASSED device_printf

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#include "sample_helpers.h"

static const char* kName = "device_printf";

__global__ void printKernel(int scale) {
  int tid = threadIdx.x;
  int bid = blockIdx.x;
  if (bid == 0 && tid < 4) {
    double d = 1.5 * tid;
    printf("thread %d of block %d: value %d %f\n", tid, bid, tid * scale, d);
  }
}

int main() {
  printKernel<<<2, 64>>>(10);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  fflush(stdout);
  printf("PASSED %s\n", kName);
  return 0;
}
