#include "analysis/block_reach.h"

#include <algorithm>
#include <functional>
#include <utility>

#include "analysis/scc.h"

namespace simtsync::analysis {
namespace {

std::vector<int> components(int root, std::vector<std::vector<NodeId>>& succs,
                            std::vector<std::vector<NodeId>>& preds,
                            const std::vector<char>& blocks) {
  return strongly_connected_components(GraphView{root, &succs, &preds}, blocks).component;
}

}  // namespace

BlockReach::BlockReach(const Cfg& cfg, const std::vector<char>& cut) {
  const auto n = static_cast<size_t>(cfg.size());
  std::vector<std::vector<NodeId>> succs(n), preds(n), cut_succs(n);
  std::vector<char> blocks(n, 0);
  for (NodeId b = 0; b < cfg.num_blocks(); ++b) {
    blocks[static_cast<size_t>(b)] = 1;
    for (NodeId s : cfg.succs(b)) {
      if (!cfg.is_block(s) || cfg.is_virtual_edge(b, s)) continue;
      succs[static_cast<size_t>(b)].push_back(s);
      preds[static_cast<size_t>(s)].push_back(b);
      if (!cut[static_cast<size_t>(b)]) cut_succs[static_cast<size_t>(b)].push_back(s);
    }
  }
  full_ = components(cfg.entry(), succs, preds, blocks);
  comp_ = components(cfg.entry(), cut_succs, preds, blocks);
  int ncomp = 0;
  for (int c : comp_) ncomp = std::max(ncomp, c + 1);
  const auto nc = static_cast<size_t>(ncomp);
  // Condensation (Tarjan numbers components so that edges go to smaller ids).
  std::vector<std::vector<int>> out(nc);
  for (size_t b = 0; b < n; ++b)
    for (NodeId s : cut_succs[b]) {
      const int cb = comp_[b], cs = comp_[static_cast<size_t>(s)];
      if (cb != cs) out[static_cast<size_t>(cb)].push_back(cs);
    }
  succ_begin_.assign(nc + 1, 0);
  for (size_t c = 0; c < nc; ++c) {
    auto& o = out[c];
    std::sort(o.begin(), o.end(), std::greater<>());  // nearest (highest) first for searches
    o.erase(std::unique(o.begin(), o.end()), o.end());
    succ_begin_[c + 1] = succ_begin_[c] + static_cast<int>(o.size());
    succ_.insert(succ_.end(), o.begin(), o.end());
  }
  low_.resize(nc);
  for (size_t c = 0; c < nc; ++c) {
    low_[c] = static_cast<int>(c);
    for (int k = succ_begin_[c]; k < succ_begin_[c + 1]; ++k)
      low_[c] = std::min(low_[c], low_[static_cast<size_t>(succ_[static_cast<size_t>(k)])]);
  }
  // DFS tree of the condensation from its sources (highest ids first).
  pre_.assign(nc, -1);
  last_.assign(nc, -1);
  int next = 0;
  std::vector<std::pair<int, int>> st;
  for (int r = ncomp - 1; r >= 0; --r) {
    if (pre_[static_cast<size_t>(r)] >= 0) continue;
    pre_[static_cast<size_t>(r)] = next++;
    st.emplace_back(r, succ_begin_[static_cast<size_t>(r)]);
    while (!st.empty()) {
      const int c = st.back().first;
      int& k = st.back().second;
      if (k < succ_begin_[static_cast<size_t>(c) + 1]) {
        const int s = succ_[static_cast<size_t>(k++)];
        if (pre_[static_cast<size_t>(s)] < 0) {
          pre_[static_cast<size_t>(s)] = next++;
          st.emplace_back(s, succ_begin_[static_cast<size_t>(s)]);
        }
        continue;
      }
      last_[static_cast<size_t>(c)] = next - 1;
      st.pop_back();
    }
  }
  seen_.assign(nc, 0);
}

bool BlockReach::reaches(NodeId from, NodeId to) const {
  if (from < 0 || to < 0 || static_cast<size_t>(from) >= comp_.size() ||
      static_cast<size_t>(to) >= comp_.size())
    return false;
  const int a = comp_[static_cast<size_t>(from)], b = comp_[static_cast<size_t>(to)];
  if (a < 0 || b < 0) return false;
  if (a == b) return true;
  if (b > a || b < low_[static_cast<size_t>(a)]) return false;
  if (below(a, b)) return true;
  // A search of the condensation, pruned where the labels rule `b` out.
  if (++stamp_ == 0) {
    std::fill(seen_.begin(), seen_.end(), 0);
    stamp_ = 1;
  }
  std::vector<int> work{a};
  seen_[static_cast<size_t>(a)] = stamp_;
  while (!work.empty()) {
    const int c = work.back();
    work.pop_back();
    for (int k = succ_begin_[static_cast<size_t>(c)]; k < succ_begin_[static_cast<size_t>(c) + 1];
         ++k) {
      const int s = succ_[static_cast<size_t>(k)];
      if (s == b || below(s, b)) return true;
      if (s < b || b < low_[static_cast<size_t>(s)] || seen_[static_cast<size_t>(s)] == stamp_)
        continue;
      seen_[static_cast<size_t>(s)] = stamp_;
      work.push_back(s);
    }
  }
  return false;
}

}  // namespace simtsync::analysis
