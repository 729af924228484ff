#include "analysis/cfg.h"

#include <algorithm>

#include "analysis/scc.h"
#include "common/check.h"

namespace simtsync::analysis {
namespace {

using ptx::Opcode;
using ptx::Operand;

bool leaves_function(Opcode op) {
  return op == Opcode::kRet || op == Opcode::kExit || op == Opcode::kTrap;
}

// Label targets named by a brx (directly or inside a list/vector operand), in operand order.
void collect_labels(const Operand& op, std::vector<int>& out, bool& any) {
  if (op.kind == Operand::Kind::kLabel) {
    any = true;
    out.push_back(op.target);
  }
  for (const auto& e : op.elems) collect_labels(e, out, any);
}

}  // namespace

Cfg::Cfg(const ptx::Function& f) : func_(&f) {
  const size_t n = f.blocks.size() + 2;
  succs_.resize(n);
  preds_.resize(n);
  add_edge(entry(), f.blocks.empty() ? exit() : 0);
  for (NodeId b = 0; b < num_blocks(); ++b) add_terminator_edges(b);
  connect_exitless_components();
  compute_reachable();
}

void Cfg::add_edge(NodeId from, NodeId to) {
  auto& s = succs_[static_cast<size_t>(from)];
  if (std::find(s.begin(), s.end(), to) != s.end()) return;
  s.push_back(to);
  preds_[static_cast<size_t>(to)].push_back(from);
}

void Cfg::add_terminator_edges(NodeId b) {
  const ptx::BasicBlock& bb = block(b);
  const NodeId next = b + 1 < num_blocks() ? b + 1 : exit();
  if (bb.end <= bb.begin) {  // empty block (label at the very end): falls through
    add_edge(b, next);
    return;
  }
  const ptx::Instruction& t = func_->insts[static_cast<size_t>(bb.end - 1)];
  const bool guarded = t.guard.reg >= 0;
  auto target_node = [&](int inst) {
    return inst >= 0 && inst < static_cast<int>(func_->insts.size()) ? node_of_inst(inst) : exit();
  };
  if (t.opcode == Opcode::kBra) {
    int target = -1;
    for (const auto& op : t.operands)
      if (op.kind == Operand::Kind::kLabel) target = op.target;
    add_edge(b, target_node(target));
    if (guarded) add_edge(b, next);
  } else if (t.opcode == Opcode::kBrx) {
    std::vector<int> targets;
    bool any = false;
    for (const auto& op : t.operands) collect_labels(op, targets, any);
    if (any) {
      for (int inst : targets) add_edge(b, target_node(inst));
    } else {  // targets live in a .branchtargets list we do not see: assume any label
      for (NodeId c = 0; c < num_blocks(); ++c)
        if (!block(c).label.empty()) add_edge(b, c);
    }
    if (guarded || succs_[static_cast<size_t>(b)].empty()) add_edge(b, next);
  } else if (leaves_function(t.opcode)) {
    add_edge(b, exit());
    if (guarded) add_edge(b, next);
  } else {
    add_edge(b, next);
  }
}

// Adds one virtual edge to EXIT from the highest-numbered block of every sink SCC among the
// nodes that cannot reach EXIT. Every such node reaches a sink SCC, so afterwards all do.
void Cfg::connect_exitless_components() {
  std::vector<char> reaches(succs_.size(), 0);
  std::vector<NodeId> work{exit()};
  reaches[static_cast<size_t>(exit())] = 1;
  while (!work.empty()) {
    const NodeId v = work.back();
    work.pop_back();
    for (NodeId p : preds(v))
      if (!reaches[static_cast<size_t>(p)]) {
        reaches[static_cast<size_t>(p)] = 1;
        work.push_back(p);
      }
  }
  std::vector<char> stuck(succs_.size(), 0);
  bool any = false;
  for (size_t i = 0; i < succs_.size(); ++i) {
    stuck[i] = reaches[i] ? 0 : 1;
    any = any || stuck[i];
  }
  if (!any) return;
  const SccResult scc = strongly_connected_components(view(Direction::kForward), stuck);
  for (int c = 0; c < scc.count(); ++c) {
    bool sink = true;
    for (NodeId v : scc.members[static_cast<size_t>(c)])
      for (NodeId w : succs(v)) sink = sink && scc.component[static_cast<size_t>(w)] == c;
    if (sink) virtual_sources_.push_back(scc.members[static_cast<size_t>(c)].back());
  }
  std::sort(virtual_sources_.begin(), virtual_sources_.end());
  for (NodeId v : virtual_sources_) add_edge(v, exit());
}

void Cfg::compute_reachable() {
  reachable_.assign(succs_.size(), 0);
  std::vector<NodeId> work{entry()};
  reachable_[static_cast<size_t>(entry())] = 1;
  while (!work.empty()) {
    const NodeId v = work.back();
    work.pop_back();
    for (NodeId s : succs(v))
      if (!reachable_[static_cast<size_t>(s)] && !is_virtual_edge(v, s)) {
        reachable_[static_cast<size_t>(s)] = 1;
        work.push_back(s);
      }
  }
}

bool Cfg::is_virtual_edge(NodeId from, NodeId to) const {
  return to == exit() && std::binary_search(virtual_sources_.begin(), virtual_sources_.end(), from);
}

const ptx::BasicBlock& Cfg::block(NodeId n) const {
  SIMTSYNC_CHECK(is_block(n));
  return func_->blocks[static_cast<size_t>(n)];
}

NodeId Cfg::node_of_inst(int inst) const {
  SIMTSYNC_CHECK(inst >= 0 && inst < static_cast<int>(func_->block_of.size()));
  return func_->block_of[static_cast<size_t>(inst)];
}

int Cfg::terminator(NodeId n) const {
  return block(n).end - 1;
}

Pc Cfg::first_pc(NodeId n) const {
  if (n == entry()) return num_blocks() > 0 ? first_pc(0) : kExitPc;
  if (n == exit()) return kExitPc;
  const ptx::BasicBlock& bb = block(n);
  if (bb.begin >= static_cast<int>(func_->insts.size())) return kExitPc;
  return func_->insts[static_cast<size_t>(bb.begin)].pc;
}

std::string Cfg::name(NodeId n) const {
  if (n == entry()) return "ENTRY";
  if (n == exit()) return "EXIT";
  const ptx::BasicBlock& bb = block(n);
  return bb.label.empty() ? "BB" + std::to_string(n) : bb.label;
}

GraphView Cfg::view(Direction d) const {
  if (d == Direction::kForward) return GraphView{entry(), &succs_, &preds_};
  return GraphView{exit(), &preds_, &succs_};
}

}  // namespace simtsync::analysis
