// nw_tiny1 / nw_tiny2: Needleman-Wunsch as a dataflow synchronized with the shared-memory lock
// bits (seed 001 sec. 6, Listing 15, the "Tiny-Lock" column of Table 3). Same tiles and outer
// framework as nw.cu: a CTA of 32x32 threads owns a tile of 31x31 cells plus its halo (row 0 and
// column 0, computed earlier), one launch per tile anti-diagonal.
//
// The channel of a cell is its own score word: no mutex words. Every interior thread (an actor)
// takes its cell's lock bit at the start (LDSLK without checking: nobody asks before the
// __syncthreads), so a held bit means "not fired yet". It then takes its west and north
// neighbours' tokens with LDSLK attempts, which also read their scores, and puts each back at
// once with an STSUL that stores the score it read (the resource-preferred shared channel of
// Fig. 8: a producer's two consumers share one bit). It fires with the STSUL that writes its own
// score and frees its bit. Halo words are never locked: their tokens are free from the start.
// The north-west score is safe to read once both tokens were seen (they depend on it).
//
// West neighbours are lanes of the same warp, so the retry loop is the critical-section scheme
// of Listing 8: one loop body in which a lane that takes a token restores it, and a lane that
// fires frees its own bit, in the same divergent path; no lane waits at a reconvergence point
// for a lane that waits for it (sec. 4.4.1).
//
// Lock bits: the tile is s[32][32] = 1024 consecutive words, the only shared variable, so its
// words map to 1024 distinct lock bits (word address modulo 1024) and no two of them alias.
// Every CTA's tile maps onto all 1024 bits of its SM: two CTAs resident on one SM would share
// every bit (see README.md: one 1024-thread CTA per SM, as on the seed's Fermi).
#include "simtsync.cuh"

namespace {

constexpr int kTile = 32;  // threads per side of a CTA; 31 computed cells plus the halo

__device__ __forceinline__ void tile_tiny_lock(int* score, const int* ref, int stride, int penalty,
                                               int tile_row, int tile_col) {
  __shared__ int s[kTile][kTile];
  volatile int(*vs)[kTile] = s;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const long g =
      static_cast<long>(tile_row * (kTile - 1) + ty) * stride + tile_col * (kTile - 1) + tx;
  const bool interior = tx != 0 && ty != 0;
  int p = 0;
  if (interior) {
    p = ref[g];
    simtsync_tiny_lock(&vs[ty][tx]);  // lock self: LDSLK, the bit is free at this point
  } else {
    vs[ty][tx] = score[g];  // the halo; its lock bit stays free
  }
  __syncthreads();  // every producer holds its bit before any consumer asks
  if (interior) {
    bool north_sync = false, west_sync = false, finished = false;
    int north = 0, west = 0;
    while (!finished) {
      if (!west_sync && simtsync_tiny_trylock(&vs[ty][tx - 1], &west)) {  // get west
        simtsync_tiny_unlock(&vs[ty][tx - 1], west);                      // restore the token
        west_sync = true;
      }
      if (!north_sync && simtsync_tiny_trylock(&vs[ty - 1][tx], &north)) {  // get north
        simtsync_tiny_unlock(&vs[ty - 1][tx], north);
        north_sync = true;
      }
      finished = north_sync && west_sync;
      if (finished)  // fire: store the score and free this cell's bit (put self)
        simtsync_tiny_unlock(&vs[ty][tx],
                             max(vs[ty - 1][tx - 1] + p, max(north - penalty, west - penalty)));
      SIMTSYNC_SPIN_LOOP();  // last in the body, as in nw.cu
    }
  }
  __syncthreads();
  if (interior) score[g] = vs[ty][tx];
}

}  // namespace

// Upper-left triangle: launch `diag` (1..tiles) has `diag` CTAs on tile anti-diagonal diag-1.
extern "C" __global__ void nw_tiny1(int* score, const int* ref, int stride, int penalty, int diag) {
  tile_tiny_lock(score, ref, stride, penalty, diag - 1 - blockIdx.x, blockIdx.x);
}

// Lower-right triangle: launch `diag` (tiles-1 down to 1) has `diag` CTAs.
extern "C" __global__ void nw_tiny2(int* score, const int* ref, int stride, int penalty, int diag,
                                    int tiles) {
  tile_tiny_lock(score, ref, stride, penalty, tiles - 1 - blockIdx.x, blockIdx.x + tiles - diag);
}
