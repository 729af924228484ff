// chan_atomic (and chan_intra_warp_atomic): the stencil of chan_common.cuh with the same shared
// channels as chan_shared, but each channel guarded by an atomic spin lock, a mutex word beside
// the value word (seed 001 Listing 5; Listing 2's atomicCAS lock): the producer holds its mutex
// from the start (a plain store before the __syncthreads, nobody else touches it yet), stores
// its value and releases the mutex with atomicExch; a consumer takes the mutex with atomicCAS,
// reads the value and releases the mutex again (restores the token). Consumers of one producer
// share a warp, and with the lane-major mapping so do producer and consumer, so the retry loop
// is the critical-section scheme of Listing 7 (release before the reconvergence point).
//
// Dynamic shared memory: 2 x rows x cols words (values, then mutexes).
#include "chan_common.cuh"
#include "simtsync.cuh"

extern "C" __global__ void chan_atomic(const unsigned* in, unsigned* out, int rows, int cols,
                                       int lane_major, long long* phase) {
  extern __shared__ int chan_words[];
  volatile int* v = chan_words;
  int* mutex = chan_words + rows * cols;
  int r, c;
  chan_cell(threadIdx.x, rows, cols, lane_major, r, c);
  const int me = r * cols + c;
  if (r == 0) v[me] = static_cast<int>(in[blockIdx.x * cols + c]);
  mutex[me] = r == 0 ? 0 : 1;  // lock(&mutex[me]): the producer holds it until it fires
  __syncthreads();
  const long long t0 = clock64();
  unsigned result = 0;
  if (r == 0) {
    result = static_cast<unsigned>(v[me]);
  } else {
    const int up = (r - 1) * cols;
    const int left = up + (c + cols - 1) % cols, centre = up + c, right = up + (c + 1) % cols;
    bool got_a = false, got_b = false, got_d = false, done = false;
    unsigned a = 0, b = 0, d = 0;
    while (!done) {
      if (!got_a && atomicCAS(&mutex[left], 0, 1) == 0) {
        a = static_cast<unsigned>(v[left]);
        got_a = true;
        atomicExch(&mutex[left], 0);  // restore the token
      }
      if (!got_b && atomicCAS(&mutex[centre], 0, 1) == 0) {
        b = static_cast<unsigned>(v[centre]);
        got_b = true;
        atomicExch(&mutex[centre], 0);
      }
      if (!got_d && atomicCAS(&mutex[right], 0, 1) == 0) {
        d = static_cast<unsigned>(v[right]);
        got_d = true;
        atomicExch(&mutex[right], 0);
      }
      done = got_a && got_b && got_d;
      if (done) {  // fire
        result = chan_mix(a, b, d, r, c);
        v[me] = static_cast<int>(result);
        __threadfence_block();
        atomicExch(&mutex[me], 0);  // unlock: signal the consumers
      }
      SIMTSYNC_SPIN_LOOP();
    }
  }
  chan_phase(phase, t0);
  out[static_cast<long long>(blockIdx.x) * rows * cols + me] = result;
}
