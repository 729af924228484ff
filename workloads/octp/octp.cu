// octp: octree partitioning of a point cloud, one tree level per launch. Each CTA takes nodes
// of the current level in turn. A node with more than `threshold` points (and depth below the
// limit) is split: every thread counts the octants of its contiguous chunk of points in shared
// memory (barrier), warp w computes the exclusive prefix sums of octant w over the threads
// (barrier), thread 0 turns the octant totals into child offsets (barrier), every thread
// scatters its points into the child ranges of a scratch buffer (barrier), the CTA copies the
// range back and thread 0..7 append the non-empty children to the next level (barrier). A node
// that is not split is appended to the leaf list.
#define THREADS 256  // 8 warps: one warp per octant in the prefix-sum phase

struct Node {
  float cx, cy, cz, half;
  int start, count, depth, pad;
};

__device__ int octant_of(float4 p, const Node& n) {
  return (p.x >= n.cx ? 1 : 0) | (p.y >= n.cy ? 2 : 0) | (p.z >= n.cz ? 4 : 0);
}

extern "C" __global__ void octp_level(float4* pts, float4* scratch, const Node* nodes, int nnodes,
                                      Node* next, int* nnext, Node* leaves, int* nleaves,
                                      int threshold, int max_depth) {
  __shared__ int cnt[8][THREADS];
  __shared__ int total[8];
  __shared__ int base[8];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  for (int ni = blockIdx.x; ni < nnodes; ni += gridDim.x) {
    const Node nd = nodes[ni];
    if (nd.count <= threshold || nd.depth >= max_depth) {
      if (tid == 0) leaves[atomicAdd(nleaves, 1)] = nd;
      continue;
    }
    const int per = (nd.count + THREADS - 1) / THREADS;
    const int lo = nd.start + min(nd.count, tid * per);
    const int hi = nd.start + min(nd.count, (tid + 1) * per);
    for (int o = 0; o < 8; ++o) cnt[o][tid] = 0;
    for (int i = lo; i < hi; ++i) cnt[octant_of(pts[i], nd)][tid] += 1;
    __syncthreads();
    // Warp `warp` scans octant `warp`: each lane sums 8 consecutive threads' counts.
    int mine = 0;
    for (int j = 0; j < 8; ++j) mine += cnt[warp][lane * 8 + j];
    int incl = mine;
    for (int d = 1; d < 32; d <<= 1) {
      const int up = __shfl_up_sync(0xffffffffu, incl, d);
      if (lane >= d) incl += up;
    }
    int run = incl - mine;
    for (int j = 0; j < 8; ++j) {
      const int c = cnt[warp][lane * 8 + j];
      cnt[warp][lane * 8 + j] = run;
      run += c;
    }
    if (lane == 31) total[warp] = incl;
    __syncthreads();
    if (tid == 0) {
      int s = 0;
      for (int o = 0; o < 8; ++o) base[o] = s, s += total[o];
    }
    __syncthreads();
    for (int i = lo; i < hi; ++i) {
      const float4 p = pts[i];
      const int o = octant_of(p, nd);
      scratch[nd.start + base[o] + cnt[o][tid]] = p;
      cnt[o][tid] += 1;
    }
    __syncthreads();
    for (int i = nd.start + tid; i < nd.start + nd.count; i += THREADS) pts[i] = scratch[i];
    if (tid < 8 && total[tid] > 0) {
      const float q = 0.5f * nd.half;
      Node c;
      c.cx = nd.cx + ((tid & 1) ? q : -q);
      c.cy = nd.cy + ((tid & 2) ? q : -q);
      c.cz = nd.cz + ((tid & 4) ? q : -q);
      c.half = q;
      c.start = nd.start + base[tid];
      c.count = total[tid];
      c.depth = nd.depth + 1;
      c.pad = 0;
      next[atomicAdd(nnext, 1)] = c;
    }
    __syncthreads();
  }
}
