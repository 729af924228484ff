// Barnes-Hut n-body (seed 000 sec. V: BH with its tree-building kernel TB, summarization SM,
// sort ST and force-calculation FC), written after the structure of Burtscher and Pingali's
// CUDA implementation (GPU Computing Gems, 2011): one kernel per phase, an octree held in
// flat arrays, cells allocated downwards from the root. The busy-wait loops:
//   bh_tb  lock-based insertion: a thread locks the child slot it wants to change with
//          atomicCAS(child, old, -2) (the try-lock pattern: on failure it retries in the next
//          iteration, never spins in place) and releases it by storing the new subtree; a
//          __syncthreads() at the end of every iteration throttles the warps between attempts.
//   bh_sm  a cell's thread waits until every child cell's mass is published.
//   bh_st  wait and signal (seed 000 Fig. 6c): a cell's thread waits until its parent wrote the
//          cell's start offset, then signals the start of each child cell.
// Every wait sits in one loop body with the work it waits for (the SIMT-safe form); the spin
// mark is the last statement of that body (see atm_simt.cu).
#include "bh.cuh"
#include "simtsync.cuh"

namespace {
constexpr int kMaxThreads = 256;  // bounding-box reduction width
constexpr int kStack = 512;       // force-calculation traversal stack
}  // namespace

// Bounding box of all bodies, then (last CTA) the root cell.
extern "C" __global__ void bh_bb(int nbodies, int nnodes, float* posx, float* posy, float* posz,
                                 float* mass, int* child, int* start, float* bbox, BhGlobals* g) {
  __shared__ float smin[3][kMaxThreads], smax[3][kMaxThreads];
  const int t = threadIdx.x;
  float lo[3] = {posx[0], posy[0], posz[0]}, hi[3] = {lo[0], lo[1], lo[2]};
  for (int i = t + blockIdx.x * blockDim.x; i < nbodies; i += blockDim.x * gridDim.x) {
    lo[0] = fminf(lo[0], posx[i]); hi[0] = fmaxf(hi[0], posx[i]);
    lo[1] = fminf(lo[1], posy[i]); hi[1] = fmaxf(hi[1], posy[i]);
    lo[2] = fminf(lo[2], posz[i]); hi[2] = fmaxf(hi[2], posz[i]);
  }
  for (int d = 0; d < 3; ++d) { smin[d][t] = lo[d]; smax[d][t] = hi[d]; }
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    __syncthreads();
    if (t < s)
      for (int d = 0; d < 3; ++d) {
        smin[d][t] = fminf(smin[d][t], smin[d][t + s]);
        smax[d][t] = fmaxf(smax[d][t], smax[d][t + s]);
      }
  }
  if (t == 0) {
    for (int d = 0; d < 3; ++d) {
      bbox[blockIdx.x * 6 + d] = smin[d][0];
      bbox[blockIdx.x * 6 + 3 + d] = smax[d][0];
    }
    __threadfence();
    if (atomicInc(&g->blkcnt, gridDim.x - 1) == gridDim.x - 1) {  // the last CTA: the root
      volatile float* vb = bbox;
      for (int d = 0; d < 3; ++d) {
        lo[d] = vb[d];
        hi[d] = vb[3 + d];
      }
      for (int b = 1; b < gridDim.x; ++b)
        for (int d = 0; d < 3; ++d) {
          lo[d] = fminf(lo[d], vb[b * 6 + d]);
          hi[d] = fmaxf(hi[d], vb[b * 6 + 3 + d]);
        }
      const float radius = fmaxf(fmaxf(hi[0] - lo[0], hi[1] - lo[1]), hi[2] - lo[2]) * 0.5f;
      g->radius = radius;
      g->bottom = nnodes;
      g->maxdepth = 1;
      g->error = 0;
      posx[nnodes] = (lo[0] + hi[0]) * 0.5f;
      posy[nnodes] = (lo[1] + hi[1]) * 0.5f;
      posz[nnodes] = (lo[2] + hi[2]) * 0.5f;
      mass[nnodes] = -1.0f;
      start[nnodes] = 0;
      for (int j = 0; j < 8; ++j) child[nnodes * 8 + j] = -1;
      __threadfence();
    }
  }
}

