// What the test programs share, as the CUDA samples share their helper headers: a check of
// every runtime call (prints `FAILED <kName>: <call> at file:line: <error>` and exits 1; each
// program defines kName) and a fixed-seed input generator.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#define CHECK_CUDA(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      printf("FAILED %s: %s at %s:%d: %s\n", kName, #call, __FILE__, __LINE__, \
             cudaGetErrorString(err_));                                        \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

// Fixed-seed linear congruential generator (Numerical Recipes constants).
static inline uint32_t lcgNext(uint32_t* state) {
  *state = *state * 1664525u + 1013904223u;
  return *state;
}
