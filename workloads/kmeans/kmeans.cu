// kmeans: the assignment step of k-means clustering (Rodinia kmeans). One thread per point
// walks the clusters in a counted loop whose bound is a kernel parameter (the loop of seed 000
// Fig. 7c) and, for each, the features in a nested counted loop; it keeps the nearest cluster.
// Features are stored feature-major (features[f * npoints + p]) so loads coalesce.
extern "C" __global__ void kmeans_assign(const float* features, const float* clusters, int npoints,
                                         int nclusters, int nfeatures, int* membership) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= npoints) return;
  int index = 0;
  float best = 3.402823466e38f;
  for (int c = 0; c < nclusters; c++) {
    float dist = 0.0f;
    for (int f = 0; f < nfeatures; f++) {
      const float d = features[f * npoints + p] - clusters[c * nfeatures + f];
      dist += d * d;
    }
    if (dist < best) best = dist, index = c;
  }
  membership[p] = index;
}
