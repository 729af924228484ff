// vecadd host driver: c = a + b over n floats, validated element by element.
#include <fmt/format.h>

#include <random>

#include "framework/workload.h"

namespace simtsync::workloads {
namespace {

class VecAdd final : public Workload {
 public:
  std::string name() const override { return "vecadd"; }
  std::string description() const override {
    return "c[i] = a[i] + b[i]; synchronization-free speed reference";
  }
  std::string suite() const override { return "microbenchmark"; }
  std::vector<ParamSpec> params() const override {
    return {{"n", "number of elements", 4096, 1 << 20, 1 << 20, 1, 1 << 28},
            {"block", "threads per CTA", 256, 256, 256, 32, 1024},
            {"seed", "input generator seed", 1, 1, 1, 0, INT32_MAX}};
  }
  Validation run(WorkloadContext& ctx) const override {
    const auto n = static_cast<std::size_t>(ctx.param("n"));
    const auto block = static_cast<std::uint32_t>(ctx.param("block"));
    std::mt19937 rng(static_cast<std::uint32_t>(ctx.param("seed")));
    std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
    std::vector<float> a(n), b(n);
    for (std::size_t i = 0; i < n; ++i) a[i] = dist(rng), b[i] = dist(rng);
    auto& dev = ctx.device();
    Addr da = dev.upload(a, "a"), db = dev.upload(b, "b");
    Addr dc = dev.malloc(n * sizeof(float), "c");
    int m = ctx.load("vecadd/vecadd.ptx");
    const auto grid = static_cast<std::uint32_t>((n + block - 1) / block);
    if (!ctx.launch(m, "vecadd", {grid, 1, 1}, {block, 1, 1},
                    func::KernelArgs().add(da).add(db).add(dc).add(static_cast<int>(n))))
      return {};
    auto c = dev.download<float>(dc, n);
    for (std::size_t i = 0; i < n; ++i)
      if (c[i] != a[i] + b[i])
        return {false, fmt::format("c[{}] = {} but a + b = {}", i, c[i], a[i] + b[i])};
    return {true, fmt::format("{} sums correct", n)};
  }
};

}  // namespace

std::unique_ptr<Workload> make_vecadd() { return std::make_unique<VecAdd>(); }

}  // namespace simtsync::workloads
