// chan_private: the stencil of chan_common.cuh with performance-preferred private channels on
// lock bits (seed 001 Fig. 9, Listing 6): every producer-consumer pair has its own channel word
// and lock bit, three per producer: channel 0 of (r, c) goes to (r+1, c+1), channel 1 to
// (r+1, c), channel 2 to (r+1, c-1). The producer takes its three bits at the start (LDSLK
// without checking, before the __syncthreads) and fires with three STSULs that store its value
// and free the bits. A consumer waits for each of its three channels with the plain waitlock
// loop (no other consumer waits for that channel, so nothing needs restoring while it works);
// it frees them at the end (the finalize STSUL of Listing 6) so that the bits are free for the
// next CTA on the same SM.
//
// Needs the row-major mapping with cols a multiple of 32: producers and consumers then sit in
// different warps and the waitlock loops cannot SIMD-deadlock. Dynamic shared memory:
// 3 x (rows - 1) x cols channel words (row rows-1 has no consumers), one lock bit each, so at
// most 1024 with 1024 lock bits: three times chan_shared's cost.
#include "chan_common.cuh"
#include "simtsync.cuh"

extern "C" __global__ void chan_private(const unsigned* in, unsigned* out, int rows, int cols,
                                        long long* phase) {
  extern __shared__ int chan_words[];
  volatile int* ch = chan_words;
  int r, c;
  chan_cell(threadIdx.x, rows, cols, 0, r, c);
  const int me = r * cols + c;
  volatile int* mine = &ch[3 * me];  // this cell's three outgoing channels
  if (r == 0) {
    const int x = static_cast<int>(in[blockIdx.x * cols + c]);
    mine[0] = x;
    mine[1] = x;
    mine[2] = x;
  } else if (r < rows - 1) {
    simtsync_tiny_lock(&mine[0]);
    simtsync_tiny_lock(&mine[1]);
    simtsync_tiny_lock(&mine[2]);
  }
  __syncthreads();
  const long long t0 = clock64();
  unsigned result;
  if (r == 0) {
    result = static_cast<unsigned>(mine[1]);
  } else {
    const int up = (r - 1) * cols;
    volatile int* from_left = &ch[3 * (up + (c + cols - 1) % cols) + 0];
    volatile int* from_centre = &ch[3 * (up + c) + 1];
    volatile int* from_right = &ch[3 * (up + (c + 1) % cols) + 2];
    const int a = simtsync_tiny_waitlock(from_left);
    const int b = simtsync_tiny_waitlock(from_centre);
    const int d = simtsync_tiny_waitlock(from_right);
    result = chan_mix(a, b, d, r, c);
    if (r < rows - 1) {  // fire: one STSUL per consumer
      simtsync_tiny_unlock(&mine[0], static_cast<int>(result));
      simtsync_tiny_unlock(&mine[1], static_cast<int>(result));
      simtsync_tiny_unlock(&mine[2], static_cast<int>(result));
    }
    simtsync_tiny_unlock(from_left, a);  // finalize
    simtsync_tiny_unlock(from_centre, b);
    simtsync_tiny_unlock(from_right, d);
  }
  chan_phase(phase, t0);
  out[static_cast<long long>(blockIdx.x) * rows * cols + me] = result;
}
