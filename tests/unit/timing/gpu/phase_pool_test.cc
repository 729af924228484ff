// The SM phase's host threads (issue 20): every index runs exactly once per phase, phase after
// phase, whatever the thread count, and a pool that never ran shuts down.
#include "timing/gpu/phase_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace simtsync::gpu {
namespace {

TEST(PhasePool, EveryIndexRunsOncePerPhase) {
  for (unsigned threads : {1u, 2u, 4u, 8u}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    PhasePool pool(threads);
    EXPECT_EQ(pool.threads(), threads);
    std::vector<std::atomic<int>> hits(200);
    for (int round = 0; round < 2000; ++round) {
      const std::size_t n = static_cast<std::size_t>(round * 7 % 200);
      for (auto& h : hits) h.store(0);
      pool.run(n, [&](std::size_t k) { hits[k].fetch_add(1); });
      for (std::size_t k = 0; k < hits.size(); ++k)
        ASSERT_EQ(hits[k].load(), k < n ? 1 : 0) << "round " << round << " index " << k;
    }
  }
}

TEST(PhasePool, APhaseRightAfterConstructionIsNotMissed) {
  // A worker that had not started before the first phase must still take part in it (or the
  // caller would wait for it forever).
  for (int i = 0; i < 200; ++i) {
    PhasePool pool(4);
    std::atomic<int> sum{0};
    pool.run(64, [&](std::size_t k) { sum += static_cast<int>(k); });
    ASSERT_EQ(sum.load(), 64 * 63 / 2);
  }
}

TEST(PhasePool, EveryPartRunsOncePerPhaseOnItsOwnThread) {
  for (unsigned threads : {1u, 2u, 4u}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    PhasePool pool(threads);
    std::vector<std::thread::id> owner(threads);
    std::vector<std::atomic<int>> hits(threads);
    for (int round = 0; round < 500; ++round) {
      for (auto& h : hits) h.store(0);
      pool.run_parts([&](unsigned part) {
        hits[part].fetch_add(1);
        if (round == 0) owner[part] = std::this_thread::get_id();
        EXPECT_EQ(owner[part], std::this_thread::get_id()) << "part " << part;
      });
      for (unsigned p = 0; p < threads; ++p) ASSERT_EQ(hits[p].load(), 1) << "part " << p;
    }
    EXPECT_EQ(owner[0], std::this_thread::get_id());  // part 0 is the caller's
  }
}

TEST(PhasePool, ShutsDownWithoutEverRunning) {
  PhasePool pool(4);
  SUCCEED();
}

}  // namespace
}  // namespace simtsync::gpu
