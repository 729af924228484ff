// Lock instructions (seed 004 ch. 4-6) end to end: simtsync_lock/simtsync_unlock decoded into
// single instructions, the lock_stack unit, and lock queuing in the memory partitions. The
// kernel is a textbook critical section with no retry loop: every thread increments the counter
// of its lock k = tid % nlocks under lock k.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/error.h"
#include "config/config.h"
#include "config/schema.h"
#include "func/device.h"
#include "func/global_memory.h"
#include "func/program.h"
#include "ptx/parser.h"
#include "simt/registry.h"
#include "timing/gpu/timing_gpu.h"
#include "timing/mem/lock_queue.h"

namespace simtsync::gpu {
namespace {

// nvcc 13 -O3 output for the kernel above (workloads/include/simtsync.cuh declarations).
constexpr const char* kCountPtx = R"(
.version 9.0
.target sm_75
.address_size 64
.extern .func simtsync_lock(.param .b64 p);
.extern .func simtsync_unlock(.param .b64 p);
.visible .func simtsync_lock(.param .b64 p) { trap; ret; }
.visible .func simtsync_unlock(.param .b64 p) { trap; ret; }
.visible .entry count(.param .u64 count_param_0, .param .u64 count_param_1,
                      .param .u32 count_param_2)
{
  .reg .b32 %r<9>;
  .reg .b64 %rd<7>;
  ld.param.u64 %rd1, [count_param_0];
  ld.param.u64 %rd2, [count_param_1];
  ld.param.u32 %r1, [count_param_2];
  cvta.to.global.u64 %rd3, %rd2;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  rem.s32 %r6, %r5, %r1;
  mul.wide.s32 %rd4, %r6, 4;
  add.s64 %rd5, %rd1, %rd4;
  {
  .param .b64 param0;
  st.param.b64 [param0+0], %rd5;
  call.uni simtsync_lock, (param0);
  }
  add.s64 %rd6, %rd3, %rd4;
  ld.global.u32 %r7, [%rd6];
  add.s32 %r8, %r7, 1;
  st.global.u32 [%rd6], %r8;
  {
  .param .b64 param0;
  st.param.b64 [param0+0], %rd5;
  call.uni simtsync_unlock, (param0);
  }
  ret;
}
)";

struct CountRun {
  func::LaunchResult result;
  TimingTotals totals;
  std::vector<std::int32_t> counters, locks;
};

constexpr unsigned kCtas = 4, kThreads = 64, kLocks = 8;

GpuParams gtx480(std::vector<std::pair<std::string, std::string>> sets) {
  sets.insert(sets.begin(), {"sm.reconvergence.impl", "lock_stack"});
  GpuParams p = gpu_params_from(config::Config::load(config::gpu_schema(), "gtx480", sets));
  p.registers_per_thread = 16;  // no ptxas needed
  return p;
}

CountRun run_count(func::Device& dev) {
  const Addr locks = dev.upload(std::vector<std::int32_t>(kLocks, -1));
  const Addr counters = dev.upload(std::vector<std::int32_t>(kLocks, 0));
  const int m = dev.load_module(ptx::parse_module(kCountPtx, "count.ptx"));
  CountRun r;
  r.result = dev.launch(m, "count", {kCtas, 1, 1}, {kThreads, 1, 1},
                        func::KernelArgs().add(locks).add(counters).add(static_cast<int>(kLocks)));
  r.counters = dev.download<std::int32_t>(counters, kLocks);
  r.locks = dev.download<std::int32_t>(locks, kLocks);
  return r;
}

CountRun run_timing(const GpuParams& p) {
  TimingGpu gpu(p);
  func::DeviceOptions o;
  o.reconvergence = p.reconvergence;
  func::Device dev(o);
  dev.set_backend(&gpu);
  CountRun r = run_count(dev);
  r.totals = gpu.totals();
  return r;
}

void expect_counted(const CountRun& r) {
  ASSERT_TRUE(r.result.completed) << r.result.watchdog_report;
  for (unsigned k = 0; k < kLocks; ++k) {
    EXPECT_EQ(r.counters[k], static_cast<int>(kCtas * kThreads / kLocks)) << "counter " << k;
    EXPECT_EQ(r.locks[k], -1) << "lock " << k;
  }
  const func::ExecStats& s = r.result.stats;
  EXPECT_EQ(s.lock_acquired, kCtas * kThreads);
  EXPECT_EQ(s.unlock_requests, kCtas * kThreads);
  // Every lock instruction that let threads in pushed an L entry; each L entry's threads
  // unlock together unless they diverge (they do not here).
  // lock_entry_pushes is lock_stack's declared statistic.
  EXPECT_EQ(s.reconvergence.unit, "lock_stack");
  EXPECT_EQ(s.unlock_instructions, s.reconvergence.get("lock_entry_pushes"));
  EXPECT_GE(s.reconvergence.get("lock_entry_pushes"), kCtas * kThreads / 32 * (32 / kLocks));
  EXPECT_GE(s.lock_requests, s.lock_acquired);
}

TEST(LockInstructions, FunctionalCriticalSectionsSerialize) {
  func::DeviceOptions o;
  o.reconvergence = simt::reconvergence_choice("lock_stack");
  func::Device dev(o);
  const CountRun r = run_count(dev);
  expect_counted(r);
  // Each warp's 32 threads want 8 locks, 4 threads each: of them one per lock at a time gets
  // in, so a warp needs at least 4 lock entries (other warps' holders add retries).
  EXPECT_GE(r.result.stats.lock_instructions, kCtas * kThreads / 32 * 4);
}

TEST(LockInstructions, OneWarpTakesItsLocksInLaneOrderRounds) {
  // One warp alone: 4 rounds, each letting the lowest waiting lane of every lock in.
  func::DeviceOptions o;
  o.reconvergence = simt::reconvergence_choice("lock_stack");
  func::Device dev(o);
  const Addr locks = dev.upload(std::vector<std::int32_t>(kLocks, -1));
  const Addr counters = dev.upload(std::vector<std::int32_t>(kLocks, 0));
  const int m = dev.load_module(ptx::parse_module(kCountPtx, "count.ptx"));
  const auto r = dev.launch(m, "count", {1, 1, 1}, {32, 1, 1},
                            func::KernelArgs().add(locks).add(counters).add(int{kLocks}));
  ASSERT_TRUE(r.completed) << r.watchdog_report;
  EXPECT_EQ(r.stats.lock_instructions, 4u);
  EXPECT_EQ(r.stats.lock_retries, 3u);
  EXPECT_EQ(r.stats.lock_requests, 32u + 24u + 16u + 8u);
  EXPECT_EQ(r.stats.lock_acquired, 32u);
  EXPECT_EQ(r.stats.reconvergence.get("lock_entry_pushes"), 4u);
  EXPECT_EQ(r.stats.unlock_instructions, 4u);
  for (std::int32_t c : dev.download<std::int32_t>(counters, kLocks)) EXPECT_EQ(c, 4);
}

TEST(LockInstructions, DecodeToSingleInstructions) {
  // st.param of the address and the call: one atomic on the global lock word each.
  func::GlobalMemory mem;
  const ptx::Module mod = ptx::parse_module(kCountPtx, "count.ptx");
  const func::Program prog(mod, mem);
  const func::DecodedFunction& k = *prog.kernel("count");
  std::vector<const func::ExecInst*> ops;
  // The fused operations (the calls they cover stay in the code, never reached).
  for (const auto& e : k.code)
    if (func::is_lock_inst(e.lock_op) && e.mem.base != func::MemRef::Base::kNone) ops.push_back(&e);
  ASSERT_EQ(ops.size(), 2u);
  for (const func::ExecInst* e : ops) {
    EXPECT_EQ(e->op, ptx::Opcode::kAtom);
    EXPECT_EQ(e->a.space, ptx::Space::kGlobal);
    EXPECT_EQ(e->mem.base, func::MemRef::Base::kReg);
    EXPECT_EQ(e->span, 2u);
    EXPECT_EQ(e->fallthrough(), e->pc + 2 * kInstSize);
  }
  EXPECT_EQ(ops[0]->lock_op, func::IntrinsicOp::kLock);
  EXPECT_EQ(ops[0]->a.op, ptx::Mod::kCasOp);
  EXPECT_EQ(ops[1]->lock_op, func::IntrinsicOp::kUnlock);
  EXPECT_EQ(ops[1]->a.op, ptx::Mod::kExchOp);
}

TEST(LockInstructions, NeedTheLockStack) {
  func::Device dev;  // the IPDOM stack
  try {
    run_count(dev);
    FAIL() << "expected a fault";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("sm.reconvergence.impl=lock_stack"), std::string::npos)
        << e.what();
  }
}

