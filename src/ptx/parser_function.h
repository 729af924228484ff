// Parses one `.entry`/`.func`: header, parameters, performance directives and the body with its
// nested `{ }` scopes, declarations, labels, `.loc`/`.pragma` directives and instructions.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "ptx/ir.h"
#include "ptx/parser_cursor.h"
#include "ptx/parser_inst.h"
#include "ptx/parser_scopes.h"

namespace simtsync::ptx {

class FunctionParser {
 public:
  // `functions` collects every function name seen so far (calls must name one); the function
  // being parsed is added before its body so that it may call itself. `defined` maps the name
  // of every function with a body to its line (a second definition is an error). Symbol
  // operands that name nothing in the function are appended to `unresolved`, for the module
  // parser to look up among the module's variables and functions.
  FunctionParser(TokenCursor& c, std::set<std::string, std::less<>>& functions,
                 std::map<std::string, int, std::less<>>& defined,
                 std::vector<SymbolUse>& unresolved)
      : c_(c), functions_(functions), defined_(defined), unresolved_(unresolved) {}

  // Parses after the `.entry`/`.func` token `head` through the closing '}' or ';'.
  Function parse(const Token& head, std::string linkage);

 private:
  void parse_params(Function& f, std::vector<Variable>& out);
  void parse_perf_directives(Function& f);
  void parse_body(Function& f);
  void parse_body_directive(Function& f, const std::vector<int>& open);
  void declare_registers(Function& f, RegDecl& d, const Token& at);
  void check_labels();
  void check_symbols(Function& f);

  TokenCursor& c_;
  std::set<std::string, std::less<>>& functions_;
  std::map<std::string, int, std::less<>>& defined_;
  std::vector<SymbolUse>& unresolved_;
  std::vector<SymbolUse> uses_;
  RegisterScopes scopes_;
  std::vector<LabelRef> label_refs_;
  std::unordered_set<std::string> label_names_;
  SrcLoc loc_;
};

// Renumbers Function::regs so that they follow the printed declaration order: register
// parameters, top-level declarations, then each scope's declarations in scope order.
void canonicalize_registers(Function& f);

}  // namespace simtsync::ptx
