// mb_lockbit: lock-bit contention between the CTAs resident on one SM (seed 001 sec. 4.4.2:
// "given the fact that an SM can accommodate several thread blocks, the volume of usable lock
// bits can significantly limit the number of thread blocks an SM could support"). The lock unit
// has one bit per shared-memory word address modulo 1024 and every CTA on an SM shares it; a
// CTA's words sit at its slot's place in the SM's shared memory, `footprint` words per CTA (the
// dynamic shared allocation). Thread t of every CTA owns word t and, `iters` times, takes that
// word's lock bit, increments the word and frees the bit (Listing 8's critical section: lock and
// unlock in one divergent path of one retry loop, so nothing ever waits while holding a bit and
// the kernel cannot deadlock). Inside a CTA no two threads share a bit. Across CTAs on one SM,
// word t of the CTA in slot k maps to bit (k * footprint + t) mod 1024: with footprint 1024 every
// resident CTA's word t shares one bit (each LDSLK may find it held by another CTA and retries),
// with footprint = threads and at most 1024 / threads CTAs per SM no two CTAs share a bit.
// Each thread counts its failed attempts; thread 0 records the CTA's start and end clocks.
#include "simtsync.cuh"

extern "C" __global__ void mb_lockbit(int iters, unsigned* words_out, unsigned* failures,
                                      long long* start, long long* end) {
  extern __shared__ int lockbit_words[];
  volatile int* w = lockbit_words;
  const int t = threadIdx.x;
  w[t] = 0;
  __syncthreads();
  if (t == 0) start[blockIdx.x] = clock64();
  unsigned failed = 0;
  for (int i = 0; i < iters; ++i) {
    bool done = false;
    while (!done) {
      int x;
      if (simtsync_tiny_trylock(&w[t], &x)) {
        simtsync_tiny_unlock(&w[t], x + 1);  // increment and free the bit in the same path
        done = true;
      } else {
        ++failed;
      }
      SIMTSYNC_SPIN_LOOP();
    }
  }
  __syncthreads();
  if (t == 0) end[blockIdx.x] = clock64();
  const int g = blockIdx.x * blockDim.x + t;
  words_out[g] = static_cast<unsigned>(w[t]);
  failures[g] = failed;
}
