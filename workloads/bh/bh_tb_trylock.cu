// bh_tb_trylock: Barnes-Hut tree building with the try-lock instruction of seed 004 sec. 9.2.2
// (the thesis's future work): bh_tb_lockinst (Example 18) with simtsync_try_lock(p, attempts)
// in place of the blocking simtsync_lock. A thread that does not get the slot's lock within
// `attempts` tries leaves the lock's retry mechanism and takes the alternate path: it
// re-traverses from the cell, as the original's single atomicCAS does (Example 17, sec. 6.5.1:
// "thread Y would have failed to acquire the lock on the first attempt and re-traversed the
// tree"). The lock words, the availability check and the check after acquiring are those of
// bh_tb_lockinst, so a critical section can still find the slot changed (a lock freed just
// before the try arrived); counts[0] and counts[1] are the critical sections and those that
// inserted nothing (Fig. 7.2), counts[2] the failed try-locks. Needs
// sm.reconvergence.impl=lock_stack.
#include "bh.cuh"
#include "simtsync.cuh"

extern "C" __global__ void bh_tb_trylock(int nbodies, int nnodes, volatile float* posx,
                                         volatile float* posy, volatile float* posz,
                                         volatile float* mass, volatile int* child,
                                         volatile int* start, BhGlobals* g, int* lock, int* counts,
                                         int attempts) {
  const float radius = g->radius;
  const float rx = posx[nnodes], ry = posy[nnodes], rz = posz[nnodes];
  const int inc = blockDim.x * gridDim.x;
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int localmaxdepth = 1, depth = 1, n = nnodes, j = 0;
  int sections = 0, wasted = 0, failed = 0;
  bool skip = true;
  float px = 0, py = 0, pz = 0, r = radius;
  while (i < nbodies) {
    if (skip) {  // a new body: start at the root
      skip = false;
      px = posx[i];
      py = posy[i];
      pz = posz[i];
      n = nnodes;
      depth = 1;
      r = radius;
      j = (rx < px ? 1 : 0) | (ry < py ? 2 : 0) | (rz < pz ? 4 : 0);
    }
    int ch = child[n * 8 + j];
    while (ch >= nbodies) {  // descend to the bottom of the tree
      n = ch;
      ++depth;
      r *= 0.5f;
      j = (posx[n] < px ? 1 : 0) | (posy[n] < py ? 2 : 0) | (posz[n] < pz ? 4 : 0);
      ch = child[n * 8 + j];
    }
    if (ch != -2) {  // the lock-availability check of Example 18
      const int locked = n * 8 + j;
      if (simtsync_try_lock(&lock[locked], attempts)) {
        ++sections;
        if (child[locked] == ch) {  // still the empty slot or body the thread saw: insert
          if (ch == -1) {
            child[locked] = i;   // an empty slot
          } else {               // a body: create cells until the two bodies fall apart
            child[locked] = -2;  // being changed: others re-traverse without asking for the lock
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
            child[locked] = patch;  // publish the new subtree
          }
          localmaxdepth = max(depth, localmaxdepth);
          i += inc;
          skip = true;
        } else {
          ++wasted;  // the slot changed while this thread waited: release, re-traverse
        }
        __threadfence();
        simtsync_unlock(&lock[locked]);
      } else {
        ++failed;  // the alternate path: re-traverse from the cell
      }
    }
    SIMTSYNC_SPIN_LOOP();  // a thread that saw the slot locked re-reads it (last in the body)
  }
  atomicMax(&g->maxdepth, localmaxdepth);
  atomicAdd(&counts[0], sections);
  atomicAdd(&counts[1], wasted);
  atomicAdd(&counts[2], failed);
}
