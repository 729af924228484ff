// mb_bank host driver: shared-memory bank conflicts. One warp chases indices through a
// 1024-word table in shared memory for `iters` steps; the table and the lanes' start words
// make every access exactly `ways`-way bank conflicted (lane l = member m of group g with
// l = g * ways + m reads word w * 32 + g, w rotating through 0..ways-1; see mb_bank.cu). The
// message gives cycles per access from the kernel's clock64 reads; validation compares each
// lane's sum of loaded values and final index with a CPU walk of the same table.
#include <fmt/format.h>

#include "framework/workload.h"

namespace simtsync::workloads {
namespace {

constexpr unsigned kLanes = 32;  // one warp; also the number of banks the pattern targets
constexpr unsigned kWords = 32 * kLanes;

class MbBank final : public Workload {
 public:
  std::string name() const override { return "mb_bank"; }
  std::string description() const override {
    return "one warp chases a shared-memory table with exactly W-way bank conflicts: cycles "
           "per access";
  }
  std::string suite() const override { return "microbenchmark"; }
  std::vector<ParamSpec> params() const override {
    return {
        {"ways", "lanes whose distinct words share one bank (1 = conflict-free)", 4, 8, 32, 1, 32},
        {"iters", "dependent shared loads per lane", 64, 1024, 4096, 1, 1 << 24}};
  }
  Validation run(WorkloadContext& ctx) const override {
    const auto ways = static_cast<unsigned>(ctx.param("ways"));
    const auto iters = static_cast<std::uint64_t>(ctx.param("iters"));
    // Word w * 32 + g (member w of group g) leads to member (w + 1) % ways of the same group.
    std::vector<std::uint32_t> table(kWords, 0);
    for (unsigned w = 0; w < ways; ++w)
      for (unsigned g = 0; g < kLanes; ++g) table[w * 32 + g] = (w + 1) % ways * 32 + g;
    std::vector<std::uint64_t> want_sum(kLanes, 0);
    std::vector<std::uint32_t> want_last(kLanes, 0);
    for (unsigned l = 0; l < kLanes; ++l) {
      std::uint32_t j = l % ways * 32 + l / ways;
      for (std::uint64_t i = 0; i < iters; ++i) {
        j = table[j];
        want_sum[l] += j;
      }
      want_last[l] = j;
    }

    auto& dev = ctx.device();
    Addr dtable = dev.upload(table, "table");
    Addr dsums = dev.upload(std::vector<std::uint64_t>(kLanes, ~std::uint64_t{0}), "lane sums");
    Addr dlast = dev.upload(std::vector<std::uint32_t>(kLanes, ~std::uint32_t{0}), "lane indices");
    Addr dcycles = dev.upload(std::vector<std::uint64_t>(1, 0), "cycles");
    int m = ctx.load("mb_bank/mb_bank.ptx");
    if (!ctx.launch(m, "mb_bank", {1, 1, 1}, {kLanes, 1, 1},
                    func::KernelArgs()
                        .add(dtable)
                        .add(static_cast<int>(ways))
                        .add(static_cast<int>(iters))
                        .add(dsums)
                        .add(dlast)
                        .add(dcycles)))
      return {};
    const auto sums = dev.download<std::uint64_t>(dsums, kLanes);
    const auto last = dev.download<std::uint32_t>(dlast, kLanes);
    for (unsigned l = 0; l < kLanes; ++l) {
      if (sums[l] != want_sum[l])
        return {false, fmt::format("lane {} loaded values summing to {}, the CPU walk gives {}", l,
                                   sums[l], want_sum[l])};
      if (last[l] != want_last[l])
        return {false, fmt::format("lane {} ended at word {}, the CPU walk gives {}", l, last[l],
                                   want_last[l])};
    }
    const auto cycles = dev.download<std::uint64_t>(dcycles, 1)[0];
    return {true,
            fmt::format("{}-way bank conflict: {:.1f} cycles per access over {} dependent "
                        "shared loads per lane; every lane's sum matches the CPU walk",
                        ways, static_cast<double>(cycles) / static_cast<double>(iters), iters)};
  }
};

}  // namespace

std::unique_ptr<Workload> make_mb_bank() {
  return std::make_unique<MbBank>();
}

}  // namespace simtsync::workloads
