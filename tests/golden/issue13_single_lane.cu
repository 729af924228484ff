// Issue 13: one lane per CTA takes a global lock between two barriers. The published Algorithm
// 1 flags the CAS loop (the release is reachable from its exit), but only lane 0 runs it: its
// exit branch is warp-uniform and no lane of the warp waits for it. Expected: reported as a
// warp-uniform busy-wait, not a SIMT deadlock.
__global__ void single_lane(int* lock, int* total, const int* in) {
  __shared__ int sum;
  if (threadIdx.x == 0) sum = 0;
  __syncthreads();
  atomicAdd(&sum, in[blockIdx.x * blockDim.x + threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    *total += sum;
    __threadfence();
    atomicExch(lock, 0);
  }
  __syncthreads();
}
