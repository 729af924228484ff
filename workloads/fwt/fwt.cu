// fwt: fast Walsh-Hadamard transform (the CUDA SDK fastWalshTransform algorithm). Butterfly
// stages with strides of at least one tile run in global memory, one launch per stage
// (fwt_global); the remaining log2(tile) stages of each tile run in shared memory (fwt_tile),
// with a barrier between stages.
extern "C" __global__ void fwt_global(float* d, int stride) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int lo = ((t & ~(stride - 1)) << 1) + (t & (stride - 1));
  const float a = d[lo], b = d[lo + stride];
  d[lo] = a + b;
  d[lo + stride] = a - b;
}

extern "C" __global__ void fwt_tile(float* d) {
  extern __shared__ float s[];
  const int tid = threadIdx.x, half = blockDim.x;
  float* base = d + static_cast<long>(blockIdx.x) * 2 * half;
  s[tid] = base[tid];
  s[tid + half] = base[tid + half];
  for (int stride = half; stride > 0; stride >>= 1) {
    __syncthreads();
    const int lo = ((tid & ~(stride - 1)) << 1) + (tid & (stride - 1));
    const float a = s[lo], b = s[lo + stride];
    s[lo] = a + b;
    s[lo + stride] = a - b;
  }
  __syncthreads();
  base[tid] = s[tid];
  base[tid + half] = s[tid + half];
}
