// am host drivers: array maximum of seed 003 (Table I: 133K entries; sec. V-B: a non-blocking
// check before the critical section; AM-FG finds the maxima of many smaller sub-arrays, AM-CG
// one maximum), SIMT-compliant (am_simt.cu) and as written for a CPU (am_mimd.cu). Threads walk
// the array with a grid-stride loop. Validation, independent of the order of updates: each
// segment's maximum equals the CPU's, and every lock is free.
#include <fmt/format.h>

#include <algorithm>
#include <random>

#include "framework/workload.h"

namespace simtsync::workloads {
namespace {

class ArrayMax final : public Workload {
 public:
  ArrayMax(bool simt, bool coarse) : simt_(simt), coarse_(coarse) {}

  std::string name() const override {
    return fmt::format("am_{}_{}", coarse_ ? "cg" : "fg", simt_ ? "simt" : "mimd");
  }
  std::string description() const override {
    return fmt::format("array max, check before locking, {} (seed 003 AM-{}), {}",
                       coarse_ ? "one array" : "many sub-arrays", coarse_ ? "CG" : "FG",
                       simt_ ? "SIMT-compliant" : "MIMD lock loop: SIMT-deadlocks under IPDOM");
  }
  std::string suite() const override { return "synchronization"; }
  std::vector<ParamSpec> params() const override {
    // Paper: 133K entries (seed 003 Table I); the thread and segment counts are ours.
    return {{"ctas", "CTAs in the grid", 2, 12, 12, 1, 1 << 20},
            {"threads", "threads per CTA", 64, 256, 256, 1, 1024},
            {"n", "array entries", 4096, 133000, 133000, 1, 1 << 28},
            {"segments", "sub-arrays, each with its own maximum and lock (1 = coarse-grained)",
             coarse_ ? 1 : 32, coarse_ ? 1 : 1024, coarse_ ? 1 : 1024, 1, 1 << 24},
            {"seed", "array generator seed", 1, 1, 1, 0, INT32_MAX}};
  }
  Validation run(WorkloadContext& ctx) const override {
    const auto ctas = static_cast<std::uint32_t>(ctx.param("ctas"));
    const auto threads = static_cast<std::uint32_t>(ctx.param("threads"));
    const auto n = static_cast<std::size_t>(ctx.param("n"));
    const auto segs_req = static_cast<std::size_t>(ctx.param("segments"));
    const std::size_t seg_len = (n + segs_req - 1) / segs_req;
    const std::size_t segs = (n + seg_len - 1) / seg_len;  // no empty segment
    std::mt19937 rng(static_cast<std::uint32_t>(ctx.param("seed")));
    std::vector<std::int32_t> data(n);
    std::vector<std::int32_t> expect(segs, -1);
    for (std::size_t i = 0; i < n; ++i) {
      data[i] = static_cast<std::int32_t>(rng() >> 2);
      expect[i / seg_len] = std::max(expect[i / seg_len], data[i]);
    }

    auto& dev = ctx.device();
    Addr ddata = dev.upload(data, "array");
    Addr maxima = dev.upload(std::vector<std::int32_t>(segs, -1), "segment maxima");
    Addr locks = dev.upload(std::vector<std::int32_t>(segs, 0), "segment locks");
    const char* kernel = simt_ ? "am_simt" : "am_mimd";
    int m = ctx.load(fmt::format("am/{}.ptx", kernel));
    if (!ctx.launch(m, kernel, {ctas, 1, 1}, {threads, 1, 1},
                    func::KernelArgs()
                        .add(ddata)
                        .add(static_cast<int>(n))
                        .add(static_cast<int>(seg_len))
                        .add(maxima)
                        .add(locks)))
      return {};

    auto mx = dev.download<std::int32_t>(maxima, segs);
    auto lk = dev.download<std::int32_t>(locks, segs);
    for (std::size_t s = 0; s < segs; ++s) {
      if (lk[s] != 0) return {false, fmt::format("lock of segment {} is still held", s)};
      if (mx[s] != expect[s])
        return {false,
                fmt::format("maximum of segment {} is {}, expected {}", s, mx[s], expect[s])};
    }
    return {true, fmt::format("{} entries, {} segment maxima exact", n, segs)};
  }

 private:
  bool simt_;
  bool coarse_;
};

}  // namespace

std::unique_ptr<Workload> make_am_fg_simt() {
  return std::make_unique<ArrayMax>(true, false);
}
std::unique_ptr<Workload> make_am_fg_mimd() {
  return std::make_unique<ArrayMax>(false, false);
}
std::unique_ptr<Workload> make_am_cg_simt() {
  return std::make_unique<ArrayMax>(true, true);
}
std::unique_ptr<Workload> make_am_cg_mimd() {
  return std::make_unique<ArrayMax>(false, true);
}

}  // namespace simtsync::workloads
