// Issue 13: a bank transfer with nested locks. nvcc -O3 emits the spin on the first lock as a
// self-loop on the block that also heads the outer retry loop, so a loop finder that merges
// loops sharing a header never examines the spin branch. Expected: the lock(&locks[a]) spin
// (line 6, inlined at line 14) is flagged; SSDE makes the kernel finish under the IPDOM stack.
__device__ __forceinline__ void lock(int* l) {
  while (atomicCAS(l, 0, 1) != 0) {
  }
}
__device__ __forceinline__ void unlock(int* l) {
  __threadfence();
  atomicExch(l, 0);
}
__global__ void transfer(int* locks, int* balance, const int* from, const int* to, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  const int a = from[t], b = to[t];
  bool done = false;
  while (!done) {
    lock(&locks[a]);
    if (atomicCAS(&locks[b], 0, 1) == 0) {  // try the second lock, back off on failure
      balance[a] -= 1;
      balance[b] += 1;
      unlock(&locks[b]);
      done = true;
    }
    unlock(&locks[a]);
  }
}
