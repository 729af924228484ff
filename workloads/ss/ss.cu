// ss: similarity score in the MapReduce style of Mars: the cosine similarity of every pair of
// document feature vectors. Each 16x16 CTA computes one tile of the similarity matrix; per step
// along the features it stages 16 features of its 16 row documents and 16 column documents in
// shared memory (barrier), accumulates dot products and both squared norms, and waits again
// before the next stage (barrier).
#define TILE 16
extern "C" __global__ void ss(const float* docs, int ndocs, int dim, float* sim) {
  __shared__ float rs[TILE][TILE + 1];
  __shared__ float cs[TILE][TILE + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  const int crow = blockIdx.x * TILE + ty;  // column document this thread stages
  float dot = 0.0f, nr = 0.0f, nc = 0.0f;
  for (int f = 0; f < dim; f += TILE) {
    rs[ty][tx] = docs[row * dim + f + tx];
    cs[ty][tx] = docs[crow * dim + f + tx];
    __syncthreads();
    for (int i = 0; i < TILE; ++i) {
      const float a = rs[ty][i], b = cs[tx][i];
      dot += a * b;
      nr += a * a;
      nc += b * b;
    }
    __syncthreads();
  }
  const float den = sqrtf(nr) * sqrtf(nc);
  sim[row * ndocs + col] = den > 0.0f ? dot / den : 0.0f;
}
