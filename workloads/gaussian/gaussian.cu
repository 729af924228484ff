// gaussian: Gaussian elimination of a linear system A x = b (Rodinia gaussian). For each pivot
// t: fan1 computes the multipliers of the rows below it; fan2 (a 2D grid, one thread per
// element) subtracts the scaled pivot row from every row below, column 0 of the grid also
// updating b. The host back-substitutes.
extern "C" __global__ void fan1(const float* a, float* m, int n, int t) {
  const int i = t + 1 + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) m[i * n + t] = a[i * n + t] / a[t * n + t];
}

extern "C" __global__ void fan2(float* a, float* b, const float* m, int n, int t) {
  const int i = t + 1 + blockIdx.y * blockDim.y + threadIdx.y;
  const int j = t + blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || j >= n) return;
  const float f = m[i * n + t];
  a[i * n + j] -= f * a[t * n + j];
  if (j == t) b[i] -= f * b[t];
}
