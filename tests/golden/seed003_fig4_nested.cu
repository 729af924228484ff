// Seed 003 Fig. 4 (right): the nested scenario of the BarnesHut sort kernel. Threads spin in
// an inner self loop on a ready flag that other threads set while iterating an outer loop, and
// a thread may need several outer iterations before it sets the flag somebody waits for.
// Expected: the inner wait loop is flagged; its redefining write is the flag store of the outer
// loop; the safe post-dominator lies after the outer loop (the outer loop's exit branch is on
// the path from the inner loop's exit to that write).
__global__ void fig4(volatile int* ready, int* value, const int* order, int n) {
  int k = threadIdx.x + blockIdx.x * blockDim.x;
  while (k < n) {
    int need = order[k];
    if (need >= 0) {
      while (ready[need] == 0) {
      }
      value[k] = value[need] + 1;
    } else {
      value[k] = 1;
    }
    __threadfence();
    ready[k] = 1;
    k += blockDim.x * gridDim.x;
  }
}
