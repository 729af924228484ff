// streamcluster: the gain computation of online facility location (Rodinia streamcluster
// pgain). For a candidate facility x, every thread computes its point's weighted distance to x
// over `dim` coordinates (counted loop) and the saving cost - distance of reassigning the point
// to x; the host opens x when the total saving exceeds the facility cost.
extern "C" __global__ void sc_gain(const float* coord, const float* weight, const float* cost,
                                   int npoints, int dim, int x, float* saving) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= npoints) return;
  float d = 0.0f;
  for (int k = 0; k < dim; ++k) {
    const float t = coord[k * npoints + p] - coord[k * npoints + x];
    d += t * t;
  }
  saving[p] = cost[p] - d * weight[p];
}
