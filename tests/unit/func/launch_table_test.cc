// LaunchTable (func/launch_table.h): objects by launch index, created in order, destroyed in
// any order; storage follows the live range and iteration visits live objects in order.
#include "func/launch_table.h"

#include <gtest/gtest.h>

#include <vector>

namespace simtsync::func {
namespace {

struct Item {
  explicit Item(int v) : v(v) {}
  int v;
};

std::vector<int> values(const LaunchTable<Item>& t) {
  std::vector<int> out;
  for (const Item& i : t) out.push_back(i.v);
  return out;
}

TEST(LaunchTable, CreatesInOrderAndFindsOnlyLiveIndices) {
  LaunchTable<Item> t;
  t.reset(5);
  EXPECT_EQ(t.size(), 5u);
  EXPECT_EQ(t.created(), 0u);
  EXPECT_EQ(t.find(0), nullptr);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(t.create(i * 10).v, i * 10);
  EXPECT_EQ(t.created(), 3u);
  EXPECT_EQ(t.live_count(), 3u);
  EXPECT_EQ(t[1].v, 10);
  EXPECT_EQ(t.find(3), nullptr);  // not created yet
  t.destroy(1);
  EXPECT_EQ(t.find(1), nullptr);
  EXPECT_EQ(t.live_count(), 2u);
  EXPECT_EQ(values(t), (std::vector<int>{0, 20}));
  t.destroy(0);
  EXPECT_EQ(t.find(0), nullptr);
  EXPECT_EQ(t[2].v, 20);
}

TEST(LaunchTable, StorageFollowsTheLiveRangeAndAddressesStay) {
  // A million objects, at most 8 alive at once (resident CTAs): every live object keeps its
  // address while older ones are dropped from the front.
  LaunchTable<Item> t;
  const int n = 1000000;
  t.reset(n);
  std::vector<Item*> live;
  for (int i = 0; i < n; ++i) {
    live.push_back(&t.create(i));
    if (live.size() == 8) {
      // The second-oldest first, then the oldest: destruction out of order.
      t.destroy(static_cast<std::size_t>(live[1]->v));
      t.destroy(static_cast<std::size_t>(live[0]->v));
      live.erase(live.begin(), live.begin() + 2);
    }
    for (Item* p : live) ASSERT_EQ(t.find(static_cast<std::size_t>(p->v)), p);
    ASSERT_LE(t.stored(), 200u);
  }
  EXPECT_EQ(t.created(), static_cast<std::size_t>(n));
  EXPECT_EQ(t.live_count(), live.size());
  std::vector<int> want;
  for (Item* p : live) want.push_back(p->v);
  EXPECT_EQ(values(t), want);
  EXPECT_EQ(t.find(0), nullptr);
}

TEST(LaunchTable, ResetForgetsEverything) {
  LaunchTable<Item> t;
  t.reset(2);
  t.create(1);
  t.create(2);
  t.reset(3);
  EXPECT_EQ(t.created(), 0u);
  EXPECT_EQ(t.live_count(), 0u);
  EXPECT_TRUE(values(t).empty());
}

}  // namespace
}  // namespace simtsync::func
