// cp_ds_mimd: the cloth distance solver of cp_ds_simt.cu with the two particle locks taken as
// for a CPU (spin on the lower-numbered particle's lock, then on the other's). Deadlock-free
// under MIMD scheduling; SIMT-deadlocks under the IPDOM stack because neighbouring constraints,
// run by warp-mates, share particles.
#include "simtsync.cuh"

extern "C" __global__ void cp_ds_mimd(const float4* pos, const int2* constraints, int count,
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
    while (atomicCAS(&locks[first], 0, 1) != 0) {
      SIMTSYNC_SPIN_LOOP();
    }
    while (atomicCAS(&locks[second], 0, 1) != 0) {
      SIMTSYNC_SPIN_LOOP();
    }
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
  }
}
