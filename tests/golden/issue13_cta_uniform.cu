// Issue 13: CTA 0 publishes one round of data per iteration and raises a flag; every other CTA
// waits for the flag with all its threads (a CTA-uniform busy-wait: every lane reads the same
// address). The published Algorithm 1 flags the wait, because the flag write of the producer
// branch is parallel to it; that branch depends on blockIdx only, so no warp splits there.
// Expected: reported as a warp-uniform busy-wait, not a SIMT deadlock.
__global__ void cta_uniform(volatile int* flag, int* data, int* out, int rounds) {
  for (int r = 1; r <= rounds; ++r) {
    if (blockIdx.x == 0) {
      data[threadIdx.x] = r;
      __threadfence();
      __syncthreads();
      if (threadIdx.x == 0) *flag = r;
    } else {
      while (*flag < r) {
      }
      out[blockIdx.x * blockDim.x + threadIdx.x] += data[threadIdx.x];
    }
  }
}
