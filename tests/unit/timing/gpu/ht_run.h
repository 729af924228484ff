// ht_insert (workloads/ht/ht.ptx) launched on a TimingGpu through func::Device, with the
// result checked by walking the chains: shared by the whole-GPU and watchdog tests.
#pragma once

#include <cstdint>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "func/device.h"
#include "ptx/parser.h"
#include "timing/gpu/timing_gpu.h"

namespace simtsync::gpu::ht_fixture {

// The ht workload's kernel (workloads/ht/ht.ptx), read from the source tree so this test does
// not depend on the workload library.
inline const std::string& ht_ptx() {
  static const std::string text = [] {
    std::ifstream f(std::string(SIMTSYNC_SOURCE_DIR) + "/workloads/ht/ht.ptx");
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  }();
  return text;
}

struct HtRun {
  func::LaunchResult result;
  TimingTotals totals;
  std::size_t linked = 0;  // entries reachable from the bucket heads
  bool locks_free = true;
};

// ht_insert on `ctas` x `threads`, `buckets` buckets, 2 insertions per thread.
// `host_threads`: the SM phase's host threads (TimingGpu::set_threads).
inline HtRun run_ht(const GpuParams& p, unsigned ctas = 4, unsigned threads = 64,
                    unsigned buckets = 8, unsigned host_threads = 1) {
  constexpr unsigned kPer = 2;
  const std::size_t total = std::size_t{ctas} * threads * kPer;
  TimingGpu gpu(p);
  gpu.set_threads(host_threads);
  func::Device dev;
  dev.set_backend(&gpu);
  std::mt19937 rng(1);
  std::vector<std::uint32_t> keys(total);
  for (auto& k : keys) k = rng();
  Addr pool = dev.malloc(total * 16);
  Addr heads = dev.upload(std::vector<std::uint64_t>(buckets, 0));
  Addr locks = dev.upload(std::vector<std::int32_t>(buckets, 0));
  Addr dkeys = dev.upload(keys);
  int m = dev.load_module(ptx::parse_module(ht_ptx(), "ht/ht.ptx"));
  HtRun out;
  out.result = dev.launch(m, "ht_insert", {ctas, 1, 1}, {threads, 1, 1},
                          func::KernelArgs()
                              .add(pool)
                              .add(heads)
                              .add(locks)
                              .add(dkeys)
                              .add(static_cast<int>(buckets))
                              .add(static_cast<int>(kPer)));
  out.totals = gpu.totals();
  for (std::int32_t l : dev.download<std::int32_t>(locks, buckets)) out.locks_free &= l == 0;
  for (std::uint64_t h : dev.download<std::uint64_t>(heads, buckets)) {
    while (h != 0 && out.linked <= total) {
      ++out.linked;
      h = dev.download<std::uint64_t>(h + 8, 1)[0];
    }
  }
  return out;
}

}  // namespace simtsync::gpu::ht_fixture
