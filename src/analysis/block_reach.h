// Reachability between the blocks of a function, answered without a list per source (issue 46:
// Algorithm 1 asks, for thousands of loops, which writes are reachable from each loop's
// reconvergence point; a list per loop cost loops x blocks).
//
// Contract:
//  - The graph: the Cfg's real edges between blocks (virtual edges, ENTRY and EXIT left out);
//    the out-edges of a block marked `cut` are not followed (a blocking barrier: the block is
//    reached, what follows it is not).
//  - reaches(from, to): a path from `from` to `to` exists; a block reaches itself. Exact.
//  - cycle_class(n): the strongly connected component of block n in the graph without cuts
//    (-1 for a node that is not a block): two blocks of different classes are not on a
//    common cycle, so a walk from one never comes back to the other.
//  - Cost: building is linear in the graph. A query first tries two labels of the condensation
//    (a DFS-tree interval, which proves reachability, and the smallest topological number
//    below a component, which refutes it) and only then searches the condensation, pruned by
//    the same labels; chains of loops and code in sequence are answered by the labels alone.
#pragma once

#include <vector>

#include "analysis/cfg.h"

namespace simtsync::analysis {

class BlockReach {
 public:
  BlockReach() = default;
  BlockReach(const Cfg& cfg, const std::vector<char>& cut);

  bool reaches(NodeId from, NodeId to) const;
  int cycle_class(NodeId n) const {
    return n >= 0 && static_cast<size_t>(n) < full_.size() ? full_[static_cast<size_t>(n)] : -1;
  }

 private:
  bool below(int a, int b) const {  // b is a DFS-tree descendant of a (condensation)
    return pre_[static_cast<size_t>(a)] <= pre_[static_cast<size_t>(b)] &&
           pre_[static_cast<size_t>(b)] <= last_[static_cast<size_t>(a)];
  }

  std::vector<int> comp_, full_;        // block -> component (with cuts, without)
  std::vector<int> succ_begin_, succ_;  // condensation, CSR; edges go to smaller ids
  std::vector<int> low_;                // smallest component id reachable
  std::vector<int> pre_, last_;         // DFS-tree preorder interval
  mutable std::vector<int> seen_;       // search stamps
  mutable int stamp_ = 0;
};

}  // namespace simtsync::analysis
