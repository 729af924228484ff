// mergesort: bottom-up merge sort in global memory without barriers. ms_runs sorts runs of
// RUN keys per thread by insertion sort (data-dependent inner loop); ms_pass merges pairs of
// sorted runs of `width` keys, every key moving to its rank in the merged run (binary search in
// the other run). Each CTA covers CHUNK consecutive keys with a loop whose induction variable
// steps by the CTA size, 256: a large power-of-two increment that leaves the low 8 bits of the
// loop-exit comparison unchanged (the loops that fool MODULO value hashing, seed 000 sec. VI-B).
#define THREADS 256
#define CHUNK 2048
#define RUN 8

extern "C" __global__ void ms_runs(unsigned* keys, int n) {
  const int lo = (blockIdx.x * THREADS + threadIdx.x) * RUN;
  const int hi = min(lo + RUN, n);
  for (int i = lo + 1; i < hi; ++i) {
    const unsigned k = keys[i];
    int j = i - 1;
    while (j >= lo && keys[j] > k) {
      keys[j + 1] = keys[j];
      --j;
    }
    keys[j + 1] = k;
  }
}

__device__ int count_below(unsigned key, const unsigned* s, int n, bool inclusive) {
  int lo = 0, hi = n;
  while (lo < hi) {
    const int mid = (lo + hi) >> 1;
    if (s[mid] < key || (inclusive && s[mid] == key))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

extern "C" __global__ void ms_pass(const unsigned* in, unsigned* out, int n, int width) {
  const int end = min(n, (blockIdx.x + 1) * CHUNK);
  for (int i = blockIdx.x * CHUNK + threadIdx.x; i < end; i += THREADS) {
    const int run = i / width, l = i - run * width;
    const int start = (run & ~1) * width;
    const int other = (run & 1) ? start : start + width;
    const int len = max(0, min(width, n - other));
    out[start + l + count_below(in[i], in + other, len, run & 1)] = in[i];
  }
}
