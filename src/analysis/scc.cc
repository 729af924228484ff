#include "analysis/scc.h"

#include <algorithm>
#include <utility>

namespace simtsync::analysis {

SccResult strongly_connected_components(const GraphView& g, const std::vector<char>& include) {
  const int n = g.size();
  auto in = [&](NodeId v) { return include.empty() || include[static_cast<size_t>(v)] != 0; };
  SccResult r;
  r.component.assign(static_cast<size_t>(n), -1);
  std::vector<int> index(static_cast<size_t>(n), -1), low(static_cast<size_t>(n), 0);
  std::vector<char> on_stack(static_cast<size_t>(n), 0);
  std::vector<NodeId> stack;
  std::vector<std::pair<NodeId, size_t>> work;  // (node, next successor position)
  int next_index = 0;
  for (NodeId s = 0; s < n; ++s) {
    if (!in(s) || index[static_cast<size_t>(s)] >= 0) continue;
    work.emplace_back(s, 0);
    while (!work.empty()) {
      auto& [v, pos] = work.back();
      const auto vi = static_cast<size_t>(v);
      if (pos == 0 && index[vi] < 0) {
        index[vi] = low[vi] = next_index++;
        stack.push_back(v);
        on_stack[vi] = 1;
      }
      const auto& out = (*g.succs)[vi];
      bool descended = false;
      while (pos < out.size()) {
        const NodeId w = out[pos++];
        const auto wi = static_cast<size_t>(w);
        if (!in(w)) continue;
        if (index[wi] < 0) {
          work.emplace_back(w, 0);
          descended = true;
          break;
        }
        if (on_stack[wi]) low[vi] = std::min(low[vi], index[wi]);
      }
      if (descended) continue;
      if (low[vi] == index[vi]) {
        std::vector<NodeId> comp;
        NodeId w;
        do {
          w = stack.back();
          stack.pop_back();
          on_stack[static_cast<size_t>(w)] = 0;
          r.component[static_cast<size_t>(w)] = r.count();
          comp.push_back(w);
        } while (w != v);
        std::sort(comp.begin(), comp.end());
        r.members.push_back(std::move(comp));
      }
      const NodeId done = v;
      work.pop_back();
      if (!work.empty()) {
        const auto pi = static_cast<size_t>(work.back().first);
        low[pi] = std::min(low[pi], low[static_cast<size_t>(done)]);
      }
    }
  }
  return r;
}

}  // namespace simtsync::analysis
