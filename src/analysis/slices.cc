#include "analysis/slices.h"

#include <algorithm>
#include <unordered_set>

#include "analysis/inst_info.h"

namespace simtsync::analysis {

ControlDependence ControlDependence::compute(const Cfg& cfg, const DomTree& pdom) {
  ControlDependence c;
  c.deps_.assign(static_cast<size_t>(cfg.size()), {});
  for (NodeId a = 0; a < cfg.num_blocks(); ++a) {
    if (cfg.succs(a).size() < 2) continue;
    const NodeId stop = pdom.idom(a);
    for (NodeId s : cfg.succs(a)) {
      if (cfg.is_virtual_edge(a, s)) continue;
      for (NodeId y = s; y != kNoNode && y != stop; y = pdom.idom(y)) {
        auto& d = c.deps_[static_cast<size_t>(y)];
        if (d.empty() || d.back() != a) d.push_back(a);  // `a` ascends: a repeat is the last
        if (y == a) break;  // a loop header depends on its own latch test; stop climbing here
      }
    }
  }
  for (auto& d : c.deps_) std::sort(d.begin(), d.end());
  return c;
}

std::vector<int> backward_slice(const Cfg& cfg, const ReachingDefs& rd, const ControlDependence& cd,
                                const std::vector<int>& seeds, const BlockSet& within) {
  // Sparse: a loop's slice costs what the loop holds, not what the function holds (issue 46).
  const ptx::Function& f = cfg.function();
  std::unordered_set<int> in_slice;
  std::vector<int> work;
  auto add = [&](int i) {
    if (i < 0 || in_slice.count(i)) return;
    if (!within.contains(cfg.node_of_inst(i))) return;
    in_slice.insert(i);
    work.push_back(i);
  };
  for (int s : seeds) add(s);
  bool local_stores_added = false;
  while (!work.empty()) {
    const int i = work.back();
    work.pop_back();
    const ptx::Instruction& in = f.insts[static_cast<size_t>(i)];
    for (int reg : uses(in))
      for (int d : rd.reaching(i, reg)) add(d);
    for (NodeId a : cd.on(cfg.node_of_inst(i))) add(cfg.terminator(a));
    const MemAccess m = memory(in);
    if (m.read && m.space == ptx::Space::kLocal && !local_stores_added) {
      local_stores_added = true;  // every local store inside, once
      for (NodeId b : within.list()) {
        for (int k = cfg.block(b).begin; k < cfg.block(b).end; ++k) {
          const MemAccess w = memory(f.insts[static_cast<size_t>(k)]);
          if (w.write && w.space == ptx::Space::kLocal) add(k);
        }
      }
    }
  }
  std::vector<int> out(in_slice.begin(), in_slice.end());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace simtsync::analysis
