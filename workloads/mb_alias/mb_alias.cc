// mb_alias host driver: the lock-bit deadlocks of seed 001 sec. 4.4 (see mb_alias.cu). With the
// default stride of 1024 words every thread waits for a lock bit it holds itself, and the
// watchdog's report names each such thread, the bit and both addresses (exit 3); stride 1 is a
// SIMD deadlock; stride 512 completes and validates.
#include <fmt/format.h>

#include "framework/workload.h"

namespace simtsync::workloads {
namespace {

constexpr std::int64_t kAliasWords = 2048;  // mb_alias.cu

class MbAlias final : public Workload {
 public:
  std::string name() const override { return "mb_alias"; }
  std::string description() const override {
    return "lock-bit alias and SIMD deadlocks of seed 001 sec. 4.4 (stride 1024 / 1; 512 runs)";
  }
  std::string suite() const override { return "microbenchmark"; }
  std::vector<ParamSpec> params() const override {
    return {{"ctas", "CTAs in the grid", 1, 1, 2, 1, 1 << 16},
            {"threads", "threads per CTA", 64, 64, 256, 1, 1024},
            {"stride", "words between a thread's two locked words (1024: alias deadlock)", 1024,
             1024, 1024, 1, kAliasWords - 1}};
  }
  Validation run(WorkloadContext& ctx) const override {
    const auto ctas = static_cast<std::uint32_t>(ctx.param("ctas"));
    const auto threads = static_cast<std::uint32_t>(ctx.param("threads"));
    const auto stride = static_cast<std::int32_t>(ctx.param("stride"));
    auto& dev = ctx.device();
    Addr out = dev.upload(std::vector<std::int32_t>(std::size_t{ctas} * threads, -1), "out");
    int m = ctx.load("mb_alias/mb_alias.ptx");
    if (!ctx.launch(m, "mb_alias", {ctas, 1, 1}, {threads, 1, 1},
                    func::KernelArgs().add(stride).add(out)))
      return {};
    const auto got = dev.download<std::int32_t>(out, std::size_t{ctas} * threads);
    for (std::uint32_t i = 0; i < got.size(); ++i) {
      const std::int64_t want = (i % threads + stride) % kAliasWords;
      if (got[i] != want)
        return {false, fmt::format("thread {} read {}, expected {}", i, got[i], want)};
    }
    return {true, fmt::format("{} threads took both lock bits", got.size())};
  }
};

}  // namespace

std::unique_ptr<Workload> make_mb_alias() {
  return std::make_unique<MbAlias>();
}

}  // namespace simtsync::workloads
