// An inter-CTA tree barrier run by lane 0 of each CTA: wait for the children's flags, raise
// the own flag, wait for the root's. Both spins are done by one lane, so they are warp-uniform
// busy-waits. SIMT-safe (all CTAs resident). The published Algorithm 1 flags both, and SSDE as
// it was before issue 13 transformed them into a switch block whose loops the analysis flags
// again: tree_barrier.old_ssde (PTX; `simtsync transform --no-uniformity --no-split-loops
// --no-inline tree_barrier.ptx`, the pre-issue-13 analysis).
__device__ void tree_sync(volatile int* flags, int nb, int gen) {
  __syncthreads();
  if (threadIdx.x == 0) {
    const int b = blockIdx.x;
    for (int c = 2 * b + 1; c <= 2 * b + 2 && c < nb; ++c)
      while (flags[c] != gen) {
      }
    if (b != 0) {
      flags[b] = gen;
      while (flags[0] != gen) {
      }
    } else {
      flags[0] = gen;
    }
  }
  __syncthreads();
}

__global__ void tree_barrier(volatile int* flags, float* data, int rounds) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int r = 1; r <= rounds; ++r) {
    data[i] = data[i] * 0.5f + r;
    tree_sync(flags, gridDim.x, r);
  }
}
