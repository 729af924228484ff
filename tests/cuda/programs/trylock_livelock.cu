// Issue 50 item 3: a livelock whose memory keeps changing. Warp 0 spins on Z the classic way,
// which SIMT-deadlocks under the IPDOM stack (the lane that took Z waits at the loop's
// reconvergence point while its warp-mates spin); lane 0 of warp 1 takes Y, tries Z, releases Y
// and retries, so Y goes 0 -> 1 -> 0 for ever and memory never stays unchanged. The watchdog
// must stop it quickly in both modes (functional: the whole machine returns to an earlier
// state); under AWARE or ITS it finishes.
#include "sample_helpers.h"

static const char* kName = "trylock_livelock";

__device__ int Y, Z, counter;

__global__ void trylock(void) {
  if (threadIdx.x < 32) {
    while (atomicCAS(&Z, 0, 1) != 0) {
    }
    counter += 1;
    __threadfence();
    atomicExch(&Z, 0);
  } else if (threadIdx.x == 32) {
    for (;;) {
      if (atomicCAS(&Y, 0, 1) == 0) {
        if (atomicCAS(&Z, 0, 1) == 0) {
          counter += 100;
          __threadfence();
          atomicExch(&Z, 0);
          atomicExch(&Y, 0);
          break;
        }
        atomicExch(&Y, 0);
      }
    }
  }
}

int main() {
  trylock<<<1, 64>>>();
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  int c = 0;
  CHECK_CUDA(cudaMemcpyFromSymbol(&c, counter, sizeof c));
  if (c != 132) {
    printf("FAILED %s: counter %d, expected 132\n", kName, c);
    return 1;
  }
  printf("PASSED %s\n", kName);
  return 0;
}
