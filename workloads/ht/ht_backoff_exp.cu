// ht_backoff_exp: ht (seed 000 Fig. 1a) with exponential software back-off (seed 000 Fig. 3):
// after a failed lock attempt the thread busy-waits `d` cycles on clock64(), d starting at
// `delay_base` for each insertion and doubling after every failure up to `delay_cap`.
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

extern "C" __global__ void ht_backoff_exp(Entry* pool, Entry** buckets, int* locks,
                                          const unsigned* keys, int num_buckets, int per_thread,
                                          int delay_base, int delay_cap) {
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
    int d = delay_base;
    while (!done) {
      if (atomicCAS(mutex, 0, 1) == 0) {
        __threadfence();
        location->next = buckets[bucket];
        buckets[bucket] = location;
        done = true;
        __threadfence();
        atomicExch(mutex, 0);
      } else {
        simtsync_delay_cycles(d);
        d = min(2 * d, delay_cap);
      }
      SIMTSYNC_SPIN_LOOP();  // last in the body: see the note at the top
    }
  }
}
