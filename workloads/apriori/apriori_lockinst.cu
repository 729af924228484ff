// apriori_lockinst: apriori's hash-tree insertion (apriori.cu, seed 004 ch. 2, Apriori-Lock of
// sec. 6.5.2) with the lock and unlock instructions of seed 004 ch. 4. A thread descends to a
// leaf, takes the leaf's lock with simtsync_lock (which returns only once it holds it), reads
// the leaf flag again inside the critical section (the leaf may have been rehashed into an
// internal node while the thread waited: it then releases and descends again) and inserts or
// rehashes, then releases with simtsync_unlock. No retry loop around the lock. Lock words: one
// per node, -1 free, else the holder's grid thread id; a rehash initialises its new leaves'
// locks to -1. Needs sm.reconvergence.impl=lock_stack.
//
// The counting kernel and the constants are apriori.cu's, included unchanged, so that this
// module holds every kernel one run launches (a second module may not be mixed with the first).
#include "apriori.cu"

extern "C" __global__ void apriori_insert_lockinst(const int* items, int ncand, int k,
                                                   int threshold, volatile int* leaf, int* lock,
                                                   volatile int* depth, volatile int* head,
                                                   volatile int* size, volatile int* children,
                                                   volatile int* next, int* node_count,
                                                   int max_nodes, int* overflow) {
  for (int c = threadIdx.x + blockIdx.x * blockDim.x; c < ncand; c += blockDim.x * gridDim.x) {
    const int* set = items + c * k;
    int n = 0;  // the root
    bool done = false;
    while (!done) {
      while (!leaf[n]) n = children[n * kFanout + set[depth[n]] % kFanout];  // no lock needed
      simtsync_lock(&lock[n]);
      if (leaf[n]) {  // still a leaf, now that we hold its lock
        const int d = depth[n];
        if (size[n] < threshold || d >= k) {  // room (or no item left to hash on): insert
          next[c] = head[n];
          head[n] = c;
          size[n] = size[n] + 1;
          done = true;
        } else {  // rehash: the leaf becomes an internal node with kFanout new leaves
          const int base = atomicAdd(node_count, kFanout);
          if (base + kFanout > max_nodes) {
            *overflow = 1;
            done = true;  // give up; the host reports it
          } else {
            for (int h = 0; h < kFanout; ++h) {
              leaf[base + h] = 1;
              lock[base + h] = SIMTSYNC_LOCK_FREE;
              depth[base + h] = d + 1;
              head[base + h] = -1;
              size[base + h] = 0;
            }
            for (int s = head[n]; s >= 0;) {
              const int after = next[s];
              const int ch = base + items[s * k + d] % kFanout;
              next[s] = head[ch];
              head[ch] = s;
              size[ch] = size[ch] + 1;
              s = after;
            }
            for (int h = 0; h < kFanout; ++h) children[n * kFanout + h] = base + h;
            head[n] = -1;
            __threadfence();
            leaf[n] = 0;  // publish the new internal node
          }
        }
      }
      __threadfence();
      simtsync_unlock(&lock[n]);
    }
  }
}