// Tree building: insert every body, locking the child slot that changes (try-lock), with a
// barrier after every attempt to throttle the warps.
extern "C" __global__ void bh_tb(int nbodies, int nnodes, volatile float* posx,
                                 volatile float* posy, volatile float* posz, volatile float* mass,
                                 volatile int* child, volatile int* start, BhGlobals* g) {
  const float radius = g->radius;
  const float rx = posx[nnodes], ry = posy[nnodes], rz = posz[nnodes];
  const int inc = blockDim.x * gridDim.x;
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int localmaxdepth = 1, depth = 1, n = nnodes, j = 0;
  bool skip = true;
  float px = 0, py = 0, pz = 0, r = radius;
  while (i < nbodies) {
    if (skip) {  // a new body: start at the root
      skip = false;
      px = posx[i]; py = posy[i]; pz = posz[i];
      n = nnodes; depth = 1; r = radius;
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
    if (ch != -2) {  // the slot is not locked: try to lock it
      const int locked = n * 8 + j;
      if (atomicCAS(const_cast<int*>(&child[locked]), ch, -2) == ch) {
        if (ch == -1) {
          child[locked] = i;  // an empty slot: insert (and release)
        } else {  // a body: create cells until the two bodies fall apart
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
        localmaxdepth = max(depth, localmaxdepth);
        i += inc;
        skip = true;
      }
    }
    __syncthreads();        // throttle: every warp waits for the others between attempts
    SIMTSYNC_SPIN_LOOP();   // last in the body (see atm_simt.cu)
  }
  atomicMax(&g->maxdepth, localmaxdepth);
}

// Summarization: mass, centre of mass and body count of every cell, bottom-up. A cell's
// thread waits until all its child cells are summarized.
extern "C" __global__ void bh_sm(int nbodies, int nnodes, volatile float* posx,
                                 volatile float* posy, volatile float* posz, volatile float* mass,
                                 const int* child, volatile int* count, BhGlobals* g) {
  const int inc = blockDim.x * gridDim.x;
  int k = g->bottom + threadIdx.x + blockIdx.x * blockDim.x;
  while (k <= nnodes) {
    float m = 0, cx = 0, cy = 0, cz = 0;
    int cnt = 0;
    bool ready = true;
    for (int c = 0; c < 8; ++c) {
      const int ch = child[k * 8 + c];
      if (ch < 0) continue;
      const float cm = mass[ch];
      if (cm < 0.0f) {  // not summarized yet
        ready = false;
        break;
      }
      m += cm;
      cx += posx[ch] * cm;
      cy += posy[ch] * cm;
      cz += posz[ch] * cm;
      cnt += ch >= nbodies ? count[ch] : 1;
    }
    if (ready) {
      const float inv = 1.0f / m;
      posx[k] = cx * inv;
      posy[k] = cy * inv;
      posz[k] = cz * inv;
      count[k] = cnt;
      __threadfence();
      mass[k] = m;  // publish
      k += inc;
    }
    SIMTSYNC_SPIN_LOOP();
  }
}

// Sort (seed 000 Fig. 6c): top-down, a cell waits for its start offset (written by its
// parent), places its bodies and signals the start offset of each child cell.
extern "C" __global__ void bh_st(int nbodies, int nnodes, const int* child, const int* count,
                                 volatile int* start, int* sort, BhGlobals* g) {
  const int bottom = g->bottom;
  const int dec = blockDim.x * gridDim.x;
  int k = nnodes + 1 - dec + threadIdx.x + blockIdx.x * blockDim.x;
  while (k >= bottom) {
    int s = start[k];
    if (s >= 0) {  // if not wait
      for (int c = 0; c < 8; ++c) {
        const int ch = child[k * 8 + c];
        if (ch >= nbodies) {  // a cell: signal its start
          start[ch] = s;
          s += count[ch];
        } else if (ch >= 0) {  // a body
          sort[s] = ch;
          ++s;
        }
      }
      k -= dec;  // move to the next cell
    }
    SIMTSYNC_SPIN_LOOP();
  }
}

// Force calculation: every body (in sorted order) walks the tree with its own stack; a cell
// whose side over its distance is below theta stands for its bodies.
extern "C" __global__ void bh_fc(int nbodies, int nnodes, const float* posx, const float* posy,
                                 const float* posz, const float* mass, const int* child,
                                 const int* sort, float* accx, float* accy, float* accz,
                                 float theta, float epssq, BhGlobals* g) {
  int stack[kStack];
  const float side = g->radius * 2.0f;
  const float itolsq = 1.0f / (theta * theta);
  for (int k = threadIdx.x + blockIdx.x * blockDim.x; k < nbodies; k += blockDim.x * gridDim.x) {
    const int i = sort[k];
    const float px = posx[i], py = posy[i], pz = posz[i];
    float ax = 0, ay = 0, az = 0;
    int sp = 0;
    stack[sp++] = nnodes;
    stack[sp++] = 0;  // depth of the root
    while (sp > 0) {
      const int depth = stack[--sp];
      const int n = stack[--sp];
      float size = side;
      for (int d = 0; d <= depth; ++d) size *= 0.5f;  // side of a child of n
      const float dq = size * size * itolsq;
      for (int c = 0; c < 8; ++c) {
        const int ch = child[n * 8 + c];
        if (ch < 0 || ch == i) continue;
        const float dx = posx[ch] - px, dy = posy[ch] - py, dz = posz[ch] - pz;
        const float d2 = dx * dx + dy * dy + dz * dz;
        if (ch < nbodies || d2 >= dq) {  // a body, or a cell far enough away
          const float r2 = d2 + epssq;
          const float inv = 1.0f / sqrtf(r2);
          const float f = mass[ch] * inv * inv * inv;
          ax += dx * f;
          ay += dy * f;
          az += dz * f;
        } else if (sp + 2 <= kStack) {
          stack[sp++] = ch;
          stack[sp++] = depth + 1;
        } else {
          g->error = 2;
        }
      }
    }
    accx[i] = ax;
    accy[i] = ay;
    accz[i] = az;
  }
}

// Integration: one time step of the velocities and positions.
extern "C" __global__ void bh_int(int nbodies, float* posx, float* posy, float* posz,
                                  float* velx, float* vely, float* velz, const float* accx,
                                  const float* accy, const float* accz, float dt) {
  for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < nbodies; i += blockDim.x * gridDim.x) {
    velx[i] += accx[i] * dt;
    vely[i] += accy[i] * dt;
    velz[i] += accz[i] * dt;
    posx[i] += velx[i] * dt;
    posy[i] += vely[i] * dt;
    posz[i] += velz[i] * dt;
  }
}
