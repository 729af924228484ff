// Issue 45, items 7 and 8: kernels that can never finish end quickly and cleanly in both modes.
// Unbounded recursion is a call stack overflow (a kernel fault naming the thread and PC); the
// watchdog's cost per step stays bounded while a warp's call stack grows; a kernel that counts
// in a register forever is stopped by the no-completion window in the functional mode too.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"
#include "config/config.h"
#include "config/schema.h"
#include "func/device.h"
#include "ptx/parser.h"
#include "sim/simulator.h"

namespace simtsync::gpu {
namespace {

using Sets = std::vector<std::pair<std::string, std::string>>;

constexpr const char* kHead = ".version 9.0\n.target sm_75\n.address_size 64\n";

// `.func f(){ call f,(); ret; }`: recursion without a local frame.
const std::string kRecursion = std::string(kHead) + R"(
.func f()
{
  call f, ();
  ret;
}
.visible .entry k(.param .u64 p)
{
  call f, ();
  ret;
}
)";

// Counts in a register forever: memory never changes.
const std::string kCounter = std::string(kHead) + R"(
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<4>;
  .reg .pred %p<2>;
  mov.u32 %r1, 0;
$L:
  add.s32 %r1, %r1, 1;
  setp.ne.s32 %p1, %r1, 0;
  @%p1 bra $L;
  bra.uni $L;
}
)";

// Writes a new value every iteration: memory never repeats a state.
const std::string kWriter = std::string(kHead) + R"(
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, 0;
$L:
  add.s32 %r1, %r1, 1;
  st.global.u32 [%rd1], %r1;
  bra.uni $L;
}
)";

struct Outcome {
  func::LaunchResult result;
  std::string fault;  // the kernel-fault message (empty: none)
  int exit_code = 0;
  double seconds = 0;
};

Outcome run(const std::string& mode, const std::string& ptx, Sets sets) {
  sim::SimOptions o;
  o.mode = mode;
  o.config = "tiny";
  sets.push_back({"watchdog.progress_seconds", "0"});
  sets.push_back({"compile.registers_per_thread", "16"});
  o.sets = sets;
  sim::Simulator s(o);
  func::Device& dev = s.device();
  const Addr buf = dev.upload(std::vector<std::uint32_t>(4, 0));
  const int m = dev.load_module(ptx::parse_module(ptx, "robustness.ptx"));
  Outcome out;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    out.result = dev.launch(m, "k", {1, 1, 1}, {32, 1, 1}, func::KernelArgs().add(buf));
  } catch (const Error& e) {
    out.fault = e.what();
    out.exit_code = static_cast<int>(e.code());
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

class Modes : public ::testing::TestWithParam<const char*> {};

TEST_P(Modes, UnboundedRecursionIsAStackOverflowFault) {
  // The step limit (before any quiet epoch) only bounds the run when the fix is missing: it
  // would stop, not fault.
  const Sets bound = {{"watchdog.max_steps", "300000"},
                      {"watchdog.quiet_steps", "1000000000"},
                      {"watchdog.quiet_cycles", "1000000000"}};
  const Outcome o = run(GetParam(), kRecursion, bound);
  EXPECT_EQ(o.exit_code, 5) << o.result.watchdog_report;
  EXPECT_NE(o.fault.find("call stack overflow"), std::string::npos) << o.fault;
  EXPECT_NE(o.fault.find("watchdog.max_call_depth = 1024"), std::string::npos) << o.fault;
  EXPECT_NE(o.fault.find("thread (0,0,0)"), std::string::npos) << o.fault;
  EXPECT_NE(o.fault.find("at PC"), std::string::npos) << o.fault;
}

TEST_P(Modes, CallDepthLimitIsConfigurable) {
  const Outcome o = run(GetParam(), kRecursion,
                        {{"watchdog.max_call_depth", "10"}, {"watchdog.max_steps", "300000"}});
  EXPECT_EQ(o.exit_code, 5);
  EXPECT_NE(o.fault.find("a call 11 deep"), std::string::npos) << o.fault;
}

TEST_P(Modes, WatchdogCostPerStepIsBoundedWhileTheStackGrows) {
  // No depth limit and an early quiet epoch: every call is a backward jump the watchdog looks
  // at while the stack grows by one entry per call. Hashing the whole stack each time made
  // this quadratic (minutes); bounded, it is a fraction of a second.
  const Outcome o = run(GetParam(), kRecursion,
                        {{"watchdog.max_call_depth", "0"},
                         {"watchdog.quiet_steps", "1000"},
                         {"watchdog.quiet_cycles", "1000"},
                         {"watchdog.max_steps", "120000"}});
  EXPECT_FALSE(o.result.completed);
  EXPECT_NE(o.result.watchdog_reason.find("watchdog.max_steps"), std::string::npos)
      << o.fault << o.result.watchdog_report;
  EXPECT_LT(o.seconds, 10.0);  // quadratic: about 40 s
  if (std::string(GetParam()) == "timing") {
    EXPECT_GT(o.result.cycles, 100000u);
  }
}

INSTANTIATE_TEST_SUITE_P(Robustness, Modes, ::testing::Values("functional", "timing"));

TEST(Robustness, FunctionalNoCompletionWindowStopsACounter) {
  // The step limit only bounds the run when the window is missing.
  const Outcome o =
      run("functional", kCounter,
          {{"watchdog.no_completion_window", "2000000"}, {"watchdog.max_steps", "40000000"}});
  EXPECT_FALSE(o.result.completed);
  EXPECT_NE(o.result.watchdog_reason.find("watchdog.no_completion_window = 2000000"),
            std::string::npos)
      << o.result.watchdog_reason;
  EXPECT_NE(o.result.watchdog_reason.find("rounds"), std::string::npos);
  EXPECT_NE(o.result.watchdog_report.find("warps [CTA.warp]"), std::string::npos);
}

TEST_P(Modes, ALoopWritingNewValuesStopsAtTheDefaultCaps) {
  // New memory values are evidence of progress, so only a cap stops this loop: both default to
  // a finite limit now (here lowered to keep the test short).
  const config::Config d = config::Config::defaults(config::gpu_schema());
  EXPECT_EQ(d.get_int("watchdog.max_cycles"), 10'000'000'000);
  EXPECT_EQ(d.get_int("watchdog.max_steps"), 10'000'000'000);
  const Outcome o = run(GetParam(), kWriter,
                        {{"watchdog.max_cycles", "300000"}, {"watchdog.max_steps", "300000"}});
  EXPECT_FALSE(o.result.completed) << o.fault;
  EXPECT_NE(o.result.watchdog_reason.find("limit"), std::string::npos) << o.result.watchdog_reason;
  EXPECT_NE(o.result.watchdog_report.find("warps [CTA.warp] 0.0"), std::string::npos)
      << o.result.watchdog_report;
  EXPECT_NE(o.result.watchdog_report.find("robustness.ptx:"), std::string::npos)
      << o.result.watchdog_report;
}

TEST(Robustness, FunctionalNoCompletionWindowIsOnByDefault) {
  sim::SimOptions o;
  o.mode = "functional";
  sim::Simulator s(o);
  EXPECT_EQ(s.device_options().watchdog.no_completion_window, 50'000'000u);
}

}  // namespace
}  // namespace simtsync::gpu
