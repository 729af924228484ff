// mb_bank: shared-memory bank conflicts. One warp chases indices through a table in shared
// memory, j = table[j], `iters` times. Lane l starts in group g = l / ways as member
// m = l % ways, at word m * 32 + g: the (up to) `ways` lanes of a group hit bank g with
// distinct words, and different groups hit different banks (g < 32), so every access is exactly
// `ways`-way conflicted for any ways in 1..32. The host's table moves a lane to the next member
// of its group (word ((m + 1) % ways) * 32 + g), which keeps the pattern at every step.
// Each load's address is the previous load's value, so the timed loop measures the shared
// load-to-use latency including the conflict's serialization. The sum of the loaded values is
// stored before the end clock read, so that read waits for the last load.
constexpr int kWords = 32 * 32;  // ways * 32 words at most

extern "C" __global__ void mb_bank(const unsigned* table, int ways, int iters,
                                   unsigned long long* sums, unsigned* last,
                                   unsigned long long* cycles) {
  __shared__ unsigned shared_table[kWords];
  const int l = threadIdx.x;
  for (int w = l; w < kWords; w += blockDim.x) shared_table[w] = table[w];
  __syncthreads();
  unsigned j = (l % ways) * 32 + l / ways;
  unsigned long long sum = 0;
  const long long t0 = clock64();
  for (int i = 0; i < iters; ++i) {
    j = shared_table[j];
    sum += j;
  }
  sums[l] = sum;
  const long long t1 = clock64();
  last[l] = j;
  if (l == 0) *cycles = static_cast<unsigned long long>(t1 - t0);
}
