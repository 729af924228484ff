// bh_st_mimd: the sort kernel of bh.cu written as for a CPU: a cell's thread spins in place
// until its parent has written the cell's start offset, then distributes. Under the IPDOM
// stack a warp whose lanes hold a cell and its parent deadlocks: the parent's lane waits at
// the spin loop's exit for lanes that wait for it (the root's children are allocated right
// after the root, so the first warp always has such a pair).
#include "bh.cuh"
#include "simtsync.cuh"

extern "C" __global__ void bh_st_mimd(int nbodies, int nnodes, const int* child,
                                      const int* count, volatile int* start, int* sort,
                                      BhGlobals* g) {
  const int bottom = g->bottom;
  const int dec = blockDim.x * gridDim.x;
  for (int k = nnodes + 1 - dec + threadIdx.x + blockIdx.x * blockDim.x; k >= bottom; k -= dec) {
    int s;
    while ((s = start[k]) < 0) {
      SIMTSYNC_SPIN_LOOP();
    }
    for (int c = 0; c < 8; ++c) {
      const int ch = child[k * 8 + c];
      if (ch >= nbodies) {
        start[ch] = s;
        s += count[ch];
      } else if (ch >= 0) {
        sort[s] = ch;
        ++s;
      }
    }
  }
}
