// Parses one instruction statement: guard, opcode with modifiers, operands, ';'.
//
// Operand conventions (see also parser.h):
//  - registers resolve through the open scopes to indices in Function::regs;
//  - the branch target of bra is a kLabel (resolved later by Function::finalize);
//  - call always has three operands: kList returns, kSymbol callee, kList arguments (either list
//    may be empty).
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "ptx/ir.h"
#include "ptx/parser_cursor.h"
#include "ptx/parser_scopes.h"

namespace simtsync::ptx {

struct LabelRef {
  std::string name;
  Token at;
};

// A name used as an operand (`mov.u64 %rd1, sym`, `[sym+4]`, a call argument): the function
// parser checks it names a variable, parameter or function once the function is parsed (a label
// there is the wrong operand kind), the module parser once the module is.
struct SymbolUse {
  std::string name;
  Token at;
  int inst = 0;         // instruction index in the function
  int operand = 0;      // top-level operand index
  bool nested = false;  // an element of a vector or list, or the base of an address
};

class InstructionParser {
 public:
  // `regs` are the registers of the function being parsed (their types are checked).
  InstructionParser(TokenCursor& c, const RegisterScopes& scopes,
                    const std::set<std::string, std::less<>>& functions,
                    const std::vector<Register>& regs)
      : c_(c), scopes_(scopes), functions_(functions), regs_(regs) {}

  // Parses from the guard or opcode through the ';' of the function's instruction number
  // `index`. Label operands are appended to refs, symbol operands to uses.
  Instruction parse(int index, std::vector<LabelRef>& refs, std::vector<SymbolUse>& uses);

 private:
  void parse_opcode(Instruction& in, const Token& word);
  Operand parse_operand(const Instruction& in, std::vector<LabelRef>& refs, bool nested);
  Operand parse_name(const Instruction& in, const Token& t, std::vector<LabelRef>& refs);
  Operand parse_number(const Instruction& in);
  Operand parse_address();
  int expect_register(const Token& t);
  void normalize_call(Instruction& in, const Token& at);

  TokenCursor& c_;
  const RegisterScopes& scopes_;
  const std::set<std::string, std::less<>>& functions_;
  const std::vector<Register>& regs_;
};

}  // namespace simtsync::ptx
