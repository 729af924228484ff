// ht_lockinst: ht's chained hash-table insertion (ht.cu, seed 000 Fig. 1a) with the lock and
// unlock instructions of seed 004 ch. 4 instead of the atomicCAS retry loop: one lock word per
// bucket (-1 free, else the holder's grid thread id), taken with simtsync_lock, which returns
// only once the thread holds it. The critical section is written as for a CPU: no retry loop,
// no done flag. Needs sm.reconvergence.impl=lock_stack (the workload sets it).
#include "simtsync.cuh"

struct Entry {
  unsigned key;
  unsigned value;
  Entry* next;
};

extern "C" __global__ void ht_insert_lockinst(Entry* pool, Entry** buckets, int* locks,
                                              const unsigned* keys, int num_buckets,
                                              int per_thread) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < per_thread; ++i) {
    int slot = tid * per_thread + i;
    unsigned key = keys[slot];
    Entry* location = &pool[slot];
    location->key = key;
    location->value = slot;
    int bucket = key % num_buckets;
    simtsync_lock(&locks[bucket]);
    __threadfence();
    location->next = buckets[bucket];
    buckets[bucket] = location;
    __threadfence();
    simtsync_unlock(&locks[bucket]);
  }
}
