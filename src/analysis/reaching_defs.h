// Reaching definitions of PTX virtual registers (the register half of a backward slice).
//
// Contract:
//  - A definition is (instruction, register) for each register in analysis::defs(). A guarded
//    definition (`@%p mov ...`) may not execute, so it does not kill earlier definitions.
//  - reaching(inst, reg): the instructions whose definition of `reg` may reach the use at
//    `inst`, ascending, plus kEntryDef when a path from ENTRY carries no definition (function
//    parameters passed in registers, or a read of an uninitialised register).
//  - Unreachable blocks are analysed too (their IN set is empty apart from their own preds).
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/cfg.h"

namespace simtsync::analysis {

inline constexpr int kEntryDef = -1;

class ReachingDefs {
 public:
  static ReachingDefs compute(const Cfg& cfg);

  std::vector<int> reaching(int inst, int reg) const;
  // Every definition of `reg` in the function, ascending instruction order.
  const std::vector<int>& defs_of(int reg) const { return by_reg_[static_cast<size_t>(reg)]; }

 private:
  using Bits = std::vector<std::uint64_t>;
  const Cfg* cfg_ = nullptr;
  std::vector<int> def_inst_, def_reg_;        // def id -> instruction / register
  std::vector<std::vector<int>> by_reg_;       // reg -> instructions defining it
  std::vector<std::vector<int>> ids_by_reg_;   // reg -> def ids
  std::vector<Bits> in_;                       // per node; bit def_ids_ + 0 is the entry def
  std::vector<int> entry_id_;                  // reg -> def id of its entry pseudo-definition
};

}  // namespace simtsync::analysis
