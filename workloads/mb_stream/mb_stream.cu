// mb_stream: streaming-bandwidth microbenchmark. Every thread of a grid copies 4-byte words
// from src to dst in a grid-stride loop, so each warp's accesses coalesce into whole lines and
// the copy is limited by the memory system's bandwidth, not by latency.
// Thread 0 of every CTA reads clock64 when the CTA starts and again once all of the CTA's
// threads have issued their copies and fenced them (__threadfence waits until the stores are
// performed, __syncthreads until every thread got there). The host takes the kernel's span as
// max(end) - min(start) over the CTAs.
extern "C" __global__ void mb_stream(const unsigned* src, unsigned* dst, int n,
                                     unsigned long long* start, unsigned long long* end) {
  if (threadIdx.x == 0) start[blockIdx.x] = clock64();
  __syncthreads();
  const int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) dst[i] = src[i];
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) end[blockIdx.x] = clock64();
}