TEST(LockInstructions, TimingRetriesUntilEveryThreadIsThrough) {
  const CountRun r = run_timing(gtx480({}));
  expect_counted(r);
  EXPECT_GT(r.result.stats.lock_retries, 0u);
  EXPECT_EQ(mem::unit_stat(r.totals.hier, "lock_queue", "parked"), 0u);
}

TEST(LockInstructions, IdealQueuingParksRequestsAndWritesLess) {
  const CountRun plain = run_timing(gtx480({}));
  const CountRun queued = run_timing(gtx480({{"mem.lock_queue.mode", "ideal"}}));
  expect_counted(queued);
  auto q = [&](const char* stat) { return mem::unit_stat(queued.totals.hier, "lock_queue", stat); };
  EXPECT_GT(q("parked"), 0u);
  EXPECT_EQ(q("handovers"), q("parked"));
  EXPECT_EQ(q("turned_away"), 0u);
  // A parked request never fails: every request performed at memory takes its lock.
  EXPECT_EQ(queued.result.stats.lock_requests, queued.result.stats.lock_acquired);
  EXPECT_LT(queued.result.stats.lock_requests, plain.result.stats.lock_requests);
}

TEST(LockInstructions, BoundedQueuesTurnAwayAndStillFinish) {
  const CountRun r = run_timing(gtx480({{"mem.lock_queue.mode", "bounded"},
                                        {"mem.lock_queue.queues", "1"},
                                        {"mem.lock_queue.records", "2"}}));
  expect_counted(r);
  EXPECT_GT(mem::unit_stat(r.totals.hier, "lock_queue", "turned_away"), 0u);
  EXPECT_GT(mem::unit_stat(r.totals.hier, "lock_queue", "parked"), 0u);
  EXPECT_LE(mem::unit_stat(r.totals.hier, "lock_queue", "peak_queues"), 1u);
  EXPECT_LE(mem::unit_stat(r.totals.hier, "lock_queue", "peak_records"), 2u);
}

