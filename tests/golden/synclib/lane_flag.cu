// One lane of a warp produces, the others of the same warp wait for its flag: a warp-uniform
// read, but the writer sits on the other side of a divergent branch. SIMT-deadlocks under an
// IPDOM stack when the waiting side runs first (the wait loop, line 12).
__global__ void lane_flag(volatile int* flags, int* data, int* out) {
  const int lane = threadIdx.x & 31;
  const int w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (lane == 0) {
    data[w] = w * 7;
    __threadfence();
    flags[w] = 1;
  } else {
    while (flags[w] == 0) {
    }
    out[w * 32 + lane] = data[w] + lane;
  }
}
