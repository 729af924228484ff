// GPGPU-Sim host for simtsync's cp_ds_simt: the kernel is workloads/cp_ds/cp_ds_simt.cu itself
// (included below), the cloth and constraints are those of workloads/cp_ds/cp_ds.cc (mt19937
// jitter from the seed, row then column constraints), and the check is its order-independent
// part: every particle updated once per constraint, corrections summing to zero, locks free.
// Arguments: width height ctas threads (default: the paper-size run, 128 x 128, 64 x 256).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include <cuda_runtime.h>

#include "cp_ds/cp_ds_simt.cu"

int main(int argc, char** argv) {
  const int w = argc > 1 ? atoi(argv[1]) : 128;
  const int h = argc > 2 ? atoi(argv[2]) : 128;
  const unsigned ctas = argc > 3 ? atoi(argv[3]) : 64;
  const unsigned threads = argc > 4 ? atoi(argv[4]) : 256;
  const size_t np = (size_t)w * h;
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> jitter(-0.25f, 0.25f);
  std::vector<float4> pos(np);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      float4& p = pos[y * w + x];
      p.x = x + jitter(rng);
      p.y = y + jitter(rng);
      p.z = jitter(rng);
      p.w = 0.0f;
    }
  std::vector<int2> cons;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x + 1 < w; ++x) cons.push_back(make_int2(y * w + x, y * w + x + 1));
  for (int y = 0; y + 1 < h; ++y)
    for (int x = 0; x < w; ++x) cons.push_back(make_int2(y * w + x, (y + 1) * w + x));
  std::vector<int> degree(np, 0);
  for (const int2& c : cons) { ++degree[c.x]; ++degree[c.y]; }
  float4* dpos; int2* dcons; int4* dcorr; int* dlocks;
  cudaMalloc(&dpos, np * sizeof(float4));
  cudaMalloc(&dcons, cons.size() * sizeof(int2));
  cudaMalloc(&dcorr, np * sizeof(int4));
  cudaMalloc(&dlocks, np * 4);
  std::vector<int4> zero4(np, make_int4(0, 0, 0, 0));
  std::vector<int> zero(np, 0);
  cudaMemcpy(dpos, pos.data(), np * sizeof(float4), cudaMemcpyHostToDevice);
  cudaMemcpy(dcons, cons.data(), cons.size() * sizeof(int2), cudaMemcpyHostToDevice);
  cudaMemcpy(dcorr, zero4.data(), np * sizeof(int4), cudaMemcpyHostToDevice);
  cudaMemcpy(dlocks, zero.data(), np * 4, cudaMemcpyHostToDevice);
  cp_ds_simt<<<ctas, threads>>>(dpos, dcons, (int)cons.size(), 1.0f, dcorr, dlocks);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("CUDA error %s\n", cudaGetErrorString(e)); return 2; }
  std::vector<int4> got(np);
  std::vector<int> lk(np);
  cudaMemcpy(got.data(), dcorr, np * sizeof(int4), cudaMemcpyDeviceToHost);
  cudaMemcpy(lk.data(), dlocks, np * 4, cudaMemcpyDeviceToHost);
  long long sx = 0, sy = 0, sz = 0;
  for (size_t i = 0; i < np; ++i) {
    if (lk[i] != 0) { printf("FAIL lock of particle %zu held\n", i); return 1; }
    if (got[i].w != degree[i]) { printf("FAIL particle %zu updated %d times, expected %d\n", i, got[i].w, degree[i]); return 1; }
    sx += got[i].x; sy += got[i].y; sz += got[i].z;
  }
  if (sx || sy || sz) { printf("FAIL corrections sum to (%lld, %lld, %lld)\n", sx, sy, sz); return 1; }
  printf("VALIDATED: %zu constraints on %zu particles (%u CTAs x %u)\n", cons.size(), np, ctas, threads);
  return 0;
}
