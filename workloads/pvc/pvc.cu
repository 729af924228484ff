// pvc: page view count in the MapReduce style of Mars. Each CTA takes a tile of 2*blockDim log
// entries (page ids), sorts it with a bitonic network in shared memory (a barrier between
// compare-exchange steps), and each thread that heads a run of equal page ids counts the run
// and adds it to the page's global count (the reduce step).
#define EMPTY 0xffffffffu

extern "C" __global__ void pvc(const unsigned* log, int n, unsigned* counts) {
  extern __shared__ unsigned s[];
  const int tid = threadIdx.x, half = blockDim.x, tile = 2 * blockDim.x;
  const int base = blockIdx.x * tile;
  s[tid] = base + tid < n ? log[base + tid] : EMPTY;
  s[tid + half] = base + tid + half < n ? log[base + tid + half] : EMPTY;
  for (int k = 2; k <= tile; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      __syncthreads();
      const int i = 2 * tid - (tid & (j - 1));
      const unsigned a = s[i], b = s[i + j];
      if ((a > b) == ((i & k) == 0)) s[i] = b, s[i + j] = a;
    }
  }
  __syncthreads();
  for (int p = tid; p < tile; p += half) {
    const unsigned page = s[p];
    if (page == EMPTY || (p > 0 && s[p - 1] == page)) continue;
    int q = p + 1;
    while (q < tile && s[q] == page) ++q;
    atomicAdd(&counts[page], static_cast<unsigned>(q - p));
  }
}
