// An inter-CTA barrier run by lane 0 of each CTA between two __syncthreads (the common public
// pattern): the last CTA to arrive resets the counter and bumps the generation, the others spin
// on the generation. Only one lane spins, so no warp can split there. SIMT-safe (all CTAs
// resident).
__device__ void grid_sync(int* arrived, volatile int* generation, int nblocks, int gen) {
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    const int old = atomicAdd(arrived, 1);
    if (old == nblocks - 1) {
      *arrived = 0;
      __threadfence();
      *generation = gen;
    } else {
      while (*generation != gen) {
      }
    }
  }
  __syncthreads();
}

__global__ void grid_barrier(int* arrived, volatile int* generation, float* data, int rounds) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int r = 1; r <= rounds; ++r) {
    data[i] = data[i] * 0.5f + r;
    grid_sync(arrived, generation, gridDim.x, r);
  }
}
