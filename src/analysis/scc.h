// Strongly connected components (Tarjan, iterative) of a graph or of a subset of its nodes.
//
// Contract: component ids are dense 0..count-1 and numbered in Tarjan's emission order, which
// is a reverse topological order of the condensation (a component only has edges to components
// with smaller ids). Nodes outside the subset get -1. Deterministic: nodes are started in
// ascending order and successors are visited in list order.
#pragma once

#include <vector>

#include "analysis/cfg.h"

namespace simtsync::analysis {

struct SccResult {
  std::vector<int> component;                // node -> component id, -1 when not included
  std::vector<std::vector<NodeId>> members;  // component id -> its nodes, ascending
  int count() const { return static_cast<int>(members.size()); }
};

// `include[n] != 0` selects the nodes considered; edges leaving the subset are ignored.
// An empty `include` selects every node.
SccResult strongly_connected_components(const GraphView& g, const std::vector<char>& include);

}  // namespace simtsync::analysis
