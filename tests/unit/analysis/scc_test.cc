#include "analysis/scc.h"

#include <gtest/gtest.h>

namespace simtsync::analysis {
namespace {

TEST(Scc, ComponentsInReverseTopologicalOrder) {
  // 0 -> 1 <-> 2 -> 3 -> 3, 4 isolated
  const std::vector<std::vector<NodeId>> succs{{1}, {2}, {1, 3}, {3}, {}};
  const std::vector<std::vector<NodeId>> preds{{}, {0, 2}, {1}, {2, 3}, {}};
  const GraphView g{0, &succs, &preds};
  const SccResult r = strongly_connected_components(g, {});
  ASSERT_EQ(r.count(), 4);
  EXPECT_EQ(r.component[1], r.component[2]);
  EXPECT_LT(r.component[3], r.component[1]);  // sink first
  EXPECT_LT(r.component[1], r.component[0]);
  EXPECT_EQ(r.members[static_cast<size_t>(r.component[1])], (std::vector<NodeId>{1, 2}));
}

TEST(Scc, SubsetIgnoresOtherNodes) {
  const std::vector<std::vector<NodeId>> succs{{1}, {0}, {0}};
  const std::vector<std::vector<NodeId>> preds{{1, 2}, {0}, {}};
  const GraphView g{0, &succs, &preds};
  const SccResult r = strongly_connected_components(g, {0, 1, 0});
  EXPECT_EQ(r.count(), 1);
  EXPECT_EQ(r.component[0], -1);
  EXPECT_EQ(r.component[1], 0);
}

}  // namespace
}  // namespace simtsync::analysis
