// apriori: association-rule mining (seed 004 ch. 2; RMS-TM / MineBench Apriori). One level of
// the algorithm per pair of launches: apriori_insert puts the level's candidate itemsets into a
// hash tree, apriori_count counts, for every record, the candidates it contains.
//
// Hash tree: a node is a leaf holding a list of candidates, or an internal node whose
// `kFanout` children are indexed by the hash of the candidate's item at the node's depth. A
// leaf that holds more than `threshold` candidates is rehashed into an internal node on the
// next insertion. Nodes come from a pool with an atomic counter (the thesis's "empty list"
// allocator, sec. 2.2.1). Insertion is protected by a lock per node (Apriori-Lock, sec.
// 2.2.4). An internal node never changes, so a thread descends through internal nodes
// without locking; where it sees a leaf it takes the leaf's lock and reads the leaf flag again
// inside the critical section (the race of sec. 2.2.2 was a leaf flag read outside it). The
// lock attempt, the critical section and the release share one loop body (SIMT-safe).
#include "simtsync.cuh"

namespace {
constexpr int kFanout = 8;
constexpr int kMaxLen = 16;  // longest record, largest itemset size
}  // namespace

// Node arrays (pool of `max_nodes`): leaf flag, lock, depth, list head, list length, and
// kFanout children per node. next[c]: the candidate after c in its leaf's list.
extern "C" __global__ void apriori_insert(const int* items, int ncand, int k, int threshold,
                                          volatile int* leaf, int* lock, volatile int* depth,
                                          volatile int* head, volatile int* size,
                                          volatile int* children, volatile int* next,
                                          int* node_count, int max_nodes, int* overflow) {
  for (int c = threadIdx.x + blockIdx.x * blockDim.x; c < ncand; c += blockDim.x * gridDim.x) {
    const int* set = items + c * k;
    int n = 0;  // the root
    bool done = false;
    while (!done) {
      if (!leaf[n]) {  // internal nodes never change: descend without the lock
        n = children[n * kFanout + set[depth[n]] % kFanout];
      } else if (atomicCAS(&lock[n], 0, 1) == 0) {
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
                lock[base + h] = 0;
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
        atomicExch(&lock[n], 0);
      }
      SIMTSYNC_SPIN_LOOP();  // last in the body (see atm_simt.cu)
    }
  }
}

// Subset counting: every record walks the tree with every way of choosing its items (a
// depth-first search with an explicit stack); at a leaf reached through items p[0..d-1] a
// candidate counts when its first d items are exactly those and its other items are in the
// rest of the record, so each contained candidate is counted once per record.
extern "C" __global__ void apriori_count(const int* records, const int* record_start, int nrecords,
                                         const int* items, int k, const int* leaf,
                                         const int* depth, const int* head, const int* children,
                                         const int* next, int* support) {
  int stack_node[kMaxLen * kMaxLen + 1], stack_pos[kMaxLen * kMaxLen + 1];
  int path[kMaxLen];
  for (int r = threadIdx.x + blockIdx.x * blockDim.x; r < nrecords; r += blockDim.x * gridDim.x) {
    const int* rec = records + record_start[r];
    const int len = record_start[r + 1] - record_start[r];
    if (len < k) continue;
    int sp = 0;
    stack_node[sp] = 0;
    stack_pos[sp++] = 0;
    while (sp > 0) {
      --sp;
      const int n = stack_node[sp], pos = stack_pos[sp];
      const int d = depth[n];
      if (d > 0) path[d - 1] = rec[pos - 1];  // the item chosen to reach n
      if (leaf[n]) {
        for (int s = head[n]; s >= 0; s = next[s]) {
          const int* set = items + s * k;
          bool match = true;
          for (int j = 0; j < d && match; ++j) match = set[j] == path[j];
          int q = pos;
          for (int j = d; j < k && match; ++j) {
            while (q < len && rec[q] < set[j]) ++q;
            match = q < len && rec[q] == set[j];
            ++q;
          }
          if (match) atomicAdd(&support[s], 1);
        }
      } else {
        // Children in reverse so that items are tried in ascending order.
        for (int i = len - (k - d); i >= pos; --i) {
          stack_node[sp] = children[n * kFanout + rec[i] % kFanout];
          stack_pos[sp++] = i + 1;
        }
      }
    }
  }
}
