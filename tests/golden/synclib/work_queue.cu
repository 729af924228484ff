// A work queue: lane 0 of each warp takes a ticket and broadcasts it with a shuffle, so the
// whole warp leaves the loop together; the last warp to finish raises a done flag that the
// others wait for. SIMT-safe.
__global__ void work_queue(int* head, int* finished, volatile int* done, const int* items,
                           int* out, int n, int warps) {
  const int lane = threadIdx.x & 31;
  while (true) {
    int ticket = 0;
    if (lane == 0) ticket = atomicAdd(head, 1);
    ticket = __shfl_sync(0xffffffffu, ticket, 0);
    if (ticket >= n) break;
    out[ticket * 32 + lane] = items[ticket] + lane;
  }
  if (lane == 0 && atomicAdd(finished, 1) == warps - 1) *done = 1;
  while (*done == 0) {
  }
}
