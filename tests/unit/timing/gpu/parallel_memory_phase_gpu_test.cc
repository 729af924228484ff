// The parallel memory phase (issue 48) on a whole launch: a kernel whose threads each hit a line
// of their own with an atomic, a compare-and-swap on a contended word, a load and a store, on
// qv100 (32 memory partitions). Thread t of CTA c takes line t x 64 + c, so the CTAs' packets
// spread over the partitions. With 2 and 4 host threads the memory side runs per partition (the
// test checks that it did) and everything must be as with one: the cycles, every statistic,
// and, when the last lanes of every CTA run past the buffer, the kernel fault (met inside a
// parallel phase; MemoryHierarchy.FirstFaultInSerialOrderIsRethrown has several partitions
// fault in one L2 cycle).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "common/error.h"
#include "func/device.h"
#include "ptx/parser.h"
#include "sim/simulator.h"
#include "timing/gpu/timing_gpu.h"

// Its own namespace: the unity build puts this file beside others with the same helper names.
namespace simtsync::gpu::parallel_phase_test {
namespace {

const std::string kKernel = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 p, .param .u64 lock)
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [p];
  ld.param.u64 %rd5, [lock];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %nctaid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.s32 %r4, %r3, %r2, %r1;
  mul.wide.u32 %rd2, %r4, 128;
  add.s64 %rd3, %rd1, %rd2;
  atom.global.add.u32 %r5, [%rd3], 1;
  and.b32 %r8, %r4, 7;
  mul.wide.u32 %rd6, %r8, 256;
  add.s64 %rd7, %rd5, %rd6;
  atom.global.cas.b32 %r9, [%rd7], 0, %r4;
  ld.global.u32 %r6, [%rd3+8];
  add.s32 %r7, %r6, %r5;
  st.global.u32 [%rd3+4], %r7;
  ret;
}
)";

struct Outcome {
  std::string fault;
  Cycle cycles = 0;
  std::string json;  // the timing statistics
  std::string func;  // functional counters
  std::vector<std::uint32_t> memory;
  std::uint64_t phases = 0;
};

Outcome run(unsigned threads, unsigned buffer_lines) {
  sim::SimOptions o;
  o.mode = "timing";
  o.config = "qv100";
  o.threads = threads;
  o.sets = {{"watchdog.progress_seconds", "0"}, {"compile.registers_per_thread", "16"}};
  sim::Simulator s(o);
  func::Device& dev = s.device();
  const Addr buf = dev.upload(std::vector<std::uint32_t>(buffer_lines * 32, 0));
  const Addr lock = dev.upload(std::vector<std::uint32_t>(8 * 64, 0));
  const int m = dev.load_module(ptx::parse_module(kKernel, "mem_phase.ptx"));
  Outcome out;
  try {
    const func::LaunchResult r =
        dev.launch(m, "k", {64, 1, 1}, {128, 1, 1}, func::KernelArgs().add(buf).add(lock));
    out.cycles = r.cycles;
    out.func = std::to_string(r.stats.atomics) + " " + std::to_string(r.stats.loads) + " " +
               std::to_string(r.stats.stores) + " " + std::to_string(r.stats.cas_attempts) + " " +
               std::to_string(r.stats.cas_failures);
    out.json = s.timing_json().dump();
    out.memory = dev.download<std::uint32_t>(buf, buffer_lines * 32);
  } catch (const Error& e) {
    out.fault = e.what();
  }
  out.phases = s.timing()->parallel_memory_phases();
  return out;
}

TEST(ParallelMemoryPhase, LaunchIsTheSameOnAnyThreadCount) {
  const Outcome one = run(1, 64 * 128);
  ASSERT_EQ(one.fault, "");
  EXPECT_EQ(one.phases, 0u);
  for (unsigned t : {2u, 4u}) {
    SCOPED_TRACE(testing::Message() << t << " threads");
    const Outcome par = run(t, 64 * 128);
    EXPECT_GT(par.phases, 0u);
    EXPECT_EQ(par.fault, "");
    EXPECT_EQ(par.cycles, one.cycles);
    EXPECT_EQ(par.func, one.func);
    EXPECT_EQ(par.json, one.json);
    EXPECT_EQ(par.memory, one.memory);
  }
}

TEST(ParallelMemoryPhase, KernelFaultIsTheSameOnAnyThreadCount) {
  // Lanes 24-31 of every CTA's last warp (threads 120-127) lie past the buffer.
  const Outcome one = run(1, 120 * 64);
  ASSERT_NE(one.fault.find("out-of-bounds global"), std::string::npos) << one.fault;
  for (unsigned t : {2u, 4u}) {
    SCOPED_TRACE(testing::Message() << t << " threads");
    const Outcome par = run(t, 120 * 64);
    EXPECT_GT(par.phases, 0u);
    EXPECT_EQ(par.fault, one.fault);
  }
}

}  // namespace
}  // namespace simtsync::gpu::parallel_phase_test
