// mm: tiled dense matrix multiply C = A * B (the CUDA SDK matrixMul algorithm). Each 16x16 CTA
// computes one tile of C; per step along k it stages a tile of A and of B in shared memory,
// with a barrier after the loads and one after the multiply-accumulate.
#define TILE 16
extern "C" __global__ void mm(const float* A, const float* B, float* C, int m, int k) {
  __shared__ float as[TILE][TILE];
  __shared__ float bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < k; t += TILE) {
    as[ty][tx] = A[row * k + t + tx];
    bs[ty][tx] = B[(t + ty) * m + col];
    __syncthreads();
    for (int i = 0; i < TILE; ++i) acc += as[ty][i] * bs[i][tx];
    __syncthreads();
  }
  C[row * m + col] = acc;
}
