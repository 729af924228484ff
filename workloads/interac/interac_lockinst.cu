// interac_lockinst: interac's bank transactions (interac.cu) written with the lock and unlock
// instructions of seed 004 ch. 4, as in the thesis's Example 20:
//   lock(A); lock(B); src->balance -= amount; dest->balance += amount; unlock(B); unlock(A);
// A is the lower-numbered account (the lock word at the lower address), so the nested locks
// are taken in a fixed order and cannot form a cycle. The lock word is the account's `lock`
// field: -1 free, else the holder's grid thread id. No retry loop, no has_first flag.
// Needs sm.reconvergence.impl=lock_stack. With lock queuing (sm.lock_queue) nested locks can
// deadlock (seed 004 sec. 5.2.2), which is why the thesis leaves interac out of Fig. 7.3.
#include "simtsync.cuh"

struct Account {
  int lock;
  int balance;
};

extern "C" __global__ void interac_lockinst(Account* accounts, const int* from, const int* to,
                                            const int* amount, int per_thread) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < per_thread; ++i) {
    int t = tid * per_thread + i;
    int a = from[t], b = to[t], m = amount[t];
    Account* first = &accounts[min(a, b)];
    Account* second = &accounts[max(a, b)];
    volatile int* src = &accounts[a].balance;
    volatile int* dst = &accounts[b].balance;
    simtsync_lock(&first->lock);
    simtsync_lock(&second->lock);
    __threadfence();
    *src = *src - m;
    *dst = *dst + m;
    __threadfence();
    simtsync_unlock(&second->lock);
    simtsync_unlock(&first->lock);
  }
}
