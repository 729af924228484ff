// interac: parallel bank transactions (seed 004 sec. 6.5.3, Example 19). Each account holds its
// lock next to its balance. A thread takes the lower-numbered account's lock first, keeps it
// (has_first) and retries only the second lock until the transaction can run, then releases
// both with plain stores. Ordered acquisition avoids lock cycles; keeping the whole attempt in
// one loop body keeps it SIMT-compliant.
// The spin mark ends the loop body on purpose. With the mark first, nvcc -O3 threads the
// success path straight out of the loop and turns the code back into the MIMD lock loop
// (seen for am, atm and cp_ds; the hazard seed 004 sec. 6.5.3 reports); an asm statement at
// the join of both paths is not duplicated, which keeps the critical section in the loop.
#include "simtsync.cuh"

struct Account {
  int lock;
  int balance;
};

extern "C" __global__ void interac(Account* accounts, const int* from, const int* to,
                                   const int* amount, int per_thread) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < per_thread; ++i) {
    int t = tid * per_thread + i;
    int a = from[t], b = to[t], m = amount[t];
    volatile Account* first = &accounts[min(a, b)];
    volatile Account* second = &accounts[max(a, b)];
    volatile int* src = &accounts[a].balance;
    volatile int* dst = &accounts[b].balance;
    bool has_first = false;
    bool done = false;
    while (!done) {
      if (has_first || atomicCAS((int*)&first->lock, 0, 1) == 0) {
        has_first = true;
        if (atomicCAS((int*)&second->lock, 0, 1) == 0) {
          __threadfence();
          *src = *src - m;
          *dst = *dst + m;
          __threadfence();
          second->lock = 0;
          first->lock = 0;
          done = true;
        }
      }
      SIMTSYNC_SPIN_LOOP();  // last in the body: see the note at the top
    }
  }
}
