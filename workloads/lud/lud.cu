// lud: in-place LU decomposition without pivoting (the algorithm of Rodinia lud, unblocked).
// For each pivot k: lud_column divides the column below the pivot by it; lud_trailing gives
// each row below the pivot to one thread, which updates the rest of its row in a loop whose
// trip count shrinks with k.
extern "C" __global__ void lud_column(float* a, int n, int k) {
  const int i = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i * n + k] /= a[k * n + k];
}

extern "C" __global__ void lud_trailing(float* a, int n, int k) {
  const int i = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float l = a[i * n + k];
  for (int j = k + 1; j < n; ++j) a[i * n + j] -= l * a[k * n + j];
}
