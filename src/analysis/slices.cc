#include "analysis/slices.h"

#include <algorithm>

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
        if (std::find(d.begin(), d.end(), a) == d.end()) d.push_back(a);
        if (y == a) break;  // a loop header depends on its own latch test; stop climbing here
      }
    }
  }
  for (auto& d : c.deps_) std::sort(d.begin(), d.end());
  return c;
}

std::vector<int> backward_slice(const Cfg& cfg, const ReachingDefs& rd,
                                const ControlDependence& cd, const std::vector<int>& seeds,
                                const std::vector<NodeId>& within) {
  const ptx::Function& f = cfg.function();
  std::vector<char> inside(static_cast<size_t>(cfg.size()), 0);
  for (NodeId b : within) inside[static_cast<size_t>(b)] = 1;
  std::vector<char> in_slice(f.insts.size(), 0);
  std::vector<int> work;
  auto add = [&](int i) {
    if (i < 0 || in_slice[static_cast<size_t>(i)]) return;
    if (!inside[static_cast<size_t>(cfg.node_of_inst(i))]) return;
    in_slice[static_cast<size_t>(i)] = 1;
    work.push_back(i);
  };
  for (int s : seeds) add(s);
  while (!work.empty()) {
    const int i = work.back();
    work.pop_back();
    const ptx::Instruction& in = f.insts[static_cast<size_t>(i)];
    for (int reg : uses(in))
      for (int d : rd.reaching(i, reg)) add(d);
    for (NodeId a : cd.on(cfg.node_of_inst(i))) add(cfg.terminator(a));
    const MemAccess m = memory(in);
    if (m.read && m.space == ptx::Space::kLocal) {
      for (NodeId b : within) {
        for (int k = cfg.block(b).begin; k < cfg.block(b).end; ++k) {
          const MemAccess w = memory(f.insts[static_cast<size_t>(k)]);
          if (w.write && w.space == ptx::Space::kLocal) add(k);
        }
      }
    }
  }
  std::vector<int> out;
  for (size_t i = 0; i < in_slice.size(); ++i)
    if (in_slice[i]) out.push_back(static_cast<int>(i));
  return out;
}

}  // namespace simtsync::analysis
