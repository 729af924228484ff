// matrix_mul: tiled C = A * B with A 64x48, B 48x80, C 64x80 (row-major floats). Each 16x16
// thread block stages one tile of A and one tile of B in __shared__ memory per step, separated
// by __syncthreads. Uses a 2D grid and 2D blocks (dim3). M, K and N all differ, so swapping
// x/y, rows/columns or a leading dimension gives wrong results or out-of-range indices.

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "sample_helpers.h"

static const char* kName = "matrix_mul";

#define TILE 16

// C[m x n] = A[m x k] * B[k x n]. blockIdx.y/threadIdx.y select the row, .x the column.
__global__ void matMulTiled(const float* a, const float* b, float* c, int m, int k, int n) {
  __shared__ float tileA[TILE][TILE];
  __shared__ float tileB[TILE][TILE];

  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;

  for (int t = 0; t < (k + TILE - 1) / TILE; ++t) {
    int aCol = t * TILE + threadIdx.x;
    int bRow = t * TILE + threadIdx.y;
    tileA[threadIdx.y][threadIdx.x] = (row < m && aCol < k) ? a[row * k + aCol] : 0.0f;
    tileB[threadIdx.y][threadIdx.x] = (bRow < k && col < n) ? b[bRow * n + col] : 0.0f;
    __syncthreads();
    for (int i = 0; i < TILE; ++i) acc += tileA[threadIdx.y][i] * tileB[i][threadIdx.x];
    __syncthreads();
  }
  if (row < m && col < n) c[row * n + col] = acc;
}

int main() {
  const int m = 64, k = 48, n = 80;

  float* hA = static_cast<float*>(malloc(m * k * sizeof(float)));
  float* hB = static_cast<float*>(malloc(k * n * sizeof(float)));
  float* hC = static_cast<float*>(malloc(m * n * sizeof(float)));
  uint32_t seed = 2024u;
  // Small integers (-8..7) keep every product and partial sum exact in float.
  for (int i = 0; i < m * k; ++i) {
    hA[i] = static_cast<float>(static_cast<int>(lcgNext(&seed) >> 28) - 8);
  }
  for (int i = 0; i < k * n; ++i) {
    hB[i] = static_cast<float>(static_cast<int>(lcgNext(&seed) >> 28) - 8);
  }

  float *dA = nullptr, *dB = nullptr, *dC = nullptr;
  CHECK_CUDA(cudaMalloc(&dA, m * k * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dB, k * n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dC, m * n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dA, hA, m * k * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dB, hB, k * n * sizeof(float), cudaMemcpyHostToDevice));

  dim3 block(TILE, TILE);
  dim3 grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);  // x covers columns, y covers rows
  matMulTiled<<<grid, block>>>(dA, dB, dC, m, k, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(hC, dC, m * n * sizeof(float), cudaMemcpyDeviceToHost));

  int result = 0;
  for (int r = 0; r < m && result == 0; ++r) {
    for (int c = 0; c < n; ++c) {
      float expected = 0.0f;
      for (int i = 0; i < k; ++i) expected += hA[r * k + i] * hB[i * n + c];
      if (fabsf(hC[r * n + c] - expected) > 1e-3f) {
        printf("FAILED %s: C[%d][%d] = %f, expected %f\n", kName, r, c, hC[r * n + c], expected);
        result = 1;
        break;
      }
    }
  }

  CHECK_CUDA(cudaFree(dA));
  CHECK_CUDA(cudaFree(dB));
  CHECK_CUDA(cudaFree(dC));
  free(hA);
  free(hB);
  free(hC);
  if (result == 0) printf("PASSED %s\n", kName);
  return result;
}
