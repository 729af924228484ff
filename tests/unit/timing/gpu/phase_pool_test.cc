// The SM phase's host threads (issue 20): every part runs exactly once per phase on its own
// thread, phase after phase, whatever the thread count, and a pool that never ran shuts down.
#include "timing/gpu/phase_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace simtsync::gpu {
namespace {

TEST(PhasePool, APhaseRightAfterConstructionIsNotMissed) {
  // A worker that had not started before the first phase must still take part in it (or the
  // caller would wait for it forever).
  for (int i = 0; i < 200; ++i) {
    PhasePool pool(4);
    std::atomic<int> sum{0};
    pool.run_parts([&](unsigned part) { sum += static_cast<int>(part) + 1; });
    ASSERT_EQ(sum.load(), 1 + 2 + 3 + 4);
  }
}

TEST(PhasePool, EveryPartRunsOncePerPhaseOnItsOwnThread) {
  for (unsigned threads : {1u, 2u, 4u, 8u}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    PhasePool pool(threads);
    EXPECT_EQ(pool.threads(), threads);
    std::vector<std::thread::id> owner(threads);
    std::vector<std::atomic<int>> hits(threads);
    for (int round = 0; round < 2000; ++round) {
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
