#include "analysis/reaching_defs.h"

#include <algorithm>

#include "analysis/inst_info.h"

namespace simtsync::analysis {
namespace {

using Bits = std::vector<std::uint64_t>;
void set(Bits& b, int i) { b[static_cast<size_t>(i) / 64] |= 1ULL << (i % 64); }
void clear(Bits& b, int i) { b[static_cast<size_t>(i) / 64] &= ~(1ULL << (i % 64)); }
bool test(const Bits& b, int i) { return (b[static_cast<size_t>(i) / 64] >> (i % 64)) & 1; }

}  // namespace

ReachingDefs ReachingDefs::compute(const Cfg& cfg) {
  const ptx::Function& f = cfg.function();
  ReachingDefs r;
  r.cfg_ = &cfg;
  const size_t nregs = f.regs.size();
  r.by_reg_.assign(nregs, {});
  r.ids_by_reg_.assign(nregs, {});
  r.entry_id_.assign(nregs, -1);
  // Entry pseudo-definitions first, one per register.
  for (size_t reg = 0; reg < nregs; ++reg) {
    r.entry_id_[reg] = static_cast<int>(r.def_inst_.size());
    r.def_inst_.push_back(kEntryDef);
    r.def_reg_.push_back(static_cast<int>(reg));
    r.ids_by_reg_[reg].push_back(r.entry_id_[reg]);
  }
  std::vector<std::vector<int>> ids_of_inst(f.insts.size());
  for (size_t i = 0; i < f.insts.size(); ++i) {
    for (int reg : defs(f.insts[i])) {
      if (reg < 0 || static_cast<size_t>(reg) >= nregs) continue;
      const int id = static_cast<int>(r.def_inst_.size());
      r.def_inst_.push_back(static_cast<int>(i));
      r.def_reg_.push_back(reg);
      r.ids_by_reg_[static_cast<size_t>(reg)].push_back(id);
      if (r.by_reg_[static_cast<size_t>(reg)].empty() ||
          r.by_reg_[static_cast<size_t>(reg)].back() != static_cast<int>(i))
        r.by_reg_[static_cast<size_t>(reg)].push_back(static_cast<int>(i));
      ids_of_inst[i].push_back(id);
    }
  }
  const size_t words = (r.def_inst_.size() + 63) / 64;
  const int n = cfg.size();
  // Transfer function of a block: OUT = gen U (IN - kill).
  auto transfer = [&](NodeId b, Bits bits) {
    if (!cfg.is_block(b)) return bits;
    const auto& bb = cfg.block(b);
    for (int i = bb.begin; i < bb.end; ++i) {
      const bool guarded = f.insts[static_cast<size_t>(i)].guard.reg >= 0;
      for (int id : ids_of_inst[static_cast<size_t>(i)]) {
        if (!guarded)
          for (int k : r.ids_by_reg_[static_cast<size_t>(r.def_reg_[static_cast<size_t>(id)])])
            clear(bits, k);
        set(bits, id);
      }
    }
    return bits;
  };
  r.in_.assign(static_cast<size_t>(n), Bits(words, 0));
  std::vector<Bits> out(static_cast<size_t>(n), Bits(words, 0));
  Bits entry_bits(words, 0);
  for (size_t reg = 0; reg < nregs; ++reg) set(entry_bits, r.entry_id_[reg]);
  out[static_cast<size_t>(cfg.entry())] = entry_bits;
  bool changed = true;
  while (changed) {
    changed = false;
    for (NodeId b = 0; b < n; ++b) {
      if (b == cfg.entry()) continue;
      Bits in(words, 0);
      for (NodeId p : cfg.preds(b))
        for (size_t w = 0; w < words; ++w) in[w] |= out[static_cast<size_t>(p)][w];
      Bits o = transfer(b, in);
      r.in_[static_cast<size_t>(b)] = std::move(in);
      if (o != out[static_cast<size_t>(b)]) {
        out[static_cast<size_t>(b)] = std::move(o);
        changed = true;
      }
    }
  }
  return r;
}

std::vector<int> ReachingDefs::reaching(int inst, int reg) const {
  const ptx::Function& f = cfg_->function();
  std::vector<int> result;
  if (reg < 0 || static_cast<size_t>(reg) >= by_reg_.size()) return result;
  const NodeId b = cfg_->node_of_inst(inst);
  // Walk back over this register's definitions inside the block (by_reg_ is ascending, so a
  // binary search finds the nearest one without scanning the block): the nearest unguarded
  // definition ends the search.
  const std::vector<int>& mine = by_reg_[static_cast<size_t>(reg)];
  const int begin = cfg_->block(b).begin;
  for (auto it = std::lower_bound(mine.begin(), mine.end(), inst);
       it != mine.begin() && *(it - 1) >= begin;) {
    const int i = *--it;
    result.push_back(i);
    if (f.insts[static_cast<size_t>(i)].guard.reg < 0) {
      std::sort(result.begin(), result.end());
      return result;
    }
  }
  const Bits& in = in_[static_cast<size_t>(b)];
  for (int id : ids_by_reg_[static_cast<size_t>(reg)])
    if (test(in, id)) result.push_back(def_inst_[static_cast<size_t>(id)]);
  std::sort(result.begin(), result.end());
  result.erase(std::unique(result.begin(), result.end()), result.end());
  return result;
}

}  // namespace simtsync::analysis
