// A kernel for reconvergence-unit statistics tests: two warps of 32 threads, each splitting once
// at a branch on the thread's parity; run under a given unit.
#pragma once

#include <gtest/gtest.h>

#include "func/device.h"
#include "ptx/parser.h"
#include "simt/registry.h"

namespace simtsync::simt::test_kernels {

inline constexpr const char* kParityBranchPtx = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry k()
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  mov.u32 %r0, %tid.x;
  and.b32 %r1, %r0, 1;
  setp.eq.u32 %p0, %r1, 0;
  @%p0 bra EVEN;
  add.u32 %r2, %r0, 1;
  bra.uni DONE;
EVEN:
  add.u32 %r2, %r0, 2;
DONE:
  ret;
}
)";

inline func::LaunchResult run_parity_branch(const UnitChoice& unit) {
  func::DeviceOptions o;
  o.reconvergence = unit;
  func::Device dev(o);
  const int m = dev.load_module(ptx::parse_module(kParityBranchPtx, "k.ptx"));
  func::LaunchResult r = dev.launch(m, "k", {1, 1, 1}, {64, 1, 1}, func::KernelArgs());
  EXPECT_TRUE(r.completed) << r.watchdog_report;
  return r;
}

}  // namespace simtsync::simt::test_kernels
