// Reaching definitions of PTX virtual registers (the register half of a backward slice).
//
// Contract:
//  - A definition is (instruction, register) for each register in analysis::defs(). A guarded
//    definition (`@%p mov ...`) may not execute, so it does not kill earlier definitions.
//  - reaching(inst, reg): the instructions whose definition of `reg` may reach the use at
//    `inst`, ascending, plus kEntryDef when a path from ENTRY carries no definition (function
//    parameters passed in registers, or a read of an uninitialised register).
//  - Unreachable blocks are analysed too (their IN set is empty apart from their own preds).
//
// Representation (issue 46): sparse, in SSA form, so that time and memory grow with the
// function and not with blocks x definitions. Each definition is a *value*; a block where
// different values of a register meet (the iterated dominance frontier of its definitions)
// holds a merge value whose operands are the values at the end of each predecessor; a guarded
// definition is a value whose operands are itself and the value before it. reaching(inst, reg)
// is the set of definitions a walk over operands finds from the value `reg` holds at `inst`:
// exactly the classic (gen/kill) reaching definitions. Clients that must visit every use of a
// definition walk the value graph (value_users) instead of expanding these sets.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "analysis/budget.h"
#include "analysis/cfg.h"

namespace simtsync::analysis {

inline constexpr int kEntryDef = -1;

class ReachingDefs {
 public:
  using ValueId = int;
  static constexpr ValueId kNoValue = -1;  // no definition at all (code unreachable from ENTRY)
  static constexpr int kMerge = -2;        // value_inst of a merge value

  // Charges its dominance frontiers and merge values to `budget` (may be null).
  static ReachingDefs compute(const Cfg& cfg, AnalysisBudget* budget = nullptr);

  std::vector<int> reaching(int inst, int reg) const;
  // The only definition reaching the use, or -1 when there are none or several.
  int unique_reaching(int inst, int reg) const;
  // Every definition of `reg` in the function, ascending instruction order.
  const std::vector<int>& defs_of(int reg) const { return by_reg_[static_cast<size_t>(reg)]; }

  // The value graph. value_at: the value `reg` holds when `inst` reads it (a register in
  // uses(inst)); kNoValue when no definition reaches, or when `inst` does not read `reg` (the
  // graph has no values where a register is dead: merges are only placed where it is live).
  // value_inst: the defining instruction, kEntryDef, or kMerge.
  ValueId value_at(int inst, int reg) const;
  int num_values() const { return static_cast<int>(vinst_.size()); }
  int value_inst(ValueId v) const { return vinst_[static_cast<size_t>(v)]; }
  // Values whose reaching sets include this one's (merges and guarded definitions using it).
  std::span<const ValueId> value_users(ValueId v) const { return row(user_begin_, users_, v); }
  // The values a merge or guarded definition combines (the inverse of value_users).
  std::span<const ValueId> value_operands(ValueId v) const { return row(op_begin_, ops_, v); }
  // The values instruction `inst` defines (one per register).
  std::vector<ValueId> values_of_inst(int inst) const;
  // The same without building a list: [first, last) of the values `inst` defines.
  std::pair<const ValueId*, const ValueId*> value_range(int inst) const {
    const auto ui = static_cast<size_t>(inst);
    return {def_val_.data() + def_begin_[ui], def_val_.data() + def_begin_[ui + 1]};
  }
  // The (instruction, register) uses that read value `v` (uses() of each instruction).
  struct Use {
    int inst;
    int reg;
  };
  std::vector<Use> uses_of(ValueId v) const;
  // Calls fn(inst, reg) for each use reading `v`, without building a list.
  template <typename Fn>
  void for_each_use(ValueId v, Fn&& fn) const {
    const auto uv = static_cast<size_t>(v);
    for (int k = reader_begin_[uv]; k < reader_begin_[uv + 1]; ++k) {
      const auto pos = static_cast<size_t>(readers_[static_cast<size_t>(k)]);
      fn(use_inst_[pos], use_reg_[pos]);
    }
  }

 private:
  ValueId new_value(int inst, int reg);
  bool reads(int inst, int reg) const;
  std::vector<int> search_back(int inst, int reg) const;
  // Definitions found from `start` over operands, ascending; the walk stops at `limit` of them.
  std::vector<int> closure(ValueId start, size_t limit) const;

  const Cfg* cfg_ = nullptr;
  std::vector<std::vector<int>> by_reg_;  // reg -> instructions defining it
  std::vector<int> vinst_;                // value -> instruction / kEntryDef / kMerge
  // Operands and users of each value, as CSR arrays (one list per value cost 24 bytes and an
  // allocation each: a large function has hundreds of thousands of values).
  std::vector<int> op_begin_, user_begin_;
  std::vector<ValueId> ops_, users_;
  static std::span<const ValueId> row(const std::vector<int>& begin,
                                      const std::vector<ValueId>& list, ValueId v) {
    const auto b = static_cast<size_t>(begin[static_cast<size_t>(v)]);
    const auto e = static_cast<size_t>(begin[static_cast<size_t>(v) + 1]);
    return {list.data() + b, e - b};
  }
  std::vector<ValueId> entry_val_;  // reg -> its entry pseudo-definition
  // Per instruction, its uses (CSR): register and the value read; its defined values.
  std::vector<int> use_begin_, use_reg_, use_inst_;
  std::vector<ValueId> use_val_;
  std::vector<int> def_begin_;
  std::vector<ValueId> def_val_;
  // Per value, the uses reading it (CSR over use positions).
  std::vector<int> reader_begin_, readers_;
};

}  // namespace simtsync::analysis
