// chan_warp_bit: the stencil of chan_common.cuh with warp-shared lock bits (seed 001 sec. 4.5,
// Listing 9) used as resource-preferred shared channels between warps: one lock bit per producer
// warp (the bit of the first word of its piece of a row), shared by every consumer warp that
// needs one of its values (with cols = 32 x W, warp k of row r reads warps k-1, k, k+1 of row
// r-1: up to three consumer warps per bit, where syncval_warp_vote has one). Row-major mapping,
// cols a multiple of 32.
//
// A producer warp takes its bit at the start (every lane asks, one gets it: Listing 9's Lock),
// stores its 32 values with plain stores, and its lane 0, the representative, frees the bit with
// the STSUL of its own value (Unlock) after __syncwarp. A consumer warp takes each producer
// warp's token with Listing 9's Waitlock (every lane retries LDSLK until a vote says one lane
// took it; with the warp converged that is lane 0) and restores it at once (lane 0 stores the
// value back), then reads its three values: the producers have fired, their words are final.
// (rows x cols) / 32 lock bits per CTA.
#include "chan_common.cuh"
#include "simtsync.cuh"

extern "C" __global__ void chan_warp_bit(const unsigned* in, unsigned* out, int rows, int cols,
                                         long long* phase) {
  extern __shared__ int chan_words[];
  volatile int* v = chan_words;
  int r, c;
  chan_cell(threadIdx.x, rows, cols, 0, r, c);
  const int me = r * cols + c;
  const int warps = cols / 32, k = c / 32;
  volatile int* my_bit = &v[r * cols + 32 * k];  // this warp's channel
  if (r == 0)
    v[me] = static_cast<int>(in[blockIdx.x * cols + c]);
  else
    simtsync_tiny_warp_lock(my_bit);
  __syncthreads();
  const long long t0 = clock64();
  unsigned result;
  if (r == 0) {
    result = static_cast<unsigned>(v[me]);
  } else {
    const int up = (r - 1) * cols;
    // The producer warps this warp reads, each once: k-1, k, k+1 (mod warps).
    for (int j = 0; j < 3 && j < warps; ++j) {
      const int p = (k + warps - 1 + j) % warps;
      volatile int* bit = &v[up + 32 * p];
      simtsync_tiny_warp_waitlock(bit);
      simtsync_tiny_warp_unlock(bit, *bit);  // restore the token (lane 0 holds it)
    }
    result = chan_mix(static_cast<unsigned>(v[up + (c + cols - 1) % cols]),
                      static_cast<unsigned>(v[up + c]),
                      static_cast<unsigned>(v[up + (c + 1) % cols]), r, c);
    v[me] = static_cast<int>(result);
    __syncwarp();
    simtsync_tiny_warp_unlock(my_bit, *my_bit);  // lane 0 frees the bit: every value is stored
  }
  chan_phase(phase, t0);
  out[static_cast<long long>(blockIdx.x) * rows * cols + me] = result;
}
