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

static const char* kName = "device_printf";

#define CHECK_CUDA(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      printf("FAILED %s: %s at %s:%d: %s\n", kName, #call, __FILE__, __LINE__, \
             cudaGetErrorString(err_));                                        \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

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
