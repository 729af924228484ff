// recursion host driver: seed 004 Example 2. Threads with threadIdx.x > 4 recurse once and
// must return 4, the others 2; without call entries on the stack the recursing threads would
// reconverge with the others inside the callee and return 3.
#include <fmt/format.h>

#include "framework/workload.h"

namespace simtsync::workloads {
namespace {

class Recursion final : public Workload {
 public:
  std::string name() const override { return "recursion"; }
  std::string description() const override {
    return "recursive device function of seed 004 Example 2 (call entries on the stack)";
  }
  std::string suite() const override { return "microbenchmark"; }
  std::vector<ParamSpec> params() const override {
    return {{"ctas", "CTAs in the grid", 1, 4, 4, 1, 1 << 16},
            {"threads", "threads per CTA", 32, 64, 64, 1, 1024}};
  }
  Validation run(WorkloadContext& ctx) const override {
    const auto ctas = static_cast<std::uint32_t>(ctx.param("ctas"));
    const auto threads = static_cast<std::uint32_t>(ctx.param("threads"));
    const std::size_t n = std::size_t{ctas} * threads;
    auto& dev = ctx.device();
    Addr out = dev.malloc(n * sizeof(int), "out");
    int m = ctx.load("recursion/recursion.ptx");
    if (!ctx.launch(m, "recursion", {ctas, 1, 1}, {threads, 1, 1}, func::KernelArgs().add(out)))
      return {};
    auto v = dev.download<std::int32_t>(out, n);
    for (std::size_t i = 0; i < n; ++i) {
      int expect = (i % threads) > 4 ? 4 : 2;
      if (v[i] != expect)
        return {false, fmt::format("thread {} returned {}, expected {}", i, v[i], expect)};
    }
    return {true, fmt::format("{} threads returned the right depth-dependent value", n)};
  }
};

}  // namespace

std::unique_ptr<Workload> make_recursion() { return std::make_unique<Recursion>(); }

}  // namespace simtsync::workloads
