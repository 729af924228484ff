// mb_alias: the lock-bit deadlocks of seed 001 sec. 4.4. Thread t takes the lock bit of word
// words[t], then the bit of words[(t + stride) % kWords], and frees both. Words 1024 apart share
// a lock bit (`sm.shared.lock_bits`), so with stride 1024 every thread waits for the bit it
// already holds (alias deadlock, sec. 4.4.2); with stride 1, lane t waits for lane t + 1 of its
// own warp, which holds that bit and cannot free it apart from the lanes waiting for it (SIMD
// deadlock, sec. 4.4.1). A stride whose second words' bits are nobody's first (512 with up to
// 512 threads) completes.
#include "simtsync.cuh"

constexpr int kWords = 2048;

extern "C" __global__ void mb_alias(int stride, int* out) {
  __shared__ int words[kWords];
  const int t = threadIdx.x;
  for (int w = t; w < kWords; w += blockDim.x) words[w] = w;
  __syncthreads();
  const int second = (t + stride) % kWords;
  int mine = 0, other = 0;
  while (!simtsync_lock_bit(&words[t], &mine)) SIMTSYNC_SPIN_LOOP();
  while (!simtsync_lock_bit(&words[second], &other)) SIMTSYNC_SPIN_LOOP();
  simtsync_stsul(&words[second], other);
  simtsync_stsul(&words[t], mine);
  out[blockIdx.x * blockDim.x + t] = other;
}
