// mb_imbalance: a known warp-phase imbalance (seed 002 Eq. 1). Each CTA runs `phases`
// warp-phases; in every phase warp w of the CTA chases (w + 1) * iters dependent loads through
// its own 32-word table in shared memory, then the CTA meets at __syncthreads() (the last phase
// ends at the exit point instead). The chain is latency-bound (one shared load in flight per
// warp; the SM's issue slots and LD/ST unit stay far from busy), so warp w's execution time in
// a phase is about (w + 1) * iters * (load-to-use latency) and for W warps
//   RTRU = sum_w (W - (w + 1)) / (W * W) = (W - 1) / (2 W)
// in every phase, barrier and exit phases alike (0.4375 for 8 warps). (An ALU chain would not
// do: with the short ALU latencies a few warps already fill the issue slots, and then the
// warps share them and finish in a different pattern.) Each thread stores its final index;
// the host recomputes it.
constexpr int kMaxWarps = 32;

extern "C" __global__ void mb_imbalance(const unsigned* next, unsigned* out, int iters,
                                        int phases) {
  __shared__ unsigned tables[kMaxWarps * 32];
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  volatile unsigned* table = tables + warp * 32;  // this warp's own copy: no CTA barrier needed
  table[lane] = next[lane];
  __syncwarp();
  unsigned j = lane;
  const int n = static_cast<int>(warp + 1) * iters;
  for (int p = 0; p < phases; ++p) {
    for (int i = 0; i < n; ++i) j = table[j];
    if (p + 1 < phases) __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = j;
}
