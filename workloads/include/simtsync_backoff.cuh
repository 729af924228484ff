// Software back-off after a failed lock attempt, for the back-off variants of ht and atm (seed
// 000 Fig. 3: "software-only backoff delay code" added to the spin lock of Fig. 1a).
//
// simtsync_delay_cycles(n): busy-waits n cycles on clock64(), as the OpenMP 4.0 device
//   runtime's omp_set_lock does on clock() (LLVM libomptarget, nvptx: a failed atomicCAS waits
//   __OMP_SPIN * blockIdx.x cycles, __OMP_SPIN = 1000). clock64() reads %clock64, which nvcc
//   never folds, so the loop survives -O3; it issues instructions for the whole delay.
// simtsync_nanosleep_level(k): __nanosleep(8 << k) for k in 0..10 (8 ns .. 8192 ns), each with
//   an immediate operand: the exponential back-off of the CUDA C++ Programming Guide's
//   __nanosleep mutex (8 ns, doubled after every failure up to 256 ns). nanosleep.u32 needs
//   sm_70; the warp issues nothing while it sleeps.
#pragma once

__device__ __forceinline__ void simtsync_delay_cycles(long long cycles) {
  const long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
}

// nanosleep.u32 with an immediate operand (__nanosleep passes a register, which the timing
// model cannot read: src/timing/sched/sleep_filter.h).
template <unsigned kNs>
__device__ __forceinline__ void simtsync_nanosleep() {
  asm volatile("nanosleep.u32 %0;" ::"n"(kNs));
}

__device__ __forceinline__ void simtsync_nanosleep_level(int k) {
  switch (k) {
    case 0:
      simtsync_nanosleep<8>();
      break;
    case 1:
      simtsync_nanosleep<16>();
      break;
    case 2:
      simtsync_nanosleep<32>();
      break;
    case 3:
      simtsync_nanosleep<64>();
      break;
    case 4:
      simtsync_nanosleep<128>();
      break;
    case 5:
      simtsync_nanosleep<256>();
      break;
    case 6:
      simtsync_nanosleep<512>();
      break;
    case 7:
      simtsync_nanosleep<1024>();
      break;
    case 8:
      simtsync_nanosleep<2048>();
      break;
    case 9:
      simtsync_nanosleep<4096>();
      break;
    default:
      simtsync_nanosleep<8192>();
      break;
  }
}
