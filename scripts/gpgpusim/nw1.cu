// GPGPU-Sim host for simtsync's nw1: the kernel is workloads/nw/nw.cu itself (included below),
// the sequences and substitution table are those of workloads/nw/nw.cc (mt19937 from the seed,
// the same distributions in the same order), one nw1 launch per tile anti-diagonal of the
// upper-left triangle, and the check is the same: every cell of that triangle equals the CPU
// dynamic program. Arguments: tiles penalty (default: simtsync's default size, 4 tiles).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include <cuda_runtime.h>

#include "nw/nw.cu"

int main(int argc, char** argv) {
  const int tiles = argc > 1 ? atoi(argv[1]) : 4;
  const int penalty = argc > 2 ? atoi(argv[2]) : 10;
  const int cells_per_tile = 31, n = cells_per_tile * tiles, stride = n + 1;
  const size_t cells = (size_t)stride * stride;
  std::mt19937 rng(1);
  int sub[24][24];
  std::uniform_int_distribution<int> same(4, 11), diff(-4, 2), sym(0, 23);
  for (int a = 0; a < 24; ++a)
    for (int b = 0; b <= a; ++b) sub[a][b] = sub[b][a] = a == b ? same(rng) : diff(rng);
  std::vector<int> s1(n + 1), s2(n + 1);
  for (int i = 1; i <= n; ++i) s1[i] = sym(rng);
  for (int j = 1; j <= n; ++j) s2[j] = sym(rng);
  auto at = [stride](int i, int j) { return (size_t)i * stride + j; };
  const int32_t untouched = -0x3fffffff;
  std::vector<int32_t> ref(cells, 0), score(cells, untouched);
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= n; ++j) ref[at(i, j)] = sub[s1[i]][s2[j]];
  for (int i = 0; i <= n; ++i) score[at(i, 0)] = score[at(0, i)] = -i * penalty;
  std::vector<int32_t> expect = score;
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= n; ++j)
      expect[at(i, j)] = std::max({expect[at(i - 1, j - 1)] + ref[at(i, j)],
                                   expect[at(i - 1, j)] - penalty, expect[at(i, j - 1)] - penalty});
  int *dscore, *dref;
  cudaMalloc(&dscore, cells * 4);
  cudaMalloc(&dref, cells * 4);
  cudaMemcpy(dscore, score.data(), cells * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dref, ref.data(), cells * 4, cudaMemcpyHostToDevice);
  for (int d = 1; d <= tiles; ++d) nw1<<<d, dim3(32, 32)>>>(dscore, dref, stride, penalty, d);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("CUDA error %s\n", cudaGetErrorString(e)); return 2; }
  std::vector<int32_t> got(cells);
  cudaMemcpy(got.data(), dscore, cells * 4, cudaMemcpyDeviceToHost);
  size_t checked = 0;
  for (int i = 0; i <= n; ++i)
    for (int j = 0; j <= n; ++j) {
      const bool owned = i == 0 || j == 0 || (i - 1) / cells_per_tile + (j - 1) / cells_per_tile < tiles;
      const int32_t want = owned ? expect[at(i, j)] : untouched;
      if (got[at(i, j)] != want) { printf("FAIL S(%d,%d) = %d, expected %d\n", i, j, got[at(i, j)], want); return 1; }
      checked += owned && i > 0 && j > 0;
    }
  printf("VALIDATED: %dx%d grid, upper-left triangle: %zu cells equal the CPU dynamic program\n", n, n, checked);
  return 0;
}
