// ht_mimd: the chained hash-table insertion of ht.cu written as for a CPU (seed 000 sec. II, the
// lock loop of seed 003 Fig. 1): spin until the bucket lock is taken, then insert and release.
// Correct under MIMD scheduling; under the IPDOM stack a thread that wins the lock waits at the
// loop exit for warp-mates that spin on the lock it holds (a SIMT-induced deadlock).
#include "simtsync.cuh"

struct Entry {
  unsigned key;
  unsigned value;
  Entry* next;
};

extern "C" __global__ void ht_insert_mimd(Entry* pool, Entry** buckets, int* locks,
                                          const unsigned* keys, int num_buckets, int per_thread) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < per_thread; ++i) {
    int slot = tid * per_thread + i;
    unsigned key = keys[slot];
    Entry* location = &pool[slot];
    location->key = key;
    location->value = slot;
    int bucket = key % num_buckets;
    while (atomicCAS(&locks[bucket], 0, 1) != 0) {
      SIMTSYNC_SPIN_LOOP();
    }
    __threadfence();
    Entry* volatile* head = &buckets[bucket];
    location->next = *head;
    *head = location;
    __threadfence();
    atomicExch(&locks[bucket], 0);
  }
}