TEST(LockInstructions, BoundedQueueRecordsGoThroughL2) {
  // Ideal queues are free; bounded ones write every record and read it at the hand-over
  // through the L2 slice.
  const CountRun ideal = run_timing(gtx480({{"mem.lock_queue.mode", "ideal"}}));
  const CountRun bounded = run_timing(gtx480({{"mem.lock_queue.mode", "bounded"}}));
  expect_counted(bounded);
  auto q = [&](const char* stat) {
    return mem::unit_stat(bounded.totals.hier, "lock_queue", stat);
  };
  EXPECT_EQ(q("turned_away"), 0u);  // 64 queues of 32 records are plenty here
  const auto& li = ideal.totals.hier.l2;
  const auto& lb = bounded.totals.hier.l2;
  // Creations write one record, parks two (the record and the tail's link), hand-overs read one.
  EXPECT_EQ(lb.stores - li.stores, q("created") + 2 * q("parked"));
  EXPECT_EQ(lb.loads - li.loads, q("handovers"));
}

TEST(LockInstructions, RunsAreDeterministic) {
  const GpuParams p = gtx480({{"mem.lock_queue.mode", "ideal"}});
  EXPECT_EQ(run_timing(p).result.cycles, run_timing(p).result.cycles);
}

// The queue table on its own: hand-over in arrival order.
TEST(LockQueueTable, HandsTheLockOverInArrivalOrder) {
  mem::LockQueueParams p;
  p.mode = mem::LockQueueMode::kIdeal;
  mem::LockQueueTable t(p);
  using Admit = mem::LockQueueTable::Admit;
  mem::Packet a, b, c;
  a.req = 1, b.req = 2, c.req = 3;
  a.lanes = b.lanes = c.lanes = 0xF;
  EXPECT_EQ(t.lock(0x100, a, 0, 10), Admit::kProceed);  // a holds it
  EXPECT_EQ(t.lock(0x100, b, 2, 11), Admit::kParked);
  EXPECT_EQ(t.lock(0x200, b, 1, 11), Admit::kProceed);  // another word: its own queue
  EXPECT_EQ(t.lock(0x100, c, 3, 12), Admit::kParked);
  EXPECT_EQ(t.lock(0x100, a, 1, 13), Admit::kParked);
  mem::LockRecord next;
  ASSERT_TRUE(t.unlock(0x100, 20, next));
  EXPECT_EQ(next.p.req, 2u);
  EXPECT_EQ(next.p.lanes, 1u << 2);
  ASSERT_TRUE(t.unlock(0x100, 30, next));
  EXPECT_EQ(next.p.req, 3u);
  EXPECT_EQ(next.p.lanes, 1u << 3);
  ASSERT_TRUE(t.unlock(0x100, 40, next));
  EXPECT_EQ(next.p.req, 1u);
  EXPECT_EQ(next.p.lanes, 1u << 1);
  EXPECT_FALSE(t.unlock(0x100, 50, next));  // the last holder: the queue goes
  EXPECT_EQ(t.queues(), 1u);
  EXPECT_FALSE(t.unlock(0x200, 50, next));
  EXPECT_TRUE(t.empty());
  const mem::LockQueueStats& s = t.stats();
  EXPECT_EQ(s.parked, 3u);
  EXPECT_EQ(s.handovers, 3u);
  EXPECT_EQ(s.wait_cycles, (20 - 11) + (30 - 12) + (40 - 13));
  EXPECT_EQ(s.max_wait, 27u);
  EXPECT_EQ(s.peak_records, 5u);
  EXPECT_EQ(s.len_2, 1u);
  EXPECT_EQ(s.len_3_4, 2u);
}

TEST(LockQueueTable, BoundedTurnsAwayWhenFull) {
  mem::LockQueueParams p;
  p.mode = mem::LockQueueMode::kBounded;
  p.queues = 1;
  p.records = 2;
  mem::LockQueueTable t(p);
  using Admit = mem::LockQueueTable::Admit;
  mem::Packet x;
  EXPECT_EQ(t.lock(0x100, x, 0, 0), Admit::kProceed);
  EXPECT_EQ(t.lock(0x200, x, 1, 0), Admit::kTurnedAway);  // no second queue
  EXPECT_EQ(t.lock(0x100, x, 2, 0), Admit::kParked);
  EXPECT_EQ(t.lock(0x100, x, 3, 0), Admit::kTurnedAway);  // the queue holds two records
  EXPECT_EQ(t.stats().turned_away, 2u);
}

}  // namespace
}  // namespace simtsync::gpu
