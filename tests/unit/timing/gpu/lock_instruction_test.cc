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

// Try-locks (seed 004 sec. 9.2.2): the count kernel with simtsync_try_lock(p, attempts) in an
// insertion loop, the critical section inside the loop (a failed try goes round again):
//   while (!done) { if (simtsync_try_lock(&locks[k], n)) { ++counter[k]; unlock; done = 1; } }
constexpr const char* kTryCountPtx = R"(
.version 9.0
.target sm_75
.address_size 64
.visible .func (.param .b64 func_retval0) simtsync_try_lock(.param .b64 p, .param .b32 n)
{ trap; ret; }
.visible .func simtsync_unlock(.param .b64 p) { trap; ret; }
.visible .entry trycount(.param .u64 trycount_param_0, .param .u64 trycount_param_1,
                         .param .u32 trycount_param_2, .param .u32 trycount_param_3)
{
  .reg .pred %p<3>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<9>;
  ld.param.u64 %rd1, [trycount_param_0];
  ld.param.u64 %rd2, [trycount_param_1];
  ld.param.u32 %r1, [trycount_param_2];
  ld.param.u32 %r9, [trycount_param_3];
  cvta.to.global.u64 %rd3, %rd2;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  rem.s32 %r6, %r5, %r1;
  mul.wide.s32 %rd4, %r6, 4;
  add.s64 %rd5, %rd1, %rd4;
  add.s64 %rd6, %rd3, %rd4;
  mov.u32 %r10, 0;
$L_loop:
  {
  .param .b64 param0;
  st.param.b64 [param0+0], %rd5;
  .param .b32 param1;
  st.param.b32 [param1+0], %r9;
  .param .b64 retval0;
  call.uni (retval0), simtsync_try_lock, (param0, param1);
  ld.param.b64 %rd7, [retval0+0];
  }
  setp.eq.s64 %p1, %rd7, 0;
  @%p1 bra $L_latch;
  ld.global.u32 %r7, [%rd6];
  add.s32 %r8, %r7, 1;
  st.global.u32 [%rd6], %r8;
  {
  .param .b64 param0;
  st.param.b64 [param0+0], %rd5;
  call.uni simtsync_unlock, (param0);
  }
  mov.u32 %r10, 1;
$L_latch:
  setp.eq.s32 %p2, %r10, 0;
  @%p2 bra $L_loop;
  ret;
}
)";

func::LaunchResult run_trycount(func::Device& dev, unsigned ctas, unsigned threads, int attempts,
                                std::vector<std::int32_t>* counters = nullptr) {
  const Addr locks = dev.upload(std::vector<std::int32_t>(kLocks, -1));
  const Addr count = dev.upload(std::vector<std::int32_t>(kLocks, 0));
  const int m = dev.load_module(ptx::parse_module(kTryCountPtx, "trycount.ptx"));
  func::LaunchResult r =
      dev.launch(m, "trycount", {ctas, 1, 1}, {threads, 1, 1},
                 func::KernelArgs().add(locks).add(count).add(int{kLocks}).add(attempts));
  if (counters) *counters = dev.download<std::int32_t>(count, kLocks);
  for (std::int32_t l : dev.download<std::int32_t>(locks, kLocks)) EXPECT_EQ(l, -1);
  return r;
}

TEST(TryLockInstruction, DecodesToOneInstructionWithItsResultAndBound) {
  func::GlobalMemory mem;
  const ptx::Module mod = ptx::parse_module(kTryCountPtx, "trycount.ptx");
  const func::Program prog(mod, mem);
  const func::DecodedFunction& k = *prog.kernel("trycount");
  const func::ExecInst* t = nullptr;
  for (const auto& e : k.code)
    if (e.lock_op == func::IntrinsicOp::kTryLock && e.mem.base != func::MemRef::Base::kNone) t = &e;
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->op, ptx::Opcode::kAtom);
  EXPECT_EQ(t->a.op, ptx::Mod::kCasOp);
  EXPECT_EQ(t->nsrc, 1u);  // the bound of attempts
  EXPECT_EQ(t->ndst, 2u);  // the packed result and the folded setp's predicate
  EXPECT_EQ(t->folded.size(), 1u);
  EXPECT_EQ(t->span, 5u);  // st.param x2, call, ld.param, setp
}

