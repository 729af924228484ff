// A seqlock: CTA 0 writes a record under an odd sequence number, the other CTAs read it until
// they see the same even sequence number before and after. Every reader lane reads the same
// addresses, so the retry loop is warp-uniform. SIMT-safe.
__global__ void seqlock(volatile int* seq, volatile int* record, int* out, int updates) {
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      for (int u = 1; u <= updates; ++u) {
        *seq = 2 * u - 1;
        __threadfence();
        record[0] = u;
        record[1] = -u;
        __threadfence();
        *seq = 2 * u;
      }
    }
    return;
  }
  int s1, s2, a, b;
  do {
    s1 = *seq;
    a = record[0];
    b = record[1];
    s2 = *seq;
  } while (s1 != s2 || (s1 & 1));
  out[blockIdx.x * blockDim.x + threadIdx.x] = a + b;
}
