// nanosleep in the timing model (timing/sched/sleep_filter.h): a warp that issues
// `nanosleep.u32 t` (immediate) is left out of its scheduler's order for t ns at the core clock;
// a register operand, a false guard or the functional model leave it a no-op.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "config/config.h"
#include "config/schema.h"
#include "func/device.h"
#include "func/program.h"
#include "ptx/parser.h"
#include "sched/sched_test_util.h"
#include "timing/gpu/timing_gpu.h"
#include "timing/sched/events.h"
#include "timing/sched/sleep_filter.h"

namespace simtsync::sched {
namespace {

TEST(Nanosleep, NanosecondsBecomeCoreCyclesRoundedUp) {
  EXPECT_EQ(nanosleep_cycles(1000, 700), 700u);
  EXPECT_EQ(nanosleep_cycles(8, 700), 6u);  // 5.6 cycles
  EXPECT_EQ(nanosleep_cycles(0, 700), 0u);
  EXPECT_EQ(nanosleep_cycles(256, 1417), 363u);  // 362.75
  // PTX: at most 1 ms.
  EXPECT_EQ(nanosleep_cycles(5'000'000, 700), 700'000u);
}

func::ExecInst sleep_inst(func::Src::Kind kind, std::uint64_t v) {
  func::ExecInst in;
  in.op = ptx::Opcode::kNanosleep;
  in.nsrc = 1;
  in.src[0].kind = kind;
  in.src[0].imm = v;
  in.src[0].reg = static_cast<std::uint32_t>(v);
  return in;
}

sm::IssueEvent issue(const func::ExecInst& in, int slot, Cycle now, LaneMask guard = 1) {
  sm::IssueEvent e;
  e.now = now;
  e.slot = slot;
  e.inst = &in;
  e.unit = ptx::UnitClass::kMisc;
  e.active = guard | 1;
  e.guard = guard;
  return e;
}

struct Filtered {
  sm::EventBus bus;
  std::unique_ptr<IWarpScheduler> s;
  explicit Filtered(double mhz) {
    PolicyContext ctx;
    ctx.events = &bus;
    s = make_scheduler(SchedulerParams{"lrr", {}, mhz}, ctx);
  }
  std::vector<int> order(const std::vector<SchedWarp>& w, Cycle now) {
    std::vector<int> out;
    s->order(w, 1, now, out);
    return out;
  }
  void hear(const sm::IssueEvent& e) { bus.deliver(e, &sm::ISmObserver::on_issue); }
};

bool offers(const std::vector<int>& order, int i) {
  return std::find(order.begin(), order.end(), i) != order.end();
}

TEST(Nanosleep, ASleepingWarpIsLeftOutUntilItWakes) {
  Filtered f(700);
  const auto w = warps({0, 1, 2});
  EXPECT_EQ(f.order(w, 9).size(), 3u);
  const func::ExecInst in = sleep_inst(func::Src::Kind::kImm, 1000);  // 700 cycles
  f.hear(issue(in, 1, 10));
  for (Cycle now : {Cycle{11}, Cycle{400}, Cycle{710}}) {
    const auto o = f.order(w, now);
    EXPECT_FALSE(offers(o, 1)) << now;
    EXPECT_TRUE(offers(o, 0) && offers(o, 2)) << now;
    EXPECT_EQ(f.s->next_event(now), 711u) << now;  // the SM wakes for it
  }
  EXPECT_TRUE(offers(f.order(w, 711), 1));
  EXPECT_EQ(f.s->next_event(711), kNever);
  EXPECT_EQ(f.s->name(), "lrr");
}

TEST(Nanosleep, EveryWarpAsleepGivesAnEmptyOrder) {
  Filtered f(1000);
  const auto w = warps({0, 1});
  const func::ExecInst in = sleep_inst(func::Src::Kind::kImm, 50);
  f.hear(issue(in, 0, 0));
  f.hear(issue(in, 1, 5));
  EXPECT_TRUE(f.order(w, 20).empty());
  EXPECT_EQ(f.s->next_event(20), 51u);
  EXPECT_EQ(f.order(w, 51), std::vector<int>{0});
  EXPECT_EQ(f.order(w, 56).size(), 2u);
}

TEST(Nanosleep, RegisterOperandsAndFalseGuardsDoNotSleep) {
  Filtered f(700);
  const auto w = warps({0, 1});
  const func::ExecInst reg = sleep_inst(func::Src::Kind::kReg, 3);
  const func::ExecInst imm = sleep_inst(func::Src::Kind::kImm, 1000);
  f.hear(issue(reg, 0, 10));
  f.hear(issue(imm, 1, 10, /*guard=*/0));
  EXPECT_EQ(f.order(w, 11).size(), 2u);
  EXPECT_EQ(f.s->next_event(11), kNever);
}

TEST(Nanosleep, WithoutAClockThereIsNoFilter) {
  sm::EventBus bus;
  PolicyContext ctx;
  ctx.events = &bus;
  auto s = make_scheduler(SchedulerParams{"gto", {}, 0}, ctx);
  EXPECT_TRUE(bus.empty());  // GTO does not listen, and no filter was added
  auto f = make_scheduler(SchedulerParams{"gto", {}, 700}, ctx);
  EXPECT_FALSE(bus.empty());
}

// One warp sleeps 10 us on a whole timing GPU: the kernel takes the sleep's cycles longer than
// with a zero sleep; the functional model runs both as a no-op. The membar drains the parameter
// load and the first store before the sleep, so that no latency overlaps it.
constexpr const char* kSleeper = R"(.version 7.5
.target sm_75
.address_size 64
.visible .entry sleeper(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 1;
  st.global.u32 [%rd1], %r1;
  membar.gl;
  nanosleep.u32 NS;
  mov.u32 %r1, 7;
  st.global.u32 [%rd1], %r1;
  ret;
}
)";

struct SleepRun {
  Cycle cycles = 0;
  std::int32_t stored = 0;
  bool completed = false;
};

SleepRun run_sleeper(unsigned ns, bool timing) {
  std::string text = kSleeper;
  text.replace(text.find("NS"), 2, std::to_string(ns));
  gpu::GpuParams p = gpu::gpu_params_from(config::Config::load(config::gpu_schema(), "gtx480"));
  p.registers_per_thread = 16;
  gpu::TimingGpu g(p);
  func::Device dev;
  if (timing) dev.set_backend(&g);
  const Addr out = dev.upload(std::vector<std::int32_t>{0});
  const int m = dev.load_module(ptx::parse_module(text, "sleeper.ptx"));
  const auto r = dev.launch(m, "sleeper", {1, 1, 1}, {32, 1, 1}, func::KernelArgs().add(out));
  return {r.cycles, dev.download<std::int32_t>(out, 1)[0], r.completed};
}

TEST(Nanosleep, AWarpSleepsOnTheTimingGpu) {
  const SleepRun none = run_sleeper(0, true), slept = run_sleeper(10'000, true);
  ASSERT_TRUE(none.completed && slept.completed);
  EXPECT_EQ(none.stored, 7);
  EXPECT_EQ(slept.stored, 7);
  const Cycle sleep = nanosleep_cycles(10'000, 700);  // gtx480: 700 MHz
  EXPECT_GE(slept.cycles, none.cycles + sleep);
  EXPECT_LE(slept.cycles, none.cycles + sleep + 10);
  const SleepRun func = run_sleeper(10'000, false);
  EXPECT_TRUE(func.completed);
  EXPECT_EQ(func.stored, 7);
}

}  // namespace
}  // namespace simtsync::sched
