// Instruction-cache tag tests: hits after a miss, LRU replacement within a set, counters, the
// perfect I-cache, and pending hits on a line whose fill is not back (sm.icache.wait_for_fill).
#include "timing/sm/icache.h"

#include <gtest/gtest.h>

namespace simtsync::sm {
namespace {

// 1 KiB, 128-byte lines, 2 ways: 4 sets; PCs 0, 512, 1024 all map to set 0.
constexpr unsigned kSize = 1024, kLine = 128, kAssoc = 2;

// An access whose fill, on a miss, is back at once (the line is usable from the next access on).
bool hit(ICache& c, Pc pc, Cycle now) { return c.access(pc, now, now).hit; }

TEST(ICache, MissThenHitsOnTheSameLine) {
  ICache c(kSize, kLine, kAssoc);
  EXPECT_FALSE(hit(c, 0, 1));
  EXPECT_TRUE(hit(c, 8, 2));
  EXPECT_TRUE(hit(c, 120, 3));
  EXPECT_FALSE(hit(c, 128, 4));  // next line, next set
  EXPECT_TRUE(hit(c, 0, 5));
  EXPECT_EQ(c.stats().accesses, 5u);
  EXPECT_EQ(c.stats().hits, 3u);
  EXPECT_EQ(c.stats().misses, 2u);
}

TEST(ICache, EvictsTheLeastRecentlyUsedWayOfTheSet) {
  ICache c(kSize, kLine, kAssoc);
  EXPECT_FALSE(hit(c, 0, 1));
  EXPECT_FALSE(hit(c, 512, 2));
  EXPECT_TRUE(hit(c, 0, 3));      // 512 is now least recently used
  EXPECT_FALSE(hit(c, 1024, 4));  // evicts 512
  EXPECT_TRUE(hit(c, 0, 5));
  EXPECT_TRUE(hit(c, 1024, 6));
  EXPECT_FALSE(hit(c, 512, 7));  // evicts 0 (used at 5, before 1024 at 6)
  EXPECT_FALSE(hit(c, 0, 8));
  EXPECT_TRUE(hit(c, 512, 9));
  EXPECT_EQ(c.stats().misses, 5u);
  EXPECT_EQ(c.stats().hits, 4u);
}

TEST(ICache, OtherSetsAreUntouchedByAConflict) {
  ICache c(kSize, kLine, kAssoc);
  EXPECT_FALSE(hit(c, 128, 1));                                         // set 1
  for (Pc pc : {0, 512, 1024, 1536}) EXPECT_FALSE(hit(c, pc, 2 + pc));  // thrash set 0
  EXPECT_TRUE(hit(c, 128, 5000));
}

TEST(ICache, DirectMappedAndFullyAssociativeShapes) {
  ICache dm(256, 128, 1);  // 2 sets, 1 way
  EXPECT_FALSE(hit(dm, 0, 1));
  EXPECT_FALSE(hit(dm, 256, 2));
  EXPECT_FALSE(hit(dm, 0, 3));
  ICache fa(512, 128, 4);  // 1 set, 4 ways
  for (Pc pc : {0, 256, 512, 1024}) EXPECT_FALSE(hit(fa, pc, 1 + pc));
  for (Pc pc : {0, 256, 512, 1024}) EXPECT_TRUE(hit(fa, pc, 5000 + pc));
}

// sm.icache.perfect: every access hits, even a cold line or a conflict in a direct-mapped set.
TEST(ICache, PerfectNeverMisses) {
  ICache c(256, 128, 1, /*perfect=*/true);  // 2 sets, 1 way: 0, 256 and 512 conflict
  for (Pc pc : {0, 256, 512, 0, 8, 4096}) EXPECT_TRUE(hit(c, pc, 1 + pc));
  EXPECT_EQ(c.stats().accesses, 6u);
  EXPECT_EQ(c.stats().hits, 6u);
  EXPECT_EQ(c.stats().misses, 0u);
}

// A line that missed holds nothing until its fill is back: another warp fetching it meanwhile
// waits for the same fill (a pending hit, no second miss), and hits once it is back.
TEST(ICache, AccessesBeforeTheFillWaitForIt) {
  ICache c(kSize, kLine, kAssoc);
  const ICacheLookup miss = c.access(0, 10, 130);
  EXPECT_FALSE(miss.hit);
  EXPECT_TRUE(miss.new_miss);
  EXPECT_EQ(miss.ready, 130u);
  const ICacheLookup pending = c.access(64, 11, 999);
  EXPECT_FALSE(pending.hit);
  EXPECT_FALSE(pending.new_miss);
  EXPECT_EQ(pending.ready, 130u);  // the first fill's time, not the one offered now
  EXPECT_FALSE(c.access(8, 129, 999).hit);
  EXPECT_TRUE(c.access(8, 130, 999).hit);
  EXPECT_EQ(c.stats().misses, 1u);
  EXPECT_EQ(c.stats().pending_hits, 2u);
  EXPECT_EQ(c.stats().hits, 1u);
}

// With the hierarchy the fill's time is not known at the miss: the line waits for filled().
TEST(ICache, FilledMakesAPendingLineUsable) {
  constexpr Cycle kUntilFilled = ~Cycle{0} - 1;
  ICache c(kSize, kLine, kAssoc);
  EXPECT_TRUE(c.access(256, 1, kUntilFilled).new_miss);
  EXPECT_FALSE(c.access(260, 500, kUntilFilled).hit);
  c.filled(256 + 64, 501);  // any address of the line
  EXPECT_TRUE(c.access(260, 501, kUntilFilled).hit);
  c.filled(4096, 502);  // a line not in the cache: nothing happens
  EXPECT_EQ(c.stats().misses, 1u);
}

// sm.icache.wait_for_fill = false: the line is usable from the miss on (only the warp that
// missed waits, which the fetch stage arranges).
TEST(ICache, WithoutWaitForFillALineIsUsableFromTheMiss) {
  ICache c(kSize, kLine, kAssoc, /*perfect=*/false, /*wait_for_fill=*/false);
  EXPECT_TRUE(c.access(0, 10, 130).new_miss);
  EXPECT_TRUE(c.access(8, 11, 130).hit);
  EXPECT_EQ(c.stats().pending_hits, 0u);
}

}  // namespace
}  // namespace simtsync::sm
