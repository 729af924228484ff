// nn: nearest neighbour (Rodinia nn): the Euclidean distance from every (latitude, longitude)
// record to a target, each thread walking a grid-strided loop; the host picks the k nearest.
extern "C" __global__ void nn_dist(const float2* rec, int n, float lat, float lng, float* dist) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const float dx = rec[i].x - lat, dy = rec[i].y - lng;
    dist[i] = sqrtf(dx * dx + dy * dy);
  }
}
