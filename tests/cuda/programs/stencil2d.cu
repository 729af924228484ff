// Corpus (issue 50): a 2D five-point Jacobi stencil in the style of the public suites: 16x16
// thread blocks load their tile and its one-cell halo into shared memory, a barrier, then each
// thread updates its cell; iterations ping-pong between two buffers. Checked against the CPU.
#include <cmath>
#include <vector>

#include "sample_helpers.h"

static const char* kName = "stencil2d";
constexpr int kB = 16;

__global__ void jacobi(const float* in, float* out, int n) {
  __shared__ float s[kB + 2][kB + 2];
  const int x = blockIdx.x * kB + threadIdx.x, y = blockIdx.y * kB + threadIdx.y;
  const int lx = threadIdx.x + 1, ly = threadIdx.y + 1;
  auto at = [&](int yy, int xx) {
    return (xx >= 0 && xx < n && yy >= 0 && yy < n) ? in[yy * n + xx] : 0.0f;
  };
  s[ly][lx] = at(y, x);
  if (threadIdx.x == 0) s[ly][0] = at(y, x - 1);
  if (threadIdx.x == kB - 1) s[ly][kB + 1] = at(y, x + 1);
  if (threadIdx.y == 0) s[0][lx] = at(y - 1, x);
  if (threadIdx.y == kB - 1) s[kB + 1][lx] = at(y + 1, x);
  __syncthreads();
  if (x < n && y < n)
    out[y * n + x] =
        0.2f * (s[ly][lx] + s[ly - 1][lx] + s[ly + 1][lx] + s[ly][lx - 1] + s[ly][lx + 1]);
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 48, iters = argc > 2 ? atoi(argv[2]) : 4;
  std::vector<float> a(n * n), b(n * n);
  uint32_t seed = 3;
  for (float& v : a) v = static_cast<float>(lcgNext(&seed) % 1000) / 100.0f;
  std::vector<float> want = a, tmp(n * n);
  for (int it = 0; it < iters; ++it) {
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        auto at = [&](int yy, int xx) {
          return (xx >= 0 && xx < n && yy >= 0 && yy < n) ? want[yy * n + xx] : 0.0f;
        };
        tmp[y * n + x] =
            0.2f * (at(y, x) + at(y - 1, x) + at(y + 1, x) + at(y, x - 1) + at(y, x + 1));
      }
    want.swap(tmp);
  }
  float *d_a, *d_b;
  CHECK_CUDA(cudaMalloc(&d_a, a.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_b, b.size() * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(d_a, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
  dim3 grid((n + kB - 1) / kB, (n + kB - 1) / kB), block(kB, kB);
  for (int it = 0; it < iters; ++it) {
    jacobi<<<grid, block>>>(it % 2 ? d_b : d_a, it % 2 ? d_a : d_b, n);
    CHECK_CUDA(cudaGetLastError());
  }
  CHECK_CUDA(cudaMemcpy(b.data(), iters % 2 ? d_b : d_a, b.size() * sizeof(float),
                        cudaMemcpyDeviceToHost));
  for (int i = 0; i < n * n; ++i)
    if (std::fabs(b[i] - want[i]) > 1e-4f * (1.0f + std::fabs(want[i]))) {
      printf("FAILED %s: cell %d %f, expected %f\n", kName, i, b[i], want[i]);
      return 1;
    }
  printf("PASSED %s\n", kName);
  return 0;
}
