// Instruction-cache tag tests: hits after a miss, LRU replacement within a set, counters, the
// perfect I-cache.
#include "timing/sm/icache.h"

#include <gtest/gtest.h>

namespace simtsync::sm {
namespace {

// 1 KiB, 128-byte lines, 2 ways: 4 sets; PCs 0, 512, 1024 all map to set 0.
constexpr unsigned kSize = 1024, kLine = 128, kAssoc = 2;

TEST(ICache, MissThenHitsOnTheSameLine) {
  ICache c(kSize, kLine, kAssoc);
  EXPECT_FALSE(c.access(0, 1));
  EXPECT_TRUE(c.access(8, 2));
  EXPECT_TRUE(c.access(120, 3));
  EXPECT_FALSE(c.access(128, 4));  // next line, next set
  EXPECT_TRUE(c.access(0, 5));
  EXPECT_EQ(c.stats().accesses, 5u);
  EXPECT_EQ(c.stats().hits, 3u);
  EXPECT_EQ(c.stats().misses, 2u);
}

TEST(ICache, EvictsTheLeastRecentlyUsedWayOfTheSet) {
  ICache c(kSize, kLine, kAssoc);
  EXPECT_FALSE(c.access(0, 1));
  EXPECT_FALSE(c.access(512, 2));
  EXPECT_TRUE(c.access(0, 3));      // 512 is now least recently used
  EXPECT_FALSE(c.access(1024, 4));  // evicts 512
  EXPECT_TRUE(c.access(0, 5));
  EXPECT_TRUE(c.access(1024, 6));
  EXPECT_FALSE(c.access(512, 7));  // evicts 0 (used at 5, before 1024 at 6)
  EXPECT_FALSE(c.access(0, 8));
  EXPECT_TRUE(c.access(512, 9));
  EXPECT_EQ(c.stats().misses, 5u);
  EXPECT_EQ(c.stats().hits, 4u);
}

TEST(ICache, OtherSetsAreUntouchedByAConflict) {
  ICache c(kSize, kLine, kAssoc);
  EXPECT_FALSE(c.access(128, 1));                                         // set 1
  for (Pc pc : {0, 512, 1024, 1536}) EXPECT_FALSE(c.access(pc, 2 + pc));  // thrash set 0
  EXPECT_TRUE(c.access(128, 5000));
}

TEST(ICache, DirectMappedAndFullyAssociativeShapes) {
  ICache dm(256, 128, 1);  // 2 sets, 1 way
  EXPECT_FALSE(dm.access(0, 1));
  EXPECT_FALSE(dm.access(256, 2));
  EXPECT_FALSE(dm.access(0, 3));
  ICache fa(512, 128, 4);  // 1 set, 4 ways
  for (Pc pc : {0, 256, 512, 1024}) EXPECT_FALSE(fa.access(pc, 1 + pc));
  for (Pc pc : {0, 256, 512, 1024}) EXPECT_TRUE(fa.access(pc, 5000 + pc));
}

// sm.icache.perfect: every access hits, even a cold line or a conflict in a direct-mapped set.
TEST(ICache, PerfectNeverMisses) {
  ICache c(256, 128, 1, /*perfect=*/true);  // 2 sets, 1 way: 0, 256 and 512 conflict
  for (Pc pc : {0, 256, 512, 0, 8, 4096}) EXPECT_TRUE(c.access(pc, 1 + pc));
  EXPECT_EQ(c.stats().accesses, 6u);
  EXPECT_EQ(c.stats().hits, 6u);
  EXPECT_EQ(c.stats().misses, 0u);
}

}  // namespace
}  // namespace simtsync::sm
