// stn: iterative 2D Jacobi stencil in one persistent launch. Each CTA owns a band of rows; per
// iteration it stages its band plus one halo row above and below in shared memory (barrier),
// writes the 5-point average of every interior cell to the other buffer, and then waits at a
// global barrier across all CTAs (an atomic arrival counter and a spin wait) before the next
// iteration reads what its neighbours wrote. All CTAs must be co-resident.
#include "simtsync.cuh"

__device__ void grid_barrier(unsigned* arrived, unsigned target) {
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(arrived, 1u);
    while (*(volatile unsigned*)arrived < target) {
      SIMTSYNC_SPIN_LOOP();
    }
    __threadfence();
  }
  __syncthreads();
}

extern "C" __global__ void stn(float* g0, float* g1, unsigned* arrived, int width, int height,
                               int iterations) {
  extern __shared__ float band[];  // (rows + 2) x width
  const int rows = height / gridDim.x;
  const int first = blockIdx.x * rows;
  float* src = g0;
  float* dst = g1;
  for (int it = 0; it < iterations; ++it) {
    for (int r = -1; r <= rows; ++r) {
      const int y = first + r;
      if (y < 0 || y >= height) continue;
      for (int x = threadIdx.x; x < width; x += blockDim.x)
        band[(r + 1) * width + x] = src[y * width + x];
    }
    __syncthreads();
    for (int r = 0; r < rows; ++r) {
      const int y = first + r;
      const float* c = band + (r + 1) * width;
      for (int x = threadIdx.x; x < width; x += blockDim.x) {
        float v = c[x];
        if (y > 0 && y < height - 1 && x > 0 && x < width - 1)
          v = 0.2f * (c[x] + c[x - width] + c[x + width] + c[x - 1] + c[x + 1]);
        dst[y * width + x] = v;
      }
    }
    grid_barrier(arrived, (it + 1) * gridDim.x);
    float* t = src;
    src = dst;
    dst = t;
  }
}
