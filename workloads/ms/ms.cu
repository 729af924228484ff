// ms: merge sort (the CUDA SDK mergeSort algorithm). ms_tile sorts a tile of 2*blockDim keys in
// shared memory: log2(tile) merge passes, each placing every key of a pair of sorted runs at its
// rank in the merged run (binary search in the other run), with barriers between the passes.
// ms_merge then merges sorted runs pairwise in global memory, one launch per doubling.

// Number of keys in s[0, n) (sorted) that are < key (lower) or <= key (upper).
__device__ int rank_lower(unsigned key, const unsigned* s, int n) {
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    if (s[mid] < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}
__device__ int rank_upper(unsigned key, const unsigned* s, int n) {
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    if (s[mid] <= key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

extern "C" __global__ void ms_tile(const unsigned* in, unsigned* out) {
  extern __shared__ unsigned keys[];
  const int tid = threadIdx.x, half = blockDim.x, n = 2 * blockDim.x;
  const long base = static_cast<long>(blockIdx.x) * n;
  keys[tid] = in[base + tid];
  keys[tid + half] = in[base + tid + half];
  for (int stride = 1; stride < n; stride <<= 1) {
    const int l = tid & (stride - 1);
    unsigned* pair = keys + 2 * (tid - l);
    __syncthreads();
    const unsigned ka = pair[l], kb = pair[l + stride];
    const int pa = l + rank_lower(ka, pair + stride, stride);
    const int pb = l + rank_upper(kb, pair, stride);
    __syncthreads();
    pair[pa] = ka;
    pair[pb] = kb;
  }
  __syncthreads();
  out[base + tid] = keys[tid];
  out[base + tid + half] = keys[tid + half];
}

extern "C" __global__ void ms_merge(const unsigned* in, unsigned* out, int n, int width) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int run = i / width, l = i - run * width;
  const int start = (run & ~1) * width;
  const unsigned k = in[i];
  int pos;
  if ((run & 1) == 0)
    pos = l + rank_lower(k, in + start + width, width);
  else
    pos = l + rank_upper(k, in + start, width);
  out[start + pos] = k;
}
