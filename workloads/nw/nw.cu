// nw1 / nw2: Needleman-Wunsch as a lock-based dataflow (seed 001 sec. 6, Listing 14; the NW1
// and NW2 kernels of seed 000 sec. V). The score grid is cut into tiles of 31x31 cells; a CTA
// of 32x32 threads owns one tile plus its halo (row 0 and column 0 of the tile, computed
// earlier). Every interior thread is an actor guarding its cell with a lock in shared memory:
// it holds its own lock until it has fired (the token is the free lock), and takes its north
// and west neighbours' tokens, reads their values and puts the tokens back (the
// resource-preferred shared channel of seed 001 Fig. 8). The retry loop is the SIMT-safe
// critical-section scheme: all work happens inside one loop body, so a lane never waits at a
// reconvergence point for a lane that waits for it. The north-west value is safe to read once
// both tokens were seen.
//
// The host launches one kernel per anti-diagonal of tiles, as in Rodinia's outer framework:
// nw1 walks the upper-left triangle (its tiles run from the bottom-left end of the diagonal to
// the top-right), nw2 the lower-right triangle in the opposite direction.
#include "simtsync.cuh"

namespace {

constexpr int kTile = 32;  // threads per side of a CTA; 31 computed cells plus the halo

__device__ __forceinline__ void tile_dataflow(int* score, const int* ref, int stride,
                                              int penalty, int tile_row, int tile_col) {
  __shared__ int s[kTile][kTile];
  __shared__ int mutex[kTile][kTile];
  volatile int(*vs)[kTile] = s;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const long g = static_cast<long>(tile_row * (kTile - 1) + ty) * stride + tile_col * (kTile - 1) + tx;
  const bool interior = tx != 0 && ty != 0;
  int p = 0;
  if (interior)
    p = ref[g];
  else
    s[ty][tx] = score[g];
  mutex[ty][tx] = interior ? 1 : 0;  // lock(&mutex[ty][tx]): nobody else touches it yet
  __syncthreads();
  if (interior) {
    bool north_sync = false, west_sync = false, finished = false;
    int north = 0, west = 0;
    while (!finished) {
      if (!north_sync && atomicExch(&mutex[ty - 1][tx], 1) == 0) {
        north = vs[ty - 1][tx];  // get the north operand
        north_sync = true;
        atomicExch(&mutex[ty - 1][tx], 0);  // restore the token
      }
      if (!west_sync && atomicExch(&mutex[ty][tx - 1], 1) == 0) {
        west = vs[ty][tx - 1];  // get the west operand
        west_sync = true;
        atomicExch(&mutex[ty][tx - 1], 0);
      }
      finished = north_sync && west_sync;
      if (finished) {  // fire
        vs[ty][tx] = max(vs[ty - 1][tx - 1] + p, max(north - penalty, west - penalty));
        __threadfence_block();
        atomicExch(&mutex[ty][tx], 0);  // put self: release the token
      }
      SIMTSYNC_SPIN_LOOP();  // last in the body (see atm_simt.cu)
    }
  }
  __syncthreads();
  if (interior) score[g] = s[ty][tx];
}

}  // namespace

// Upper-left triangle: launch `diag` (1..tiles) has `diag` CTAs on tile anti-diagonal diag-1.
extern "C" __global__ void nw1(int* score, const int* ref, int stride, int penalty, int diag) {
  tile_dataflow(score, ref, stride, penalty, diag - 1 - blockIdx.x, blockIdx.x);
}

// Lower-right triangle: launch `diag` (tiles-1 down to 1) has `diag` CTAs.
extern "C" __global__ void nw2(int* score, const int* ref, int stride, int penalty, int diag,
                               int tiles) {
  tile_dataflow(score, ref, stride, penalty, tiles - 1 - blockIdx.x, blockIdx.x + tiles - diag);
}
