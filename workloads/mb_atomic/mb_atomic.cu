// mb_atomic: same-address atomic throughput. Every thread does `iters` atomicAdd(1) on one of
// `addresses` words (thread t on word t % addresses), so with one word every atomic in the grid
// serializes at that word's atomic unit.
// Each thread sums the values its atomics return. The returns are used, so nvcc emits atom (not
// the fire-and-forget red), and the thread's sum is stored before the CTA's end clock is read:
// the CTA's span covers the round trip of its last atomic. Thread 0 of every CTA records
// clock64 at the start and the end like mb_stream; the host takes max(end) - min(start).
// The returned values of one word are 0, 1, ..., k-1 in some order when its k atomics were
// atomic, so the per-thread sums also validate atomicity, not only the final count.
extern "C" __global__ void mb_atomic(unsigned* words, int addresses, int iters,
                                     unsigned long long* returned, unsigned long long* start,
                                     unsigned long long* end) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) start[blockIdx.x] = clock64();
  __syncthreads();
  unsigned* word = &words[t % addresses];
  unsigned long long sum = 0;
  for (int i = 0; i < iters; ++i) sum += atomicAdd(word, 1u);
  returned[t] = sum;
  __syncthreads();
  if (threadIdx.x == 0) end[blockIdx.x] = clock64();
}
