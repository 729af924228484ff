// nw_dp1 / nw_dp2: Needleman-Wunsch, the data-parallel wavefront version (seed 001 sec. 6,
// Fig. 6; the Rodinia original). Same tiles and outer framework as nw.cu (one launch per tile
// anti-diagonal, nw_dp1 for the upper-left triangle, nw_dp2 for the lower-right), but one warp
// per tile: the 31x31 cells are swept anti-diagonal by anti-diagonal, a __syncthreads between
// steps. No busy-waiting.

namespace {

constexpr int kTile = 32;
constexpr int kCells = kTile - 1;

__device__ __forceinline__ void tile_wavefront(int* score, const int* ref, int stride,
                                               int penalty, int tile_row, int tile_col) {
  __shared__ int s[kTile][kTile];
  __shared__ int p[kTile][kTile];
  const int tx = threadIdx.x;
  const long base = static_cast<long>(tile_row * kCells) * stride + tile_col * kCells;
  s[0][tx] = score[base + tx];                      // north halo
  s[tx][0] = score[base + static_cast<long>(tx) * stride];  // west halo
  for (int r = 1; r < kTile; ++r)
    if (tx > 0) p[r][tx] = ref[base + static_cast<long>(r) * stride + tx];
  __syncthreads();
  // Anti-diagonals of the tile's cells: m = 0 .. 2*kCells-2, cells (r, c) with r + c = m + 2.
  for (int m = 0; m < 2 * kCells - 1; ++m) {
    const int c = m < kCells ? tx + 1 : tx + 1 + (m - kCells + 1);
    const int r = m + 2 - c;
    if (c <= kCells && r >= 1 && r <= kCells)
      s[r][c] = max(s[r - 1][c - 1] + p[r][c], max(s[r - 1][c] - penalty, s[r][c - 1] - penalty));
    __syncthreads();
  }
  for (int r = 1; r < kTile; ++r)
    if (tx > 0) score[base + static_cast<long>(r) * stride + tx] = s[r][tx];
}

}  // namespace

extern "C" __global__ void nw_dp1(int* score, const int* ref, int stride, int penalty, int diag) {
  tile_wavefront(score, ref, stride, penalty, diag - 1 - blockIdx.x, blockIdx.x);
}

extern "C" __global__ void nw_dp2(int* score, const int* ref, int stride, int penalty, int diag,
                                  int tiles) {
  tile_wavefront(score, ref, stride, penalty, tiles - 1 - blockIdx.x, blockIdx.x + tiles - diag);
}
