// chan_shared (and chan_intra_warp): the stencil of chan_common.cuh with resource-preferred
// shared channels on lock bits (seed 001 Fig. 8, Listing 6): a cell's channel is its own word
// and that word's lock bit, shared by its three consumers. The producer takes the bit at the
// start (LDSLK without checking, before the __syncthreads: seed 001 sec. 4.4.2) and fires with
// the STSUL that stores its value and frees the bit. A consumer takes the token with an LDSLK
// attempt, which also reads the value, and restores it at once with an STSUL of what it read,
// so the other two consumers can take it too.
//
// Consumers of one producer sit in one warp, and with the lane-major mapping (chan_intra_warp)
// so do producer and consumer, so the retry loop is the critical-section scheme of Listing 8:
// one loop body where a lane that takes a token restores it, and a lane that fires frees its
// own bit, in the same divergent path (sec. 4.4.1). `naive` = 1 replaces it with Listing 6's
// waitlock loops followed by the unlocks: with producer and consumer in one warp that is a SIMD
// deadlock (the producer lane leaves its loop and waits at the reconvergence point, holding the
// bit its consumer lanes spin on).
//
// Dynamic shared memory: rows x cols words, one lock bit each (at most 1024 cells per CTA).
#include "chan_common.cuh"
#include "simtsync.cuh"

extern "C" __global__ void chan_shared(const unsigned* in, unsigned* out, int rows, int cols,
                                       int lane_major, int naive, long long* phase) {
  extern __shared__ int chan_words[];
  volatile int* v = chan_words;
  int r, c;
  chan_cell(threadIdx.x, rows, cols, lane_major, r, c);
  const int me = r * cols + c;
  if (r == 0)
    v[me] = static_cast<int>(in[blockIdx.x * cols + c]);  // inputs: never locked
  else
    simtsync_tiny_lock(&v[me]);  // the producer holds its channel until it fires
  __syncthreads();
  const long long t0 = clock64();
  unsigned result;
  if (r == 0) {
    result = static_cast<unsigned>(v[me]);
  } else {
    const int up = (r - 1) * cols;
    volatile int* left = &v[up + (c + cols - 1) % cols];
    volatile int* centre = &v[up + c];
    volatile int* right = &v[up + (c + 1) % cols];
    int a = 0, b = 0, d = 0;
    if (naive) {  // Listing 6 without the critical section: take, then restore after the loop
      b = simtsync_tiny_waitlock(centre);  // the lane-major mapping's producer in this warp first
      simtsync_tiny_unlock(centre, b);
      a = simtsync_tiny_waitlock(left);
      simtsync_tiny_unlock(left, a);
      d = simtsync_tiny_waitlock(right);
      simtsync_tiny_unlock(right, d);
      result = chan_mix(a, b, d, r, c);
      simtsync_tiny_unlock(&v[me], static_cast<int>(result));
    } else {
      bool got_a = false, got_b = false, got_d = false, done = false;
      result = 0;
      while (!done) {
        if (!got_a && simtsync_tiny_trylock(left, &a)) {
          simtsync_tiny_unlock(left, a);  // restore the token
          got_a = true;
        }
        if (!got_b && simtsync_tiny_trylock(centre, &b)) {
          simtsync_tiny_unlock(centre, b);
          got_b = true;
        }
        if (!got_d && simtsync_tiny_trylock(right, &d)) {
          simtsync_tiny_unlock(right, d);
          got_d = true;
        }
        done = got_a && got_b && got_d;
        if (done) {  // fire: store the value and free this cell's bit
          result = chan_mix(a, b, d, r, c);
          simtsync_tiny_unlock(&v[me], static_cast<int>(result));
        }
        SIMTSYNC_SPIN_LOOP();
      }
    }
  }
  chan_phase(phase, t0);
  out[static_cast<long long>(blockIdx.x) * rows * cols + me] = result;
}
