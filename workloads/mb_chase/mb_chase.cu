// mb_chase: pointer-chase latency microbenchmark (after Wong et al. 2010, Mei & Chu 2017).
// One thread walks a ring of word indices, j = next[j]: every load's address is the previous
// load's value, so the loads cannot overlap and the time per step is the load-to-use latency.
// A first pass of `warm` steps brings the ring into the caches; the second, timed pass of
// `steps` loads sits between two clock64 reads.
// Each clock read is preceded by a store of the chain's current index: the store reads the
// register the last load writes, so it cannot issue before that load returns, and the clock
// read after it (ordered after every memory access by nvcc) sees the whole chain. cg != 0
// walks with ld.global.cg (__ldcg), which bypasses L1, so L2 latency shows at small footprints.

// Walks `n` steps of the ring from j; cg picks the load flavour at compile time.
template <bool kCg>
__device__ __forceinline__ unsigned walk(const unsigned* next, unsigned j, int n) {
  for (int i = 0; i < n; ++i) j = kCg ? __ldcg(&next[j]) : next[j];
  return j;
}

// out[0]: cycles of the timed pass; out[1]: index after it; out[2]: index after the warm pass.
template <bool kCg>
__device__ __forceinline__ void chase(const unsigned* next, unsigned start, int warm, int steps,
                                      unsigned long long* out) {
  unsigned j = walk<kCg>(next, start, warm);
  out[2] = j;
  const long long t0 = clock64();
  j = walk<kCg>(next, j, steps);
  out[1] = j;
  const long long t1 = clock64();
  out[0] = static_cast<unsigned long long>(t1 - t0);
}

extern "C" __global__ void mb_chase(const unsigned* next, unsigned start, int warm, int steps,
                                    int cg, unsigned long long* out) {
  if (cg)
    chase<true>(next, start, warm, steps, out);
  else
    chase<false>(next, start, warm, steps, out);
}
