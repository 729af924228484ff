// bh_sm_mimd: the summarization kernel of bh.cu written as for a CPU: for every cell, for every
// child, the cell's thread spins in place until the child's mass is published, then adds it.
// Under the IPDOM stack a warp whose lanes hold a cell and one of its child cells deadlocks: the
// child's lane waits at the spin loop's exit (its own children were ready) for the lanes still
// spinning, among them the parent's, which waits for the child's mass (the root's children
// are allocated right after the root, so the root's warp has such a pair).
#include "bh.cuh"
#include "simtsync.cuh"

extern "C" __global__ void bh_sm_mimd(int nbodies, int nnodes, volatile float* posx,
                                      volatile float* posy, volatile float* posz,
                                      volatile float* mass, const int* child, volatile int* count,
                                      BhGlobals* g) {
  const int inc = blockDim.x * gridDim.x;
  for (int k = g->bottom + threadIdx.x + blockIdx.x * blockDim.x; k <= nnodes; k += inc) {
    float m = 0, cx = 0, cy = 0, cz = 0;
    int cnt = 0;
    for (int c = 0; c < 8; ++c) {
      const int ch = child[k * 8 + c];
      if (ch < 0) continue;
      float cm;
      while ((cm = mass[ch]) < 0.0f) {
        SIMTSYNC_SPIN_LOOP();  // the child cell is not summarized yet: wait for it
      }
      m += cm;
      cx += posx[ch] * cm;
      cy += posy[ch] * cm;
      cz += posz[ch] * cm;
      cnt += ch >= nbodies ? count[ch] : 1;
    }
    const float inv = 1.0f / m;
    posx[k] = cx * inv;
    posy[k] = cy * inv;
    posz[k] = cz * inv;
    count[k] = cnt;
    __threadfence();
    mass[k] = m;  // publish
  }
}
