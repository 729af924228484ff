// syncval_shrd_lock: the validation kernel of seed 001 sec. 5 synchronized with one spin lock
// per warp (the shrd_lock scheme: 4 bytes per warp). Lane 0 of each warp holds its warp's lock
// from the start; lane 0 of the consumer warp spins on the producer warp's lock while its
// warp-mates wait at the reconvergence point, then the whole warp computes, and lane 0
// releases its own lock and the producer's.
#include "simtsync.cuh"

extern "C" __global__ void syncval_shrd_lock(const int* init, int* out, long long* phase) {
  __shared__ volatile int A[32 * 17];
  __shared__ int wlock[16];
  int tid = threadIdx.x, wid = tid >> 5, lane = tid & 31, n = blockDim.x;
  if (tid < 32) A[tid] = init[blockIdx.x * 32 + tid];
  if (lane == 0) atomicExch(&wlock[wid], 1);  // each warp locks its own word first
  __syncthreads();
  const long long t0 = clock64();  // the reduction phase starts
  if (wid > 0 && lane == 0) {
    while (atomicCAS(&wlock[wid - 1], 0, 1) != 0) {  // the representative waits
      SIMTSYNC_SPIN_LOOP();
    }
  }
  __syncwarp();
  int v = A[tid] + tid;
  A[tid + 32] = v;
  __threadfence_block();
  __syncwarp();
  if (lane == 0) {
    atomicExch(&wlock[wid], 0);                   // release this warp's lock
    if (wid > 0) atomicExch(&wlock[wid - 1], 0);  // finalize
  }
  const long long t1 = clock64();  // ... and ends
  out[blockIdx.x * n + tid] = v;
  phase[2 * (blockIdx.x * n + tid)] = t0;
  phase[2 * (blockIdx.x * n + tid) + 1] = t1;
}
