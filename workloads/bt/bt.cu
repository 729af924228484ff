// bt: B+ tree search (the Rodinia b+tree findK algorithm). One CTA per query at a time, one
// thread per key slot of a node: at every level each thread tests whether the query falls
// between its separator keys, the matching thread publishes the child in shared memory, and a
// barrier lets the whole CTA descend; at the leaf the thread holding the key publishes the record.
#define ORDER 256  // key slots per node (ORDER - 1 keys, ORDER children); = threads per CTA

struct BNode {
  int keys[ORDER];
  int ptrs[ORDER];  // children (inner node) or records (leaf)
  int nkeys;
  int pad[3];
};

extern "C" __global__ void bt_find(const BNode* tree, int root, int height, const int* queries,
                                   int nq, int* results) {
  __shared__ int cur;
  __shared__ int found;
  const int tid = threadIdx.x;
  for (int q = blockIdx.x; q < nq; q += gridDim.x) {
    const int key = queries[q];
    if (tid == 0) cur = root, found = -1;
    __syncthreads();
    for (int level = 0; level < height; ++level) {
      const BNode* nd = tree + cur;
      const int m = nd->nkeys;
      int child = -1;
      if (tid <= m) {
        const bool ge = tid == 0 || nd->keys[tid - 1] <= key;
        const bool lt = tid == m || key < nd->keys[tid];
        if (ge && lt) child = nd->ptrs[tid];
      }
      __syncthreads();
      if (child >= 0) cur = child;
      __syncthreads();
    }
    const BNode* leaf = tree + cur;
    if (tid < leaf->nkeys && leaf->keys[tid] == key) found = leaf->ptrs[tid];
    __syncthreads();
    if (tid == 0) results[q] = found;
    __syncthreads();
  }
}
