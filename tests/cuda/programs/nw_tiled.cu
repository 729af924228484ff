// Corpus (issue 50): Needleman-Wunsch global alignment scores in the style of the public
// benchmark suites' tiled version: the score matrix is processed in 16x16 tiles along
// anti-diagonals of tiles (one kernel launch per tile diagonal), each tile in shared memory with
// its north and west borders, its cells along anti-diagonals inside the tile with a barrier
// between them. Checked against a CPU computation of the whole matrix.
#include <vector>

#include "sample_helpers.h"

static const char* kName = "nw_tiled";
constexpr int kTile = 16;
constexpr int kPenalty = 10;

__device__ __host__ inline int max3(int a, int b, int c) {
  int m = a > b ? a : b;
  return m > c ? m : c;
}

// Tiles (bx, diag - bx) of tile diagonal `diag`; `n` cells per side (a multiple of kTile) plus
// the border row and column of the (n+1)x(n+1) score matrix.
__global__ void nw_diagonal(int* score, const int* ref, int n, int diag, int first_bx) {
  __shared__ int t[kTile + 1][kTile + 1];
  __shared__ int r[kTile][kTile];
  const int bx = first_bx + blockIdx.x, by = diag - bx;
  const int tx = threadIdx.x, cols = n + 1;
  const int x0 = bx * kTile, y0 = by * kTile;  // cell (y0 + i + 1, x0 + j + 1)
  for (int i = 0; i < kTile; ++i) r[i][tx] = ref[(y0 + i + 1) * cols + x0 + tx + 1];
  if (tx == 0) t[0][0] = score[y0 * cols + x0];
  t[0][tx + 1] = score[y0 * cols + x0 + tx + 1];
  t[tx + 1][0] = score[(y0 + tx + 1) * cols + x0];
  __syncthreads();
  for (int d = 0; d < 2 * kTile - 1; ++d) {
    const int i = d - tx;  // row inside the tile of this thread's cell on diagonal d
    if (i >= 0 && i < kTile)
      t[i + 1][tx + 1] =
          max3(t[i][tx] + r[i][tx], t[i][tx + 1] - kPenalty, t[i + 1][tx] - kPenalty);
    __syncthreads();
  }
  for (int i = 0; i < kTile; ++i) score[(y0 + i + 1) * cols + x0 + tx + 1] = t[i + 1][tx + 1];
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 64;  // cells per side, a multiple of 16
  const int cols = n + 1, tiles = n / kTile;
  std::vector<int> score(cols * cols, 0), ref(cols * cols, 0);
  uint32_t seed = 7;
  for (int i = 1; i < cols; ++i)
    for (int j = 1; j < cols; ++j) ref[i * cols + j] = static_cast<int>(lcgNext(&seed) % 21) - 10;
  for (int i = 0; i < cols; ++i) score[i * cols] = score[i] = -i * kPenalty;
  std::vector<int> want = score;
  for (int i = 1; i < cols; ++i)
    for (int j = 1; j < cols; ++j)
      want[i * cols + j] =
          max3(want[(i - 1) * cols + j - 1] + ref[i * cols + j],
               want[(i - 1) * cols + j] - kPenalty, want[i * cols + j - 1] - kPenalty);
  int *d_score, *d_ref;
  CHECK_CUDA(cudaMalloc(&d_score, score.size() * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_ref, ref.size() * sizeof(int)));
  CHECK_CUDA(cudaMemcpy(d_score, score.data(), score.size() * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_ref, ref.data(), ref.size() * sizeof(int), cudaMemcpyHostToDevice));
  for (int diag = 0; diag < 2 * tiles - 1; ++diag) {
    const int first = diag < tiles ? 0 : diag - tiles + 1, last = diag < tiles ? diag : tiles - 1;
    nw_diagonal<<<last - first + 1, kTile>>>(d_score, d_ref, n, diag, first);
    CHECK_CUDA(cudaGetLastError());
  }
  CHECK_CUDA(cudaMemcpy(score.data(), d_score, score.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < cols * cols; ++i)
    if (score[i] != want[i]) {
      printf("FAILED %s: cell (%d,%d) %d, expected %d\n", kName, i / cols, i % cols, score[i],
             want[i]);
      return 1;
    }
  printf("%s: %dx%d, score %d\n", kName, n, n, score[cols * cols - 1]);
  printf("PASSED %s\n", kName);
  return 0;
}
