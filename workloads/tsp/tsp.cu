// tsp: travelling-salesman hill climbing (seed 000 sec. V and Fig. 6b, after O'Neil, Tamir and
// Burtscher's GPU TSP). Every thread runs climbers: a random tour (its own generator, seeded by
// the climber number) improved by best-improvement 2-opt moves until no move shortens it. The
// best tour found so far is one global solution guarded by one global lock. The lock is taken
// as in Fig. 6b: the lanes of a warp take turns (`lane == i`), so only one lane of a warp ever
// spins on the lock and the CPU-style spin loop is SIMT-safe.
#include "simtsync.cuh"

namespace {

__device__ __forceinline__ unsigned next_random(unsigned& x) {  // xorshift32
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return x;
}

__device__ __forceinline__ int tour_length(const int* dist, const int* t, int n) {
  int len = 0;
  for (int i = 0; i < n; ++i) len += dist[t[i] * n + t[i + 1 < n ? i + 1 : 0]];
  return len;
}

}  // namespace

// dist: n x n integer distances; tours: climbers x n scratch (each climber's final tour);
// climber_len: each climber's final length; best_len / best_tour: the global solution.
extern "C" __global__ void tsp(const int* dist, int n, int climbers, unsigned seed, int* tours,
                               int* climber_len, volatile int* best_len, volatile int* best_tour,
                               int* mutex) {
  const int threads = gridDim.x * blockDim.x;
  const int lane = threadIdx.x % 32;
  for (int base = blockIdx.x * blockDim.x; base < climbers; base += threads) {
    const int c = base + threadIdx.x;
    const bool active = c < climbers;
    int len = 0;
    int* t = tours + static_cast<long>(c) * n;
    if (active) {
      unsigned x = seed ^ (static_cast<unsigned>(c) + 1u) * 0x9E3779B9u;
      if (x == 0) x = 1;
      for (int i = 0; i < n; ++i) t[i] = i;
      for (int i = n - 1; i > 0; --i) {  // Fisher-Yates
        const int j = static_cast<int>(next_random(x) % static_cast<unsigned>(i + 1));
        const int tmp = t[i];
        t[i] = t[j];
        t[j] = tmp;
      }
      for (;;) {  // 2-opt: replace edges (a,b),(c,d) by (a,c),(b,d) and reverse b..c
        int best = 0, bi = -1, bj = -1;
        for (int i = 0; i + 2 < n; ++i) {
          const int a = t[i], b = t[i + 1];
          const int dab = dist[a * n + b];
          for (int j = i + 2; j < n; ++j) {
            if (i == 0 && j == n - 1) continue;  // the two edges touch
            const int cc = t[j], d = t[j + 1 < n ? j + 1 : 0];
            const int delta = dist[a * n + cc] + dist[b * n + d] - dab - dist[cc * n + d];
            if (delta < best) {
              best = delta;
              bi = i;
              bj = j;
            }
          }
        }
        if (bi < 0) break;
        for (int lo = bi + 1, hi = bj; lo < hi; ++lo, --hi) {
          const int tmp = t[lo];
          t[lo] = t[hi];
          t[hi] = tmp;
        }
      }
      len = tour_length(dist, t, n);
      climber_len[c] = len;
    }
    // Fig. 6b: serialize the lanes of the warp on the global lock.
    for (int i = 0; i < 32; ++i) {
      if (active && lane == i) {
        while (atomicCAS(mutex, 0, 1) != 0) {
          SIMTSYNC_SPIN_LOOP();
        }
        __threadfence();
        if (len < *best_len) {
          *best_len = len;
          for (int k = 0; k < n; ++k) best_tour[k] = t[k];
        }
        __threadfence();
        atomicExch(mutex, 0);
      }
    }
  }
}
