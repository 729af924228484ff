// histo: saturating histogram (the Parboil histo algorithm). Each CTA clears a private
// histogram in shared memory (barrier), adds its grid-strided share of the input with shared
// atomics (barrier), and flushes the non-zero bins to the global histogram with global atomics.
// histo_final saturates the bins to 8 bits.
extern "C" __global__ void histo(const unsigned* in, int n, int nbins, unsigned* bins) {
  extern __shared__ unsigned priv[];
  for (int b = threadIdx.x; b < nbins; b += blockDim.x) priv[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&priv[in[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < nbins; b += blockDim.x)
    if (priv[b] != 0) atomicAdd(&bins[b], priv[b]);
}

extern "C" __global__ void histo_final(const unsigned* bins, int nbins, unsigned char* out) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b < nbins) out[b] = static_cast<unsigned char>(min(bins[b], 255u));
}
