// ht_backoff_fixed: ht (seed 000 Fig. 1a) with a software back-off after each failed lock
// attempt (seed 000 Fig. 3): the thread busy-waits `delay + delay_per_cta * blockIdx.x` cycles
// on clock64() before it tries again. delay_per_cta = 1000, delay = 0 is OpenMP 4.0's
// omp_set_lock on NVIDIA GPUs (the seed's Fig. 3 comparison); the workload's default is a plain
// 1000-cycle delay.
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

extern "C" __global__ void ht_backoff_fixed(Entry* pool, Entry** buckets, int* locks,
                                            const unsigned* keys, int num_buckets, int per_thread,
                                            int delay, int delay_per_cta) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const long long wait = delay + static_cast<long long>(delay_per_cta) * blockIdx.x;
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
      if (atomicCAS(mutex, 0, 1) == 0) {
        __threadfence();
        location->next = buckets[bucket];
        buckets[bucket] = location;
        done = true;
        __threadfence();
        atomicExch(mutex, 0);
      } else {
        simtsync_delay_cycles(wait);
      }
      SIMTSYNC_SPIN_LOOP();  // last in the body: see the note at the top
    }
  }
}
