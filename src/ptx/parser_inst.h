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

class InstructionParser {
 public:
  InstructionParser(TokenCursor& c, const RegisterScopes& scopes,
                    const std::set<std::string, std::less<>>& functions)
      : c_(c), scopes_(scopes), functions_(functions) {}

  // Parses from the guard or opcode through the ';'. Label operands are appended to refs.
  Instruction parse(std::vector<LabelRef>& refs);

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
};

}  // namespace simtsync::ptx
