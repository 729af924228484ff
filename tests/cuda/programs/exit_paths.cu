// exit_paths: one kernel that ends as argv[1] says (ok, fault: a store 1 GB past a buffer,
// deadlock: the naive spin lock within one warp, which SIMT-deadlocks under an IPDOM stack),
// then the program ends as argv[2] says: return, exit, _exit, abort or segv (a signal). Whatever
// the ending, `simtsync exec` must exit with the simulator's code for the kernel (0, 5, 3): it
// learns the outcome from the runtime library as the kernel ends (issue 45), not from a
// statistics file written at exit, which _exit, abort and a signal never write.

#include <cuda_runtime.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "sample_helpers.h"

static const char* kName = "exit_paths";

__global__ void finish(int* out) { out[threadIdx.x] = threadIdx.x; }

__global__ void fault(int* out, long long beyond) { out[beyond + threadIdx.x] = 1; }

__global__ void spin(int* lock, volatile int* counter) {
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  *counter = *counter + 1;
  __threadfence();
  atomicExch(lock, 0);
}

int main(int argc, char** argv) {
  if (argc != 3) {
    printf("usage: exit_paths ok|fault|deadlock return|exit|_exit|abort|segv\n");
    return 2;
  }
  int* d = nullptr;
  CHECK_CUDA(cudaMalloc(&d, 64 * sizeof(int)));
  CHECK_CUDA(cudaMemset(d, 0, 64 * sizeof(int)));
  if (strcmp(argv[1], "ok") == 0)
    finish<<<1, 32>>>(d);
  else if (strcmp(argv[1], "fault") == 0)
    fault<<<1, 32>>>(d, 1ll << 28);  // 1 GB past the buffer
  else
    spin<<<1, 32>>>(d, d + 1);
  const cudaError_t e = cudaDeviceSynchronize();
  printf("%s %s: kernel ended with %s\n", kName, argv[1], cudaGetErrorName(e));
  fflush(stdout);
  // The program ignores the error and ends "successfully", or not at all normally.
  if (strcmp(argv[2], "exit") == 0) exit(0);
  if (strcmp(argv[2], "_exit") == 0) _exit(0);
  if (strcmp(argv[2], "abort") == 0) abort();
  if (strcmp(argv[2], "segv") == 0) raise(SIGSEGV);
  return 0;
}
