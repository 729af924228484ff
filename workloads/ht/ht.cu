// ht: chained hash-table insertion guarded by one spin lock per bucket, written the
// SIMT-compliant way of seed 000 Fig. 1a (the lock attempt sits inside the loop body, so a
// thread that acquires the lock finishes its critical section before reconverging).
#include "simtsync.cuh"

struct Entry {
  unsigned key;
  unsigned value;
  Entry* next;
};

extern "C" __global__ void ht_insert(Entry* pool, Entry** buckets, int* locks, const unsigned* keys,
                                     int num_buckets, int per_thread) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < per_thread; ++i) {
    int slot = tid * per_thread + i;
    unsigned key = keys[slot];
    Entry* location = &pool[slot];
    location->key = key;
    location->value = slot;
    int bucket = key % num_buckets;
    int* mutex = &locks[bucket];
    bool done = false;
    while (!done) {
      SIMTSYNC_SPIN_LOOP();
      if (atomicCAS(mutex, 0, 1) == 0) {
        __threadfence();
        location->next = buckets[bucket];
        buckets[bucket] = location;
        done = true;
        __threadfence();
        atomicExch(mutex, 0);
      }
    }
  }
}
