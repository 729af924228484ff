// syncval_warp_barr: the validation kernel of seed 001 sec. 5 synchronized with warp barriers
// (the warp_barr scheme, Listing 12): warp w waits at named barrier w with a count of 64
// threads (bar.sync), which completes when warp w-1 has written its part and arrived there
// (bar.arrive, which does not wait). Barrier 0 is left to __syncthreads, so up to 16 warps use
// barriers 1..15. No busy-wait loop: the waiting is done by the barrier unit.
extern "C" __global__ void syncval_warp_barr(const int* init, int* out, long long* phase) {
  __shared__ volatile int A[32 * 17];
  int tid = threadIdx.x, wid = tid >> 5, n = blockDim.x, nwarps = n >> 5;
  if (tid < 32) A[tid] = init[blockIdx.x * 32 + tid];
  __syncthreads();
  const long long t0 = clock64();  // the reduction phase starts
  if (wid > 0) asm volatile("bar.sync %0, %1;" ::"r"(wid), "r"(64) : "memory");
  int v = A[tid] + tid;
  A[tid + 32] = v;
  if (wid + 1 < nwarps) asm volatile("bar.arrive %0, %1;" ::"r"(wid + 1), "r"(64) : "memory");
  const long long t1 = clock64();  // ... and ends
  out[blockIdx.x * n + tid] = v;
  phase[2 * (blockIdx.x * n + tid)] = t0;
  phase[2 * (blockIdx.x * n + tid) + 1] = t1;
}
