// Test kernel for the PTX front end: local arrays, dynamic shared memory, volatile and
// read-only loads, reductions, fences, warp-level matching and bit manipulation.
extern __shared__ unsigned dyn_smem[];

__device__ unsigned g_flags[64];

__global__ void __launch_bounds__(128, 4)
    warp_misc(unsigned* out, const unsigned* __restrict__ in, volatile int* flag, int n) {
  unsigned local_buf[24];
  int tid = threadIdx.x;
  unsigned v = __ldg(in + (tid % n));
  for (int i = 0; i < 24; ++i) local_buf[i] = v * i + in[(tid + i) % n];
  dyn_smem[tid] = local_buf[v % 24];
  __syncwarp();
  unsigned peers = __match_any_sync(0xffffffffu, v & 3);
  int count = __syncthreads_count(v & 1);
  int orv = __syncthreads_or(v & 2);
  int andv = __syncthreads_and(v & 4);
  unsigned r = __brev(v) ^ __byte_perm(v, peers, 0x5410) ^ __funnelshift_l(v, peers, 5);
  r += __ffs(v) + __popcll((unsigned long long)v << 7) + __umulhi(v, peers) + __sad(v, r, 1);
  r += (v >> 3) & 0x1f;  // bfe
  r += __usad(v, peers, 2) + __mul24(tid, n) + __hadd(tid, n) + __rhadd(tid, n);
  atomicAdd(&dyn_smem[(tid + 1) % blockDim.x], r);
  atomicAdd(&g_flags[tid & 63], 1u);  // result unused: red.global.add
  atomicCAS(&dyn_smem[0], 0u, r);
  __threadfence();
  __threadfence_block();
  __threadfence_system();
  if (tid == 0) {
    while (*flag == 0) {
      __nanosleep(100);
    }
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + tid] = r + count + orv + andv + dyn_smem[tid] + clock() +
                                       (unsigned)clock64() + __activemask();
}
