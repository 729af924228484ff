// barrier_skip: a CTA barrier that one warp never reaches. Warp 0 waits at named barrier 1,
// which expects 64 threads (two warps); warp 1 skips it and exits. Hardware counts whole warps
// at a barrier, so the barrier can never complete: a deadlock the watchdog must report.
extern "C" __global__ void barrier_skip(int* out) {
  if (threadIdx.x < 32) {
    asm volatile("bar.sync 1, 64;");
    out[threadIdx.x] = 1;
  }
}
