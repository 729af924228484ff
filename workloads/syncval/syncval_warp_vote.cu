// syncval_warp_vote: the validation kernel of seed 001 sec. 5 synchronized with one lock bit
// per warp (the warp_vote scheme, sec. 4.5, Listing 9): warp w's bit is the lock bit of the
// first word it produces, A[32w+32]. Every lane of warp w asks for it at the start (one gets
// it); the consumer warp w+1 retries LDSLK with all its lanes and leaves the loop as soon as
// a vote says one lane took the bit; lane 0, the representative, frees its warp's bit with an
// STSUL that stores its own result again, and frees the producer's bit the same way
// (finalize). 16 lock bits, no shared memory besides A.
#include "simtsync.cuh"

extern "C" __global__ void syncval_warp_vote(const int* init, int* out, long long* phase) {
  __shared__ volatile int A[32 * 17];
  int tid = threadIdx.x, wid = tid >> 5, lane = tid & 31, n = blockDim.x;
  if (tid < 32) A[tid] = init[blockIdx.x * 32 + tid];
  simtsync_lock_bit(&A[wid * 32 + 32]);  // one lane of each warp takes the warp's bit
  __syncthreads();
  const long long t0 = clock64();  // the reduction phase starts
  if (wid > 0) {
    // Wait until some lane of this warp takes the producer warp's bit.
    while (!__any_sync(0xffffffffu, simtsync_lock_bit(&A[wid * 32]))) {
      SIMTSYNC_SPIN_LOOP();
    }
  }
  int v = A[tid] + tid;
  A[tid + 32] = v;
  __syncwarp();
  if (lane == 0) {
    simtsync_stsul(&A[wid * 32 + 32], v);             // free this warp's bit
    if (wid > 0) simtsync_stsul(&A[wid * 32], A[wid * 32]);  // finalize
  }
  const long long t1 = clock64();  // ... and ends
  out[blockIdx.x * n + tid] = v;
  phase[2 * (blockIdx.x * n + tid)] = t0;
  phase[2 * (blockIdx.x * n + tid) + 1] = t1;
}
