#include "analysis/reconvergence.h"

#include "common/check.h"

namespace simtsync::analysis {
namespace {

bool is_divergence_point(const ptx::Instruction& in) {
  using ptx::Opcode;
  if (in.is_branch()) return true;
  const bool leaves =
      in.opcode == Opcode::kRet || in.opcode == Opcode::kExit || in.opcode == Opcode::kTrap;
  return leaves && in.guard.reg >= 0;
}

// The compatibility rule: per block, where its terminating branch reconverges.
std::vector<NodeId> compat_points(const Cfg& cfg, const DomTree& pdom) {
  const DomTree dom = DomTree::dominators(cfg);
  std::vector<NodeId> rec(static_cast<size_t>(cfg.size()), kNoNode);
  for (NodeId b : dom.preorder()) {  // dominators first
    if (!cfg.is_block(b)) continue;
    const NodeId p = pdom.idom(b);
    if (p == cfg.exit() || dom.dominates(b, p)) {
      rec[static_cast<size_t>(b)] = p;
      continue;
    }
    rec[static_cast<size_t>(b)] = cfg.exit();
    for (NodeId d = dom.idom(b); d != kNoNode && cfg.is_block(d); d = dom.idom(d)) {
      if (cfg.succs(d).size() < 2) continue;  // not a divergent branch
      if (!dom.dominates(d, p)) continue;
      rec[static_cast<size_t>(b)] = rec[static_cast<size_t>(d)];
      break;
    }
  }
  // Blocks unreachable from ENTRY keep plain IPDOM.
  for (NodeId b = 0; b < cfg.num_blocks(); ++b)
    if (rec[static_cast<size_t>(b)] == kNoNode) rec[static_cast<size_t>(b)] = pdom.idom(b);
  return rec;
}

}  // namespace

const char* convention_name(Convention c) {
  switch (c) {
    case Convention::kIpdom: return "ipdom";
    case Convention::kIpdomCompat: return "ipdom-compat";
  }
  return "?";
}

ReconvergenceTable ReconvergenceTable::compute(const Cfg& cfg, const DomTree& pdom, Convention c) {
  SIMTSYNC_CHECK(pdom.direction() == Direction::kBackward && pdom.size() == cfg.size());
  const ptx::Function& f = cfg.function();
  ReconvergenceTable t;
  t.convention_ = c;
  t.base_pc_ = f.base_pc;
  t.slot_.assign(f.insts.size(), -1);
  std::vector<NodeId> compat;
  if (c == Convention::kIpdomCompat) compat = compat_points(cfg, pdom);
  for (size_t i = 0; i < f.insts.size(); ++i) {
    const ptx::Instruction& in = f.insts[i];
    if (!is_divergence_point(in)) continue;
    ReconvergencePoint p;
    p.inst = static_cast<int>(i);
    p.pc = in.pc;
    p.block = cfg.node_of_inst(p.inst);
    switch (c) {
      case Convention::kIpdom:
        p.reconverge_node = pdom.idom(p.block);
        break;
      case Convention::kIpdomCompat:
        p.reconverge_node = compat[static_cast<size_t>(p.block)];
        break;
    }
    SIMTSYNC_CHECK(p.reconverge_node != kNoNode);
    p.reconverge_pc = cfg.first_pc(p.reconverge_node);
    t.slot_[i] = static_cast<int>(t.points_.size());
    t.points_.push_back(p);
  }
  return t;
}

ReconvergenceTable ReconvergenceTable::compute(const ptx::Function& f, Convention c) {
  const Cfg cfg(f);
  return compute(cfg, DomTree::post_dominators(cfg), c);
}

const ReconvergencePoint* ReconvergenceTable::find_by_inst(int inst) const {
  if (inst < 0 || inst >= static_cast<int>(slot_.size())) return nullptr;
  const int s = slot_[static_cast<size_t>(inst)];
  return s < 0 ? nullptr : &points_[static_cast<size_t>(s)];
}

const ReconvergencePoint* ReconvergenceTable::find_by_pc(Pc pc) const {
  if (pc < base_pc_ || (pc - base_pc_) % kInstSize != 0) return nullptr;
  const Pc idx = (pc - base_pc_) / kInstSize;
  if (idx >= slot_.size()) return nullptr;
  return find_by_inst(static_cast<int>(idx));
}

std::optional<Pc> ReconvergenceTable::rpc_by_inst(int inst) const {
  const ReconvergencePoint* p = find_by_inst(inst);
  if (p == nullptr) return std::nullopt;
  return p->reconverge_pc;
}

std::optional<Pc> ReconvergenceTable::rpc_by_pc(Pc pc) const {
  const ReconvergencePoint* p = find_by_pc(pc);
  if (p == nullptr) return std::nullopt;
  return p->reconverge_pc;
}

}  // namespace simtsync::analysis
