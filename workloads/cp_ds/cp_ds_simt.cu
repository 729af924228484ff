// cp_ds_simt: the distance-solver step of a cloth simulation (seed 000 sec. V CP-DS; seed 003
// Table I). Each constraint joins two particles that should sit `rest` apart; a thread measures
// the pair's distance and moves both ends half the error towards each other. The two particles
// are updated under two nested locks (seed 000 Fig. 6a: take the first lock, try the second,
// give the first back on failure, all in one loop body). Corrections are accumulated in fixed
// point (1/65536 units) from the initial positions, so the result does not depend on the order
// in which constraints run.
// The spin mark ends the loop body on purpose. With the mark first, nvcc -O3 threads the
// success path straight out of the loop and turns the code back into the MIMD lock loop
// (seen for am, atm and cp_ds; the hazard seed 004 sec. 6.5.3 reports); an asm statement at
// the join of both paths is not duplicated, which keeps the critical section in the loop.
#include "simtsync.cuh"

extern "C" __global__ void cp_ds_simt(const float4* pos, const int2* constraints, int count,
                                      float rest, volatile int4* corr, int* locks) {
  int stride = gridDim.x * blockDim.x;
  for (int c = blockIdx.x * blockDim.x + threadIdx.x; c < count; c += stride) {
    int2 pq = constraints[c];
    float4 a = pos[pq.x], b = pos[pq.y];
    float dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
    float len = sqrtf(dx * dx + dy * dy + dz * dz);
    float k = 0.5f * (len - rest) / len * 65536.0f;
    int cx = __float2int_rn(k * dx), cy = __float2int_rn(k * dy), cz = __float2int_rn(k * dz);
    int first = min(pq.x, pq.y), second = max(pq.x, pq.y);
    bool done = false;
    while (!done) {
      if (atomicCAS(&locks[first], 0, 1) == 0) {
        if (atomicCAS(&locks[second], 0, 1) == 0) {
          __threadfence();
          corr[pq.x].x += cx;
          corr[pq.x].y += cy;
          corr[pq.x].z += cz;
          corr[pq.x].w += 1;
          corr[pq.y].x -= cx;
          corr[pq.y].y -= cy;
          corr[pq.y].z -= cz;
          corr[pq.y].w += 1;
          __threadfence();
          atomicExch(&locks[second], 0);
          atomicExch(&locks[first], 0);
          done = true;
        } else {
          atomicExch(&locks[first], 0);
        }
      }
      SIMTSYNC_SPIN_LOOP();  // last in the body: see the note at the top
    }
  }
}
