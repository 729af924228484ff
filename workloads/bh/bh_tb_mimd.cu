// bh_tb_mimd: the tree-building kernel of bh.cu written as for a CPU: a thread that reaches the
// bottom of the tree locks the child slot it wants to change by spinning on it right there
// (re-read the slot, CAS it from that value to -2, until the CAS succeeds), inserts, and
// releases by storing the new subtree. A slot that turned into a cell while the thread waited
// is released unchanged and the thread descends into the cell. No throttling barrier.
// Under the IPDOM stack warp-mates that want the same slot deadlock: the lane whose CAS
// succeeds waits at the spin loop's exit for the lanes that spin on the lock it holds (the
// first bodies of a warp all start in the root's eight slots).
#include "bh.cuh"
#include "simtsync.cuh"

extern "C" __global__ void bh_tb_mimd(int nbodies, int nnodes, volatile float* posx,
                                      volatile float* posy, volatile float* posz,
                                      volatile float* mass, volatile int* child,
                                      volatile int* start, BhGlobals* g) {
  const float radius = g->radius;
  const float rx = posx[nnodes], ry = posy[nnodes], rz = posz[nnodes];
  int localmaxdepth = 1;
  for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < nbodies; i += blockDim.x * gridDim.x) {
    const float px = posx[i], py = posy[i], pz = posz[i];
    int n = nnodes, depth = 1;
    float r = radius;
    int j = (rx < px ? 1 : 0) | (ry < py ? 2 : 0) | (rz < pz ? 4 : 0);
    for (;;) {
      int ch = child[n * 8 + j];
      while (ch >= nbodies) {  // descend to the bottom of the tree
        n = ch;
        ++depth;
        r *= 0.5f;
        j = (posx[n] < px ? 1 : 0) | (posy[n] < py ? 2 : 0) | (posz[n] < pz ? 4 : 0);
        ch = child[n * 8 + j];
      }
      const int locked = n * 8 + j;
      while ((ch = child[locked]) == -2 ||
             atomicCAS(const_cast<int*>(&child[locked]), ch, -2) != ch) {
        SIMTSYNC_SPIN_LOOP();  // the slot is held by another thread: spin on it
      }
      if (ch >= nbodies) {  // a cell now: release it unchanged and descend into it
        child[locked] = ch;
        continue;
      }
      if (ch == -1) {
        child[locked] = i;  // an empty slot: insert (and release)
      } else {              // a body: create cells until the two bodies fall apart
        int patch = -1;
        do {
          ++depth;
          const int cell = atomicSub(&g->bottom, 1) - 1;
          if (cell <= nbodies) {  // out of cells: give up (the host reports it)
            g->error = 1;
            break;
          }
          if (patch != -1) child[n * 8 + j] = cell;
          patch = max(patch, cell);
          const float h = r * 0.5f;
          posx[cell] = posx[n] + ((j & 1) ? h : -h);
          posy[cell] = posy[n] + ((j & 2) ? h : -h);
          posz[cell] = posz[n] + ((j & 4) ? h : -h);
          mass[cell] = -1.0f;
          start[cell] = -1;
          for (int k = 0; k < 8; ++k) child[cell * 8 + k] = -1;
          r = h;
          n = cell;
          const int jb = (posx[n] < posx[ch] ? 1 : 0) | (posy[n] < posy[ch] ? 2 : 0) |
                         (posz[n] < posz[ch] ? 4 : 0);
          child[n * 8 + jb] = ch;
          j = (posx[n] < px ? 1 : 0) | (posy[n] < py ? 2 : 0) | (posz[n] < pz ? 4 : 0);
          ch = child[n * 8 + j];
        } while (ch >= 0);
        if (g->error == 0) child[n * 8 + j] = i;
        __threadfence();
        child[locked] = patch;  // publish the new subtree: release the lock
      }
      break;
    }
    localmaxdepth = max(depth, localmaxdepth);
  }
  atomicMax(&g->maxdepth, localmaxdepth);
}
