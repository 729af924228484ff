#include "analysis/block_reach.h"

#include <gtest/gtest.h>

#include <random>

#include "function_builder.h"

namespace simtsync::analysis {
namespace {

// Every (from, to) pair of 300 random kernels, with random cut blocks, against a plain walk.
TEST(BlockReach, SameAsWalk) {
  std::mt19937 rng(4646);
  for (int iter = 0; iter < 300; ++iter) {
    const auto f = test::build_function(test::random_program(rng));
    const Cfg cfg(f);
    std::vector<char> cut(static_cast<size_t>(cfg.size()), 0);
    for (NodeId b = 0; b < cfg.num_blocks(); ++b) cut[static_cast<size_t>(b)] = rng() % 5 == 0;
    const BlockReach r(cfg, cut);
    for (NodeId from = 0; from < cfg.size(); ++from) {
      std::vector<char> seen(static_cast<size_t>(cfg.size()), 0);
      if (cfg.is_block(from)) {
        std::vector<NodeId> work{from};
        seen[static_cast<size_t>(from)] = 1;
        while (!work.empty()) {
          const NodeId n = work.back();
          work.pop_back();
          if (cut[static_cast<size_t>(n)]) continue;
          for (NodeId s : cfg.succs(n))
            if (cfg.is_block(s) && !cfg.is_virtual_edge(n, s) && !seen[static_cast<size_t>(s)]) {
              seen[static_cast<size_t>(s)] = 1;
              work.push_back(s);
            }
        }
      }
      for (NodeId to = 0; to < cfg.size(); ++to)
        EXPECT_EQ(r.reaches(from, to), seen[static_cast<size_t>(to)] != 0)
            << "iteration " << iter << " from " << from << " to " << to;
    }
  }
}

}  // namespace
}  // namespace simtsync::analysis
