// ht_trylock: ht's chained hash-table insertion (ht.cu, seed 000 Fig. 1a) with the try-lock
// instruction of seed 004 sec. 9.2.2 (the thesis's future work): one lock word per bucket (-1
// free), taken with simtsync_try_lock(p, attempts), which gives up after `attempts` tries. A
// thread that fails leaves the lock's retry mechanism and takes the alternate path: it goes
// round its insertion loop and tries again, as an atomicCAS try-lock loop does, but the tries
// up to the bound are the hardware's (one instruction each, no loop body re-issued). Needs
// sm.reconvergence.impl=lock_stack (the workload sets it).
#include "simtsync.cuh"

struct Entry {
  unsigned key;
  unsigned value;
  Entry* next;
};

extern "C" __global__ void ht_insert_trylock(Entry* pool, Entry** buckets, int* locks,
                                             const unsigned* keys, int num_buckets, int per_thread,
                                             int attempts) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < per_thread; ++i) {
    int slot = tid * per_thread + i;
    unsigned key = keys[slot];
    Entry* location = &pool[slot];
    location->key = key;
    location->value = slot;
    int bucket = key % num_buckets;
    bool done = false;
    while (!done) {
      if (simtsync_try_lock(&locks[bucket], attempts)) {
        __threadfence();
        location->next = buckets[bucket];
        buckets[bucket] = location;
        __threadfence();
        simtsync_unlock(&locks[bucket]);
        done = true;
      }
      SIMTSYNC_SPIN_LOOP();  // a failed try: the alternate path goes round again
    }
  }
}
