// pathfinder: minimum-cost path from the top row to each bottom cell of a grid, moving down one
// row and at most one column per step (Rodinia pathfinder), by dynamic programming: one launch
// per row, each thread walking a grid-strided loop over the columns.
extern "C" __global__ void pf_row(const int* wall, const int* prev, int* cur, int cols) {
  for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < cols; j += gridDim.x * blockDim.x) {
    int best = prev[j];
    if (j > 0) best = min(best, prev[j - 1]);
    if (j < cols - 1) best = min(best, prev[j + 1]);
    cur[j] = wall[j] + best;
  }
}
