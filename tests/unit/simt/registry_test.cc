// A reconvergence unit is selected by config (sm.reconvergence.impl) and every warp of a launch
// gets the selected unit; an unknown unit is a usage error naming the key.
#include "simt/registry.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "config/config.h"
#include "func/launch_setup.h"
#include "func/program.h"
#include "ptx/parser.h"
#include "simt/impl/ipdom_stack.h"

namespace simtsync::simt {
namespace {

// A stand-in unit: the stack underneath, its own name on top.
class Tagged final : public IReconvergence {
 public:
  Tagged(Pc start, LaneMask threads) : s_(start, threads) { publish(); }
  LaneMask call_mask() const override { return s_.call_mask(); }
  std::vector<ReconvergenceEntry> entries() const override { return s_.entries(); }
  std::string name() const override { return "tagged"; }

 private:
  void on_advance(Pc next) override { s_.advance(next); }
  void on_branch(const BranchOutcome& b) override { s_.branch(b); }
  void on_call(Pc entry, Pc ret) override { s_.call(entry, ret); }
  bool on_ret() override { return s_.ret(); }
  void on_exit(LaneMask lanes) override { s_.exit(lanes); }
  SplitState current_state() const override { return s_.state(); }

  IpdomStack s_;
};

int made = 0;
std::unique_ptr<IReconvergence> make_tagged(Pc start, LaneMask threads,
                                            const config::PluginParams&) {
  ++made;
  return std::make_unique<Tagged>(start, threads);
}

constexpr const char* kPtx = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry k()
{
  ret;
}
)";

TEST(ReconvergenceRegistry, TheConfigSelectsTheUnit) {
  const config::Config c = config::Config::load(config::gpu_schema(), "gtx480",
                                                {{"sm.reconvergence.impl", "ipdom_stack"}});
  const UnitChoice u = reconvergence_choice(c);
  EXPECT_EQ(u.impl, "ipdom_stack");
  EXPECT_EQ(u.create(0, 0xf)->name(), "ipdom_stack");
  EXPECT_EQ(c.schema().find("sm.reconvergence.impl")->choices.size(), reconvergence_units().size());
}

TEST(ReconvergenceRegistry, EveryWarpOfALaunchGetsTheChosenUnit) {
  ptx::Module m = ptx::parse_module(kPtx, "k.ptx");
  func::GlobalMemory mem;
  func::Program prog(m, mem);
  func::LaunchInfo li = func::make_launch_info(*prog.kernel("k"), {1, 1, 1}, {64, 1, 1}, 32, 0);
  UnitChoice tagged{"tagged", &make_tagged, {}};
  li.reconvergence = &tagged;
  func::CtaTable ctas;
  func::WarpTable warps;
  made = 0;
  func::create_grid(prog, li, ctas, warps);
  ASSERT_EQ(warps.live_count(), 2u);
  EXPECT_EQ(made, 2);
  for (const auto& w : warps) EXPECT_EQ(w.simt->name(), "tagged");
  // Without a choice the launch uses the IPDOM stack.
  li.reconvergence = nullptr;
  func::CtaTable c2;
  func::WarpTable w2;
  func::create_grid(prog, li, c2, w2);
  EXPECT_EQ(w2[0].simt->name(), "ipdom_stack");
}

// Issue 46: decoding runs the SIMT-deadlock analysis only for a unit that reads its points.
TEST(ReconvergenceRegistry, OnlyDelayedReconvergenceReadsSafePoints) {
  auto unit = [](const std::string& impl, const std::string& delayed) {
    std::vector<std::pair<std::string, std::string>> sets{{"sm.reconvergence.impl", impl}};
    if (!delayed.empty()) sets.emplace_back("sm.reconvergence.delayed", delayed);
    return reconvergence_choice(config::Config::load(config::gpu_schema(), "gtx480", sets));
  };
  EXPECT_FALSE(unit("ipdom_stack", "").reads_safe_reconvergence());
  EXPECT_FALSE(unit("multipath", "").reads_safe_reconvergence());
  EXPECT_FALSE(unit("its", "").reads_safe_reconvergence());
  EXPECT_TRUE(unit("aware", "").reads_safe_reconvergence());
  EXPECT_FALSE(unit("aware", "false").reads_safe_reconvergence());
  EXPECT_TRUE(reconvergence_choice("aware").reads_safe_reconvergence());
}

TEST(ReconvergenceRegistry, UnknownUnitIsAUsageErrorNamingTheKey) {
  try {
    reconvergence_choice("nosuch_unit");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kUsage);
    EXPECT_NE(std::string(e.what()).find("sm.reconvergence.impl"), std::string::npos);
  }
}

}  // namespace
}  // namespace simtsync::simt
