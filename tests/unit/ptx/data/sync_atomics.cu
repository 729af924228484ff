// Test kernel for the PTX front end: shared memory, barriers, warp intrinsics, atomics.
#include <cstdint>

__constant__ int c_table[8] = {1, 2, 3, 5, 8, 13, 21, 34};
__device__ unsigned long long g_counter;
__device__ float g_matrix[4][4] = {{1.0f, 0.0f}, {0.0f, 1.0f}};

__global__ void __launch_bounds__(256) sync_atomics(float* out, int* iout, unsigned* uout,
                                                    unsigned long long* lout, int n) {
  __shared__ float tile[256];
  __shared__ int hist[32][8];
  int tid = threadIdx.x;
  int gid = blockIdx.x * blockDim.x + tid;
  tile[tid] = gid < n ? out[gid] : 0.0f;
  if (tid < 32) hist[tid][tid & 7] = 0;
  __syncthreads();
  float v = tile[(tid + 1) % 256];
  v += __shfl_down_sync(0xffffffffu, v, 16);
  v += __shfl_xor_sync(0xffffffffu, v, 1);
  v += __shfl_up_sync(0xffffffffu, v, 2);
  v += __shfl_sync(0xffffffffu, v, 0);
  unsigned ballot = __ballot_sync(0xffffffffu, v > 0.0f);
  int any = __any_sync(0xffffffffu, v < -1.0f);
  int all = __all_sync(0xffffffffu, v < 100.0f);
  atomicAdd(&hist[tid & 31][c_table[tid & 7] & 7], 1);
  atomicAdd(out, v);
  atomicMin(iout, gid);
  atomicMax(iout + 1, gid);
  atomicInc(uout, 17u);
  atomicDec(uout + 1, 9u);
  atomicExch(uout + 2, ballot);
  atomicAnd(uout + 3, ballot);
  atomicOr(uout + 4, (unsigned)any);
  atomicXor(uout + 5, (unsigned)all);
  unsigned long long old = atomicCAS(lout, (unsigned long long)gid, (unsigned long long)n);
  atomicAdd(&g_counter, old + g_matrix[tid & 3][tid & 3]);
  __syncthreads();
  if (gid < n) out[gid] = tile[tid] + hist[tid & 31][0] + __popc(ballot) + __clz(gid) + __activemask();
}
