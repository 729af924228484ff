// A per-thread mutex around a histogram update, as MIMD code writes it: lanes of one warp that
// hash to the same bin spin while the lane holding the lock waits at the reconvergence point.
// SIMT-deadlocks under an IPDOM stack (the lock loop, line 7).
struct Mutex {
  int* m;
  __device__ void lock() {
    while (atomicCAS(m, 0, 1) != 0) {
    }
  }
  __device__ void unlock() {
    __threadfence();
    atomicExch(m, 0);
  }
};

__global__ void mutex_histogram(int* locks, int* bins, const int* keys, int n, int nbins) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int b = keys[i] % nbins;
  Mutex mu{&locks[b]};
  mu.lock();
  bins[2 * b] += 1;
  bins[2 * b + 1] += keys[i];
  mu.unlock();
}
