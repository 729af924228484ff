// Corpus (issue 50): a dynamic work queue. Tasks are intervals [lo, hi); a warp takes the next
// task with an atomic add on the queue head, and a task wider than 8 pushes its two halves at
// the tail (atomic add on the tail, then a per-slot ready flag the taker waits for) until every
// leaf of width <= 8 has added its numbers. Persistent warps stop when the done count reaches
// the number of leaves. Lane 0 of each warp does the queue work and broadcasts it by shuffle.
#include "sample_helpers.h"

static const char* kName = "work_queue";
constexpr int kCap = 4096;

__device__ int head, tail, leaves_done;
__device__ unsigned long long total;
__device__ int2 tasks[kCap];
__device__ volatile int ready[kCap];

__global__ void workers(int leaves) {
  const int lane = threadIdx.x % 32;
  for (;;) {
    int slot = -1;
    if (lane == 0) {
      if (*(volatile int*)&leaves_done < leaves) slot = atomicAdd(&head, 1);
    }
    slot = __shfl_sync(0xffffffffu, slot, 0);
    if (slot < 0) return;
    int2 t = make_int2(0, 0);
    if (lane == 0) {
      while (ready[slot] == 0 && *(volatile int*)&leaves_done < leaves) {
      }
      if (ready[slot]) t = tasks[slot];
    }
    t.x = __shfl_sync(0xffffffffu, t.x, 0);
    t.y = __shfl_sync(0xffffffffu, t.y, 0);
    if (t.y <= t.x) return;  // all leaves done while waiting: nothing more will come
    if (t.y - t.x > 8) {
      if (lane == 0) {
        const int mid = (t.x + t.y) / 2, at = atomicAdd(&tail, 2);
        tasks[at] = make_int2(t.x, mid);
        tasks[at + 1] = make_int2(mid, t.y);
        __threadfence();
        ready[at] = 1;
        ready[at + 1] = 1;
      }
    } else {
      unsigned long long v = (lane < t.y - t.x) ? static_cast<unsigned long long>(t.x + lane) : 0;
      for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
      if (lane == 0) {
        atomicAdd(&total, v);
        __threadfence();
        atomicAdd(&leaves_done, 1);
      }
    }
  }
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 1024;  // a power of two times 8
  const int leaves = n / 8;
  const int2 first = make_int2(0, n);
  const int one = 1;
  CHECK_CUDA(cudaMemcpyToSymbol(tasks, &first, sizeof first));
  CHECK_CUDA(cudaMemcpyToSymbol(ready, &one, sizeof one));
  CHECK_CUDA(cudaMemcpyToSymbol(tail, &one, sizeof one));
  workers<<<4, 128>>>(leaves);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  unsigned long long got = 0;
  int done = 0;
  CHECK_CUDA(cudaMemcpyFromSymbol(&got, total, sizeof got));
  CHECK_CUDA(cudaMemcpyFromSymbol(&done, leaves_done, sizeof done));
  const unsigned long long want = static_cast<unsigned long long>(n) * (n - 1) / 2;
  if (got != want || done != leaves) {
    printf("FAILED %s: sum %llu (expected %llu), %d leaves (expected %d)\n", kName, got, want, done,
           leaves);
    return 1;
  }
  printf("PASSED %s\n", kName);
  return 0;
}
