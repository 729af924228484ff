// am_mimd: the array maximum of am_simt.cu written as for a CPU (the OpenMP kernel of seed 003
// sec. V-B): after the non-blocking check, spin until the segment's lock is taken, check again,
// update, release. SIMT-deadlocks under the IPDOM stack when warp-mates pass the check together.
#include "simtsync.cuh"

extern "C" __global__ void am_mimd(const int* data, int n, int seg_len, volatile int* maxima,
                                   int* locks) {
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    int x = data[i];
    int s = i / seg_len;
    if (x > maxima[s]) {
      while (atomicCAS(&locks[s], 0, 1) != 0) {
        SIMTSYNC_SPIN_LOOP();
      }
      __threadfence();
      if (x > maxima[s]) maxima[s] = x;
      __threadfence();
      atomicExch(&locks[s], 0);
    }
  }
}
