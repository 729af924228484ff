// The software back-off variants of ht and atm (seed 000 Fig. 3: a delay after a failed lock
// attempt, in software): their kind, workload parameters and kernel arguments, shared by both
// drivers. The device side is workloads/include/simtsync_backoff.cuh.
#pragma once

#include <vector>

#include "framework/workload.h"

namespace simtsync::workloads {

enum class Backoff {
  kNone,
  kFixed,      // a clock64() delay of delay + delay_per_cta * blockIdx.x cycles
  kExp,        // a clock64() delay from delay_base, doubled per failure up to delay_cap
  kNanosleep,  // nanosleep from 8 ns, doubled per failure up to 8 << max_level ns
};

// The kind's parameters, the same at every size. Defaults: fixed, OpenMP 4.0's omp_set_lock
// constant (__OMP_SPIN = 1000 cycles; OpenMP multiplies it by blockIdx.x: delay=0,
// delay_per_cta=1000); exponential, BOWS's delay range in seed 000 (500 cycles, the smallest
// non-zero limit of Fig. 10/11, to 10,000, the largest its 14-bit counters hold, Table III);
// nanosleep, the CUDA C++ Programming Guide's mutex (8 ns doubled up to 256 ns).
inline std::vector<ParamSpec> backoff_params(Backoff b) {
  switch (b) {
    case Backoff::kFixed:
      return {
          {"delay", "back-off cycles after a failed lock attempt", 1000, 1000, 1000, 0, 1 << 24},
          {"delay_per_cta", "more back-off cycles per CTA index (OpenMP: 1000, delay 0)", 0, 0, 0,
           0, 1 << 16}};
    case Backoff::kExp:
      return {{"delay_base", "first back-off delay in cycles (doubled per failure)", 500, 500, 500,
               1, 1 << 24},
              {"delay_cap", "largest back-off delay in cycles", 10000, 10000, 10000, 1, 1 << 24}};
    case Backoff::kNanosleep:
      return {
          {"max_level", "sleep doublings from 8 ns (5: up to 256 ns; at most 10)", 5, 5, 5, 0, 10}};
    default:
      return {};
  }
}

// Appends the kind's kernel arguments (after the kernel's own) in declaration order.
inline void add_backoff_args(func::KernelArgs& args, Backoff b, const WorkloadContext& ctx) {
  for (const ParamSpec& p : backoff_params(b)) args.add(static_cast<int>(ctx.param(p.name)));
}

}  // namespace simtsync::workloads
