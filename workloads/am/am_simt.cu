// am_simt: array maximum (seed 003 Table I and sec. V-B, AM). The array is cut into `segments`
// equal parts, each with its own maximum and lock (fine-grained: many segments; coarse-grained:
// one). A thread first checks, without the lock, whether its element beats the current maximum
// and only then enters the critical section, where it checks again and updates. SIMT-compliant:
// the lock attempt and the release share one loop body.
// The spin mark ends the loop body on purpose. With the mark first, nvcc -O3 threads the
// success path straight out of the loop and turns the code back into the MIMD lock loop
// (seen for am, atm and cp_ds; the hazard seed 004 sec. 6.5.3 reports); an asm statement at
// the join of both paths is not duplicated, which keeps the critical section in the loop.
#include "simtsync.cuh"

extern "C" __global__ void am_simt(const int* data, int n, int seg_len, volatile int* maxima,
                                   int* locks) {
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    int x = data[i];
    int s = i / seg_len;
    if (x > maxima[s]) {  // the non-blocking check
      bool done = false;
      while (!done) {
        if (atomicCAS(&locks[s], 0, 1) == 0) {
          __threadfence();
          if (x > maxima[s]) maxima[s] = x;
          __threadfence();
          atomicExch(&locks[s], 0);
          done = true;
        }
        SIMTSYNC_SPIN_LOOP();  // last in the body: see the note at the top
      }
    }
  }
}
