// Shared by the tl_chan kernels: the stencil step and the thread-to-cell mapping (tl_chan.cc
// computes the same on the CPU).
//
// Each CTA computes a grid of `rows` x `cols` cells: row 0 is the CTA's input; every other cell
//   v(r, c) = chan_mix(v(r-1, c-1), v(r-1, c), v(r-1, c+1), r, c)   (columns wrap around)
// so every producer has three consumers in the next row (seed 001 Fig. 8). One thread per cell.
// Row-major mapping: thread t computes (t / cols, t % cols), so with cols a multiple of 32 a warp
// is a piece of one row and every producer sits in another warp than its consumers. Lane-major
// mapping: thread t computes (t % rows, t / rows), so with rows = 32 a warp is one column and
// the centre producer (r-1, c) is the lane just before its consumer in the same warp.
#pragma once

__device__ __forceinline__ unsigned chan_mix(unsigned a, unsigned b, unsigned c, unsigned r,
                                             unsigned col) {
  unsigned x = a + 3u * b + 5u * c;
  x ^= x >> 15;
  x *= 0x2c1b3c6du;
  return x ^ (r * 64u + col);
}

__device__ __forceinline__ void chan_cell(int t, int rows, int cols, int lane_major, int& r,
                                          int& c) {
  if (lane_major) {
    r = t % rows;
    c = t / rows;
  } else {
    r = t / cols;
    c = t % cols;
  }
}

// Where the reduction phase starts and ends, per thread (the syncval metric, seed 001 Fig. 4).
__device__ __forceinline__ void chan_phase(long long* phase, long long t0) {
  const long long t1 = clock64();
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  phase[2 * i] = t0;
  phase[2 * i + 1] = t1;
}
