// ht_nanosleep: ht (seed 000 Fig. 1a) with the back-off of the CUDA C++ Programming Guide's
// __nanosleep mutex: after a failed lock attempt the thread sleeps 8 ns, doubled after every
// failure of the insertion up to 8 << max_level ns (max_level 5: 256 ns, the guide's cap).
// The spin mark ends the loop body, as in atm_simt.cu: with the mark first, nvcc -O3 threads the
// success path out of the loop and the failure path (the delay) back to the attempt, which is
// the MIMD lock loop that SIMT-deadlocks under the IPDOM stack (seen for ht_backoff_fixed).
#include "simtsync.cuh"
#include "simtsync_backoff.cuh"

struct Entry {
  unsigned key;
  unsigned value;
  Entry* next;
};

extern "C" __global__ void ht_nanosleep(Entry* pool, Entry** buckets, int* locks,
                                        const unsigned* keys, int num_buckets, int per_thread,
                                        int max_level) {
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
    int level = 0;
    while (!done) {
      if (atomicCAS(mutex, 0, 1) == 0) {
        __threadfence();
        location->next = buckets[bucket];
        buckets[bucket] = location;
        done = true;
        __threadfence();
        atomicExch(mutex, 0);
      } else {
        simtsync_nanosleep_level(level);
        if (level < max_level) ++level;
      }
      SIMTSYNC_SPIN_LOOP();  // last in the body: see the note at the top
    }
  }
}