TEST(TryLockInstruction, OneWarpSingleAttemptFailuresGoRoundTheLoop) {
  // One warp, 8 locks of 4 lanes each: every round the lowest waiting lane of each lock takes
  // it and the other lanes fail at once (seed 004 sec. 6.5.1: "fail ... on the first attempt").
  func::DeviceOptions o;
  o.reconvergence = simt::reconvergence_choice("lock_stack");
  func::Device dev(o);
  std::vector<std::int32_t> c;
  const func::LaunchResult r = run_trycount(dev, 1, 32, 1, &c);
  ASSERT_TRUE(r.completed) << r.watchdog_report;
  for (std::int32_t v : c) EXPECT_EQ(v, 4);
  const func::UnitCounters& u = r.stats.reconvergence;
  EXPECT_EQ(u.get("try_lock_instructions"), 4u);
  EXPECT_EQ(u.get("try_lock_attempts"), 32u + 24u + 16u + 8u);
  EXPECT_EQ(u.get("try_lock_acquired"), 32u);
  EXPECT_EQ(u.get("try_lock_failed"), 24u + 16u + 8u);
  EXPECT_EQ(u.get("try_lock_retries"), 0u);
  EXPECT_EQ(u.get("lock_entry_pushes"), 0u);  // no L entries: try-held locks need none
  EXPECT_EQ(r.stats.lock_requests, 80u);
  EXPECT_EQ(r.stats.unlock_instructions, 4u);
}

TEST(TryLockInstruction, OneWarpTwoAttemptsRetryAgainstHoldingWarpMates) {
  // With two attempts the losers retry at once, but the holders are their own warp-mates,
  // waiting below the try entry: the retry fails too (the cost of holding while others try).
  func::DeviceOptions o;
  o.reconvergence = simt::reconvergence_choice("lock_stack");
  func::Device dev(o);
  std::vector<std::int32_t> c;
  const func::LaunchResult r = run_trycount(dev, 1, 32, 2, &c);
  ASSERT_TRUE(r.completed) << r.watchdog_report;
  for (std::int32_t v : c) EXPECT_EQ(v, 4);
  const func::UnitCounters& u = r.stats.reconvergence;
  EXPECT_EQ(u.get("try_lock_instructions"), 7u);
  EXPECT_EQ(u.get("try_lock_retries"), 3u);
  EXPECT_EQ(u.get("try_lock_attempts"), 128u);
  EXPECT_EQ(u.get("try_lock_failed"), 48u);
}

TEST(TryLockInstruction, TimingManyWarpsAndNeverQueued) {
  for (const char* mode : {"off", "ideal"}) {
    TimingGpu gpu(gtx480({{"mem.lock_queue.mode", mode}}));
    func::DeviceOptions o;
    o.reconvergence = simt::reconvergence_choice("lock_stack");
    func::Device dev(o);
    dev.set_backend(&gpu);
    std::vector<std::int32_t> c;
    const func::LaunchResult r = run_trycount(dev, kCtas, kThreads, 1, &c);
    ASSERT_TRUE(r.completed) << r.watchdog_report;
    for (std::int32_t v : c) EXPECT_EQ(v, static_cast<int>(kCtas * kThreads / kLocks)) << mode;
    const func::UnitCounters& u = r.stats.reconvergence;
    EXPECT_EQ(u.get("try_lock_acquired"), kCtas * kThreads);
    // One attempt each: every request either took its lock or failed for good.
    EXPECT_EQ(u.get("try_lock_attempts"), u.get("try_lock_acquired") + u.get("try_lock_failed"));
    EXPECT_GT(u.get("try_lock_failed"), 0u);
    EXPECT_EQ(mem::unit_stat(gpu.totals().hier, "lock_queue", "parked"), 0u) << mode;
  }
}

// A finite reconvergence stack (seed 004 sec. 7.3): the count kernel's E0, LR and L entries do
// not fit in two; the spills and fills go through the memory hierarchy and cost time.
TEST(LockInstructions, FiniteStackSpillsThroughMemoryAndStillCounts) {
  const CountRun unbounded = run_timing(gtx480({{"sm.reconvergence.stack_entries", "0"}}));
  const CountRun deep = run_timing(gtx480({}));  // the default, 32 entries
  const CountRun shallow = run_timing(gtx480({{"sm.reconvergence.stack_entries", "2"}}));
  expect_counted(shallow);
  const func::UnitCounters& u = shallow.result.stats.reconvergence;
  EXPECT_GT(u.get("stack_spills"), 0u);
  EXPECT_GT(u.get("stack_fills"), 0u);
  EXPECT_EQ(u.get("stack_memory_bytes"), 16 * (u.get("stack_spills") + u.get("stack_fills")));
  EXPECT_GT(u.get("stack_fill_stall_cycles"), 0u);
  EXPECT_EQ(u.get("stack_max_depth"), 3u);
  // The fills cost time (stall cycles above); under this much contention a warp delayed by
  // them also retries less, so the total moves either way (here it is slightly shorter).
  EXPECT_NE(shallow.result.cycles, unbounded.result.cycles);
  // Deep enough that nothing spills: the unbounded stack's cycles exactly.
  EXPECT_EQ(deep.result.stats.reconvergence.get("stack_spills"), 0u);
  EXPECT_EQ(deep.result.cycles, unbounded.result.cycles);
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
