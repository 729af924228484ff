#include "analysis/uniformity.h"

#include <algorithm>

#include "analysis/inst_info.h"

namespace simtsync::analysis {
namespace {

using ptx::Opcode;
using ptx::Operand;
using ptx::SpecialReg;

bool lane_special(SpecialReg r) {
  switch (r) {
    case SpecialReg::kTid:
    case SpecialReg::kLaneid:
    case SpecialReg::kLanemaskEq:
    case SpecialReg::kLanemaskLe:
    case SpecialReg::kLanemaskLt:
    case SpecialReg::kLanemaskGe:
    case SpecialReg::kLanemaskGt:
      return true;
    default:
      return false;
  }
}

bool reads_lane_special(const Operand& o) {
  if (o.kind == Operand::Kind::kSpecial) return lane_special(o.sreg);
  if (o.kind == Operand::Kind::kVector || o.kind == Operand::Kind::kList)
    return std::any_of(o.elems.begin(), o.elems.end(), reads_lane_special);
  return false;
}

// Blocks on paths from `from` that have not reached `stop` (stop excluded). Real edges only.
// `seen` (indexed by node) marks the blocks already found and is left marked; every block
// newly marked is appended to `found`.
void mark_paths(const Cfg& cfg, NodeId from, NodeId stop, std::vector<char>& seen,
                std::vector<NodeId>& found) {
  if (from == stop || !cfg.is_block(from) || seen[static_cast<size_t>(from)]) return;
  std::vector<NodeId> work{from};
  seen[static_cast<size_t>(from)] = 1;
  found.push_back(from);
  while (!work.empty()) {
    const NodeId n = work.back();
    work.pop_back();
    for (NodeId s : cfg.succs(n)) {
      if (s == stop || !cfg.is_block(s) || seen[static_cast<size_t>(s)] ||
          cfg.is_virtual_edge(n, s))
        continue;
      seen[static_cast<size_t>(s)] = 1;
      found.push_back(s);
      work.push_back(s);
    }
  }
}

// The unique reaching definition of `reg` at `inst`, or -1.
int unique_def(const ReachingDefs& rd, int inst, int reg) {
  return rd.unique_reaching(inst, reg);
}

// `reg` at `inst` takes a different value in each lane of a warp, so `reg == C` holds in at most
// one lane: %tid.x or %laneid (through mov/cvt), or one of them reduced modulo a multiple of 32
// (`and` with a mask whose low five bits are set, `rem` by a multiple of 32: the lane-0 idioms
// `threadIdx.x % 32 == 0` and `(threadIdx.x & 31) == 0`, which nvcc emits as `and.b32 r, tid, 31`).
// As for %tid.x itself, this takes a warp's 32 threads to have consecutive %tid.x values
// (blockDim.x a multiple of 32).
bool is_lane_index(const ptx::Function& f, const ReachingDefs& rd, int inst, int reg, int depth) {
  const int d = unique_def(rd, inst, reg);
  if (d < 0 || depth > 8) return false;
  const ptx::Instruction& in = f.insts[static_cast<size_t>(d)];
  if (in.guard.reg >= 0) return false;
  if ((in.opcode == Opcode::kAnd || in.opcode == Opcode::kRem) && in.operands.size() == 3) {
    const Operand& a = in.operands[1];
    const Operand& b = in.operands[2];
    const Operand* x = a.kind == Operand::Kind::kReg ? &a : &b;
    const Operand* k = a.kind == Operand::Kind::kReg ? &b : &a;
    if (x->kind != Operand::Kind::kReg || k->kind != Operand::Kind::kImmInt) return false;
    const std::uint64_t m = static_cast<std::uint64_t>(k->imm);
    const bool keeps_lane = in.opcode == Opcode::kAnd ? (m & 31u) == 31u
                                                      : (k == &b && m != 0 && m % 32 == 0 &&
                                                         !ptx::dtype_is_signed(in.attrs().type));
    return keeps_lane && is_lane_index(f, rd, d, x->reg, depth + 1);
  }
  if ((in.opcode != Opcode::kMov && in.opcode != Opcode::kCvt) || in.operands.size() != 2)
    return false;
  const Operand& src = in.operands[1];
  if (src.kind == Operand::Kind::kSpecial)
    return (src.sreg == SpecialReg::kTid && src.component == 0) || src.sreg == SpecialReg::kLaneid;
  if (src.kind == Operand::Kind::kReg) return is_lane_index(f, rd, d, src.reg, depth + 1);
  return false;
}

// Whether predicate `reg` at `inst` being `value` implies `x == C` for a lane index x (so at
// most one lane of the warp has it): `setp.eq/ne x, C`, through `not`, and through `and.pred`
// (true: both operands true) and `or.pred` (false: both false), as nvcc -O3 combines a lane test
// with a uniform one: `if (threadIdx.x != 0 || n < 1) return;` is `or.pred %p, %p_ne, %p_n`.
bool implies_lane_equal(const ptx::Function& f, const ReachingDefs& rd, int inst, int reg,
                        bool value, int depth) {
  if (depth > 6) return false;
  const int d = unique_def(rd, inst, reg);
  if (d < 0) return false;
  const ptx::Instruction& in = f.insts[static_cast<size_t>(d)];
  if (in.guard.reg >= 0) return false;
  auto pred_arg = [&](size_t k) {
    return k < in.operands.size() && in.operands[k].kind == Operand::Kind::kReg ? in.operands[k].reg
                                                                                : -1;
  };
  if (in.opcode == Opcode::kNot && in.operands.size() == 2 && pred_arg(1) >= 0)
    return implies_lane_equal(f, rd, d, pred_arg(1), !value, depth + 1);
  if ((in.opcode == Opcode::kAnd || in.opcode == Opcode::kOr) && in.operands.size() == 3 &&
      in.attrs().type == ptx::DType::kPred && pred_arg(1) >= 0 && pred_arg(2) >= 0) {
    // and = true and or = false fix both operands; the other outcomes fix neither.
    if (value != (in.opcode == Opcode::kAnd)) return false;
    return implies_lane_equal(f, rd, d, pred_arg(1), value, depth + 1) ||
           implies_lane_equal(f, rd, d, pred_arg(2), value, depth + 1);
  }
  if (in.opcode != Opcode::kSetp || in.operands.size() != 3 || in.operands[0].reg2 >= 0)
    return false;
  const ptx::InstAttrs a = in.attrs();
  if (a.op || !a.cmp || (*a.cmp != ptx::Mod::kEq && *a.cmp != ptx::Mod::kNe)) return false;
  const Operand& x = in.operands[1];
  const Operand& y = in.operands[2];
  const Operand* var = nullptr;
  if (x.kind == Operand::Kind::kReg && y.kind == Operand::Kind::kImmInt) var = &x;
  if (y.kind == Operand::Kind::kReg && x.kind == Operand::Kind::kImmInt) var = &y;
  if (var == nullptr || !is_lane_index(f, rd, d, var->reg, 0)) return false;
  return (*a.cmp == ptx::Mod::kEq) == value;
}

// For a branch guarded by a lane test: 1 when the taken side has `x == C`, 0 when the
// not-taken side has it, -1 when neither is implied.
int lane_test_side(const ptx::Function& f, const ReachingDefs& rd, int br) {
  const ptx::Instruction& b = f.insts[static_cast<size_t>(br)];
  if (b.guard.reg < 0) return -1;
  // The branch is taken when the guard register is !negate.
  if (implies_lane_equal(f, rd, br, b.guard.reg, !b.guard.negate, 0)) return 1;
  if (implies_lane_equal(f, rd, br, b.guard.reg, b.guard.negate, 0)) return 0;
  return -1;
}

}  // namespace

bool Uniformity::divergent_use(int inst, int reg) const {
  const auto& s = sync_div_[static_cast<size_t>(inst)];
  if (std::find(s.begin(), s.end(), reg) != s.end()) return true;
  const ReachingDefs::ValueId v = rd_->value_at(inst, reg);
  return v != ReachingDefs::kNoValue && div_value_[static_cast<size_t>(v)] != 0;
}

const std::vector<NodeId>& Uniformity::region(int inst) const {
  if (inst < 0 || inst >= static_cast<int>(region_slot_.size())) return empty_;
  const int s = region_slot_[static_cast<size_t>(inst)];
  return s < 0 ? empty_ : regions_[static_cast<size_t>(s)];
}

bool Uniformity::in_region(int inst, NodeId b) const {
  const std::vector<NodeId>& r = region(inst);
  return std::binary_search(r.begin(), r.end(), b);
}

Uniformity Uniformity::compute(const Inputs& in) {
  const Cfg& cfg = *in.cfg;
  const ptx::Function& f = cfg.function();
  const size_t n = f.insts.size();
  Uniformity u;
  u.cfg_ = in.cfg;
  u.rd_ = in.rd;
  u.div_result_.assign(n, 0);
  u.div_branch_.assign(n, 0);
  u.sync_div_.assign(n, {});
  u.single_lane_.assign(static_cast<size_t>(cfg.size()), 0);
  u.region_slot_.assign(n, -1);
  const ReachingDefs& rd = *in.rd;
  u.div_value_.assign(static_cast<size_t>(rd.num_values()), 0);
  // A divergent result makes every value whose reaching set holds it divergent.
  auto set_divergent = [&](int inst) {
    u.div_result_[static_cast<size_t>(inst)] = 1;
    std::vector<ReachingDefs::ValueId> work = rd.values_of_inst(inst);
    while (!work.empty()) {
      const ReachingDefs::ValueId v = work.back();
      work.pop_back();
      if (u.div_value_[static_cast<size_t>(v)]) continue;
      u.div_value_[static_cast<size_t>(v)] = 1;
      for (ReachingDefs::ValueId w : rd.value_users(v))
        if (!u.div_value_[static_cast<size_t>(w)]) work.push_back(w);
    }
  };

  // Regions of every divergence point (one scratch mark vector, cleared through the list).
  std::vector<char> mark(static_cast<size_t>(cfg.size()), 0);
  for (const ReconvergencePoint& p : in.rec->points()) {
    std::vector<NodeId> r;
    for (NodeId s : cfg.succs(p.block))
      if (!cfg.is_virtual_edge(p.block, s)) mark_paths(cfg, s, p.reconverge_node, mark, r);
    for (NodeId b : r) mark[static_cast<size_t>(b)] = 0;
    charge(in.budget, r.size(), "divergent regions");
    std::sort(r.begin(), r.end());
    u.region_slot_[static_cast<size_t>(p.inst)] = static_cast<int>(u.regions_.size());
    u.regions_.push_back(std::move(r));
    u.points_.push_back(p.inst);
  }
  // Single-lane regions: the equal side of `lane index == C` up to the reconvergence point.
  for (const ReconvergencePoint& p : in.rec->points()) {
    const ptx::Instruction& b = f.insts[static_cast<size_t>(p.inst)];
    if (b.opcode != Opcode::kBra || cfg.succs(p.block).size() != 2) continue;
    const int side = lane_test_side(f, *in.rd, p.inst);
    if (side < 0) continue;
    const NodeId eq_succ = cfg.succs(p.block)[side == 1 ? 0 : 1];  // taken target first
    std::vector<NodeId> r;
    mark_paths(cfg, eq_succ, p.reconverge_node, mark, r);
    for (NodeId b : r) {
      mark[static_cast<size_t>(b)] = 0;
      u.single_lane_[static_cast<size_t>(b)] = 1;
    }
  }

  // Local-memory accesses, for the store -> load rule.
  std::vector<int> local_loads, local_stores;
  for (size_t i = 0; i < n; ++i) {
    const MemAccess m = memory(f.insts[i]);
    if (!m.is_access()) continue;
    const bool local = m.space == ptx::Space::kLocal ||
                       in.alias->address(static_cast<int>(i)).space == ptx::Space::kLocal;
    if (!local) continue;
    if (m.read) local_loads.push_back(static_cast<int>(i));
    if (m.write) local_stores.push_back(static_cast<int>(i));
  }

  auto any_use_divergent = [&](int i) {
    for (int r : uses(f.insts[static_cast<size_t>(i)]))
      if (u.divergent_use(i, r)) return true;
    return false;
  };
  auto in_divergent_region = [&](NodeId b) {
    for (int p : u.points_)
      if (u.div_branch_[static_cast<size_t>(p)] && u.in_region(p, b)) return true;
    return false;
  };
  // The sync rule below follows the value graph (reaching_defs.h) from the definitions inside
  // a region to the uses they reach. A value is "clean" once a walk marked every use of it
  // and of every value after it: later walks stop there, so the graph is walked about once.
  using ValueId = ReachingDefs::ValueId;
  std::vector<char> clean(static_cast<size_t>(rd.num_values()), 0), dirty(clean.size(), 0);
  std::vector<int> stamp(clean.size(), -1);
  std::vector<int> in_p(static_cast<size_t>(cfg.size()), -1);  // block -> last point marking it
  auto sync_walk = [&](int p) {
    bool changed_here = false;
    std::vector<ValueId> work, visited;
    for (NodeId b : u.region(p)) in_p[static_cast<size_t>(b)] = p;
    for (NodeId b : u.region(p))
      for (int d = cfg.block(b).begin; d < cfg.block(b).end; ++d)
        for (auto [it, end] = rd.value_range(d); it != end; ++it)
          if (const ValueId v = *it;
              !clean[static_cast<size_t>(v)] && stamp[static_cast<size_t>(v)] != p) {
            stamp[static_cast<size_t>(v)] = p;
            work.push_back(v);
          }
    while (!work.empty()) {
      const ValueId v = work.back();
      work.pop_back();
      visited.push_back(v);
      rd.for_each_use(v, [&](int use, int reg) {
        auto& s = u.sync_div_[static_cast<size_t>(use)];
        if (std::find(s.begin(), s.end(), reg) != s.end()) return;
        if (in_p[static_cast<size_t>(cfg.node_of_inst(use))] == p) {
          dirty[static_cast<size_t>(v)] = 1;
          return;
        }
        s.push_back(reg);
        changed_here = true;
      });
      for (ValueId w : rd.value_users(v))
        if (!clean[static_cast<size_t>(w)] && stamp[static_cast<size_t>(w)] != p) {
          stamp[static_cast<size_t>(w)] = p;
          work.push_back(w);
        }
    }
    // Values from which a dirty one (a use left unmarked) is reachable are not clean.
    for (ValueId v : visited)
      if (dirty[static_cast<size_t>(v)]) work.push_back(v);
    while (!work.empty()) {
      const ValueId v = work.back();
      work.pop_back();
      for (ValueId o : rd.value_operands(v))
        if (stamp[static_cast<size_t>(o)] == p && !dirty[static_cast<size_t>(o)]) {
          dirty[static_cast<size_t>(o)] = 1;
          work.push_back(o);
        }
    }
    for (ValueId v : visited) {
      if (!dirty[static_cast<size_t>(v)]) clean[static_cast<size_t>(v)] = 1;
      dirty[static_cast<size_t>(v)] = 0;
    }
    return changed_here;
  };

  std::vector<char> sync_done(n, 0);  // the sync marks of a branch depend on its region only
  bool changed = true;
  while (changed) {
    changed = false;
    for (size_t i = 0; i < n; ++i) {
      if (u.div_result_[i]) continue;
      const ptx::Instruction& ins = f.insts[i];
      if (defs(ins).empty()) continue;
      bool d = false;
      switch (ins.opcode) {
        case Opcode::kAtom:
        case Opcode::kMatch:
        case Opcode::kCall:
          d = true;
          break;
        case Opcode::kVote:
        case Opcode::kRedux:
        case Opcode::kActivemask:
          d = false;
          break;
        case Opcode::kShfl: {
          const bool bcast = ins.attrs().shfl == ptx::Mod::kIdx && ins.operands.size() >= 3 &&
                             ins.operands[2].kind == Operand::Kind::kImmInt &&
                             ins.operands[0].reg2 < 0;
          d = !bcast || any_use_divergent(static_cast<int>(i));
          break;
        }
        case Opcode::kLd:
        case Opcode::kLdu: {
          const MemAccess m = memory(ins);
          if (m.space == ptx::Space::kParam) {
            d = !f.is_entry;
            break;
          }
          d = any_use_divergent(static_cast<int>(i));
          if (!d &&
              std::binary_search(local_loads.begin(), local_loads.end(), static_cast<int>(i))) {
            for (int s : local_stores) {
              if (!in.alias->may_alias(static_cast<int>(i), s)) continue;
              if (any_use_divergent(s) || in_divergent_region(cfg.node_of_inst(s))) d = true;
            }
          }
          break;
        }
        default:
          d = std::any_of(ins.operands.begin(), ins.operands.end(), reads_lane_special) ||
              any_use_divergent(static_cast<int>(i));
          break;
      }
      if (d) {
        set_divergent(static_cast<int>(i));
        changed = true;
      }
    }
    // Divergence points.
    for (int p : u.points_) {
      if (u.div_branch_[static_cast<size_t>(p)]) continue;
      const ptx::Instruction& b = f.insts[static_cast<size_t>(p)];
      const NodeId bb = cfg.node_of_inst(p);
      if (u.single_lane_[static_cast<size_t>(bb)]) continue;
      bool d = false;
      if (b.guard.reg >= 0) d = u.divergent_use(p, b.guard.reg);
      if (b.opcode == Opcode::kBrx) d = d || any_use_divergent(p);
      if (d && cfg.succs(bb).size() >= 2) {
        u.div_branch_[static_cast<size_t>(p)] = 1;
        changed = true;
      }
    }
    // Sync / temporal divergence: uses outside a divergent region of values defined inside.
    for (int p : u.points_) {
      if (!u.div_branch_[static_cast<size_t>(p)] || sync_done[static_cast<size_t>(p)]) continue;
      sync_done[static_cast<size_t>(p)] = 1;
      if (sync_walk(p)) changed = true;
    }
  }
  return u;
}

}  // namespace simtsync::analysis
