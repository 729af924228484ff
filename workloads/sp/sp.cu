// sp: scalar products of many vector pairs (the CUDA SDK scalarProd algorithm). Each CTA takes
// vector pairs in turn; every thread accumulates a strided partial sum, then the CTA reduces the
// partial sums in shared memory with a barrier after every halving step.
extern "C" __global__ void sp(const float* a, const float* b, float* out, int nvec, int len) {
  extern __shared__ float acc[];
  const int tid = threadIdx.x;
  for (int v = blockIdx.x; v < nvec; v += gridDim.x) {
    const float* x = a + static_cast<long>(v) * len;
    const float* y = b + static_cast<long>(v) * len;
    float s = 0.0f;
    for (int i = tid; i < len; i += blockDim.x) s += x[i] * y[i];
    acc[tid] = s;
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      if (tid < stride) acc[tid] += acc[tid + stride];
    }
    if (tid == 0) out[v] = acc[0];
    __syncthreads();
  }
}
