// syncval_tiny_lock: the validation kernel of seed 001 sec. 5 synchronized with lock bits (the
// tiny_lock scheme, Listing 13): thread t produces A[t+32] and holds that word's lock bit from
// the start (LDSLK without checking: nobody else has asked yet); its consumer t+32 waits by
// retrying LDSLK on the same word until it takes the bit, which also reads the value; the
// producer frees the bit with the STSUL that stores its result, and the consumer frees the
// producer's bit again by storing back what it read (finalize). No shared memory besides A:
// 512 lock bits in all (seed 001 Table 1).
#include "simtsync.cuh"

extern "C" __global__ void syncval_tiny_lock(const int* init, int* out, long long* phase) {
  __shared__ volatile int A[32 * 17];
  int tid = threadIdx.x, wid = tid >> 5, n = blockDim.x;
  if (tid < 32) A[tid] = init[blockIdx.x * 32 + tid];
  simtsync_lock_bit(&A[tid + 32]);  // the producer takes its word's lock bit
  __syncthreads();
  const long long t0 = clock64();  // the reduction phase starts
  int prev;
  if (wid > 0) {
    while (!simtsync_lock_bit(&A[tid], &prev)) {  // the consumer waits for its producer
      SIMTSYNC_SPIN_LOOP();
    }
  } else {
    prev = A[tid];
  }
  int v = prev + tid;
  simtsync_stsul(&A[tid + 32], v);          // store the result and free its lock bit
  if (wid > 0) simtsync_stsul(&A[tid], prev);  // finalize: free the producer's bit
  const long long t1 = clock64();  // ... and ends
  out[blockIdx.x * n + tid] = v;
  phase[2 * (blockIdx.x * n + tid)] = t0;
  phase[2 * (blockIdx.x * n + tid) + 1] = t1;
}
