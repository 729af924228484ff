// Issue 50 item 6: idioms the analysis used to flag or explain wrongly. Expected: no loop
// flagged.
//  - seqlock: a sequence lock whose writer (thread 0 of CTA 0, selected by
//    `threadIdx.x != 0 || writes < 1`, which nvcc -O3 folds into one or.pred) takes the
//    sequence with atomicCAS and whose readers (every thread of the other CTAs) read with
//    atomicAdd(p, 0). An atomic add of 0 never changes memory, so it is a read and no
//    redefining write; the writer's loops run in one lane; the readers' retry loop may split the
//    warp, but the writes it waits for are in CTA 0's branch (warp-uniform).
//  - poll: each thread polls its own flag, which CTA 0 raises: the reason printed for it says
//    its lanes may leave in different iterations and the writes are behind a uniform branch
//    (it used to say "every exit branch is warp-uniform" whatever the loop).
__device__ unsigned seq;
__device__ int pair_a, pair_b;
__device__ int torn;

__global__ void seqlock(int writes, int reads) {
  if (blockIdx.x == 0) {
    if (threadIdx.x != 0 || writes < 1) return;
    for (int w = 1; w <= writes; ++w) {
      unsigned s;
      do {
        s = atomicAdd(&seq, 0);
      } while ((s & 1u) || atomicCAS(&seq, s, s + 1) != s);
      atomicExch(&pair_a, w);
      atomicExch(&pair_b, 1000 - w);
      atomicAdd(&seq, 1);
    }
    return;
  }
  for (int r = 0; r < reads; ++r) {
    int a, b;
    unsigned s0, s1;
    do {
      s0 = atomicAdd(&seq, 0);
      a = atomicAdd(&pair_a, 0);
      b = atomicAdd(&pair_b, 0);
      s1 = atomicAdd(&seq, 0);
    } while ((s0 & 1u) || s0 != s1);
    if (a + b != 1000) atomicAdd(&torn, 1);
  }
}

__global__ void poll(volatile int* flags, int goal, int* out) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x == 0) {
    for (int k = threadIdx.x; k < 1024; k += blockDim.x) flags[k] = goal;
    return;
  }
  while (flags[tid % 1024] != goal) {
  }
  out[tid] = 1;
}
