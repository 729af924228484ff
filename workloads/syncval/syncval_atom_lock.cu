// syncval_atom_lock: the validation kernel of seed 001 sec. 5 (Listing 10: A[i+32] = A[i] + f(i)
// over 32*N elements, N = 16 warps, f(i) = i), synchronized with atomic spin locks in shared
// memory (the atom_lock scheme, Listing 11). Thread t produces A[t+32]; it holds mutex[t] from
// the start and releases it once A[t+32] is written; its consumer t+32 (one warp later) spins
// on that mutex before reading. Producer and consumer are in different warps, so the spin loop
// cannot SIMT-deadlock.
#include "simtsync.cuh"

extern "C" __global__ void syncval_atom_lock(const int* init, int* out, long long* phase) {
  __shared__ volatile int A[32 * 17];
  __shared__ int mutex[32 * 16];
  int tid = threadIdx.x, wid = tid >> 5, n = blockDim.x;
  if (tid < 32) A[tid] = init[blockIdx.x * 32 + tid];
  atomicExch(&mutex[tid], 1);  // the producer locks its own mutex first
  __syncthreads();
  const long long t0 = clock64();  // the reduction phase starts
  if (wid > 0) {
    while (atomicCAS(&mutex[tid - 32], 0, 1) != 0) {  // the consumer waits for its producer
      SIMTSYNC_SPIN_LOOP();
    }
  }
  int v = A[tid] + tid;
  A[tid + 32] = v;
  __threadfence_block();
  atomicExch(&mutex[tid], 0);                    // the producer releases
  if (wid > 0) atomicExch(&mutex[tid - 32], 0);  // finalize
  const long long t1 = clock64();  // ... and ends
  out[blockIdx.x * n + tid] = v;
  phase[2 * (blockIdx.x * n + tid)] = t0;
  phase[2 * (blockIdx.x * n + tid) + 1] = t1;
}
