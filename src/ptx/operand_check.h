// Operand shapes per opcode: does an instruction's operand list fit its opcode's signature in
// opcodes.def (and the modifier-dependent rules of operand_check.cc)? The parser rejects what
// does not (with the operand's position), and the functional decoder checks again for IR built
// by transforms, so neither the decoder nor the analyses index past the operands an opcode
// guarantees.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "ptx/ir.h"

namespace simtsync::ptx {

// OperandProblem::operand for a problem with the guard (`@%r1` where %r1 is not a .pred).
inline constexpr int kGuardOperand = -2;

struct OperandProblem {
  int operand = -1;  // index of the offending operand; -1 when the count or a modifier is
                     // wrong; kGuardOperand for the guard
  std::string what;  // "atom takes 3 or 4 operands, not 0"
};

// The signature an instruction must fit: its opcode's, `dbs[s` for bar/barrier .red, `s` for
// bar.warp.sync.
std::string_view operand_signature(const Instruction& in);

// nullopt when the operands fit. Call instructions ("*") are always accepted here. `regs` are
// the function's registers (Function::regs, indexed by Operand::reg): with them, the guard and
// the `P` operands (setp's destination) must be .pred registers; without them register types
// are not checked.
std::optional<OperandProblem> check_operands(const Instruction& in,
                                             std::span<const Register> regs = {});

}  // namespace simtsync::ptx
