// barrier_skip host driver: must end with a deadlock report (exit 3) in every mode.
#include <fmt/format.h>

#include "framework/workload.h"

namespace simtsync::workloads {
namespace {

class BarrierSkip final : public Workload {
 public:
  std::string name() const override { return "barrier_skip"; }
  std::string description() const override {
    return "one warp skips a bar.sync that expects it: a barrier deadlock the watchdog reports";
  }
  std::string suite() const override { return "microbenchmark"; }
  std::vector<ParamSpec> params() const override {
    return {{"ctas", "CTAs in the grid", 1, 2, 2, 1, 1 << 16}};
  }
  Validation run(WorkloadContext& ctx) const override {
    const auto ctas = static_cast<std::uint32_t>(ctx.param("ctas"));
    Addr out = ctx.device().malloc(64 * sizeof(int) * ctas, "out");
    int m = ctx.load("barrier_skip/barrier_skip.ptx");
    if (!ctx.launch(m, "barrier_skip", {ctas, 1, 1}, {64, 1, 1}, func::KernelArgs().add(out)))
      return {};
    return {true, "the barrier completed"};
  }
};

}  // namespace

std::unique_ptr<Workload> make_barrier_skip() { return std::make_unique<BarrierSkip>(); }

}  // namespace simtsync::workloads
