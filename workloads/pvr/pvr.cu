// pvr: page view rank in the MapReduce style of Mars: ranks pages by view count (descending,
// ties by page id). Keys are (~count << 32 | page), unique. pvr_sort sorts each tile of
// 2*blockDim keys with a bitonic network in shared memory (a barrier per step); pvr_rank gives
// every key its rank: its position in its own sorted tile plus, for every other tile staged in
// shared memory in turn (barriers around each), the number of smaller keys (binary search).
#define EMPTY 0xffffffffffffffffull

extern "C" __global__ void pvr_sort(const unsigned* counts, int npages,
                                    unsigned long long* sorted) {
  extern __shared__ unsigned long long s[];
  const int tid = threadIdx.x, half = blockDim.x, tile = 2 * blockDim.x;
  const int base = blockIdx.x * tile;
  for (int p = tid; p < tile; p += half) {
    const int page = base + p;
    s[p] = page < npages ? (static_cast<unsigned long long>(~counts[page]) << 32) |
                               static_cast<unsigned>(page)
                         : EMPTY;
  }
  for (int k = 2; k <= tile; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      __syncthreads();
      const int i = 2 * tid - (tid & (j - 1));
      const unsigned long long a = s[i], b = s[i + j];
      if ((a > b) == ((i & k) == 0)) s[i] = b, s[i + j] = a;
    }
  }
  __syncthreads();
  for (int p = tid; p < tile; p += half) sorted[base + p] = s[p];
}

extern "C" __global__ void pvr_rank(const unsigned long long* sorted, int ntiles, int* rank) {
  extern __shared__ unsigned long long other[];
  const int tid = threadIdx.x, half = blockDim.x, tile = 2 * blockDim.x;
  const unsigned long long k0 = sorted[blockIdx.x * tile + tid];
  const unsigned long long k1 = sorted[blockIdx.x * tile + tid + half];
  int r0 = tid, r1 = tid + half;
  for (int t = 0; t < ntiles; ++t) {
    if (t == blockIdx.x) continue;
    __syncthreads();
    other[tid] = sorted[t * tile + tid];
    other[tid + half] = sorted[t * tile + tid + half];
    __syncthreads();
    int lo = 0, hi = tile;
    while (lo < hi) {
      const int mid = (lo + hi) >> 1;
      if (other[mid] < k0)
        lo = mid + 1;
      else
        hi = mid;
    }
    r0 += lo;
    lo = 0, hi = tile;
    while (lo < hi) {
      const int mid = (lo + hi) >> 1;
      if (other[mid] < k1)
        lo = mid + 1;
      else
        hi = mid;
    }
    r1 += lo;
  }
  if (k0 != EMPTY) rank[static_cast<unsigned>(k0)] = r0;
  if (k1 != EMPTY) rank[static_cast<unsigned>(k1)] = r1;
}
