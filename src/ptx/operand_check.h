// Operand shapes per opcode: does an instruction's operand list fit its opcode's signature in
// opcodes.def? The parser rejects what does not (with the operand's position), and the
// functional decoder checks again for IR built by transforms, so neither the decoder nor the
// analyses index past the operands an opcode guarantees.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ptx/ir.h"

namespace simtsync::ptx {

struct OperandProblem {
  int operand = -1;  // index of the offending operand; -1 when the count is wrong
  std::string what;  // "atom takes 3 or 4 operands, not 0"
};

// The signature an instruction must fit: its opcode's, or `dss[s` for bar/barrier .red.
std::string_view operand_signature(const Instruction& in);

// nullopt when the operands fit. Call instructions ("*") are always accepted here.
std::optional<OperandProblem> check_operands(const Instruction& in);

}  // namespace simtsync::ptx
