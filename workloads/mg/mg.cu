// mg: MRI Cartesian gridding (the Parboil mri-gridding algorithm, in 2D). Non-uniform k-space
// samples are binned by output tile on the host; each CTA owns a 32x16 tile of the Cartesian
// grid, one thread per grid point. It walks its tile's sample list in batches staged in shared
// memory (barrier), every thread accumulates the samples within the cutoff radius weighted by
// a Kaiser-Bessel-like window (data-dependent work), and waits before the next batch (barrier).
#define TW 32
#define TH 16

extern "C" __global__ void mg(const float4* samples, const int* tile_start, int tiles_x, int grid_w,
                              float radius, float2* out) {
  __shared__ float4 batch[TW * TH];
  const int tid = threadIdx.y * TW + threadIdx.x;
  const int tile = blockIdx.y * tiles_x + blockIdx.x;
  const float gx = static_cast<float>(blockIdx.x * TW + threadIdx.x);
  const float gy = static_cast<float>(blockIdx.y * TH + threadIdx.y);
  const float r2 = radius * radius;
  const int begin = tile_start[tile], end = tile_start[tile + 1];
  float re = 0.0f, im = 0.0f;
  for (int b = begin; b < end; b += TW * TH) {
    if (b + tid < end) batch[tid] = samples[b + tid];
    __syncthreads();
    const int n = min(TW * TH, end - b);
    for (int j = 0; j < n; ++j) {
      const float4 s = batch[j];
      const float dx = s.x - gx, dy = s.y - gy;
      const float d2 = dx * dx + dy * dy;
      if (d2 < r2) {
        const float t = 1.0f - d2 / r2;
        const float w = t * t * (1.0f + 2.0f * t);
        re += w * s.z;
        im += w * s.w;
      }
    }
    __syncthreads();
  }
  out[static_cast<int>(gy) * grid_w + static_cast<int>(gx)] = make_float2(re, im);
}
