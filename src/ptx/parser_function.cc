#include "ptx/parser_function.h"

#include <fmt/format.h>

#include <set>

#include "ptx/operand_check.h"
#include "ptx/parser_decl.h"

namespace simtsync::ptx {
namespace {

constexpr std::size_t kMaxScopeDepth = 64;
constexpr std::int64_t kMaxNtid = 0x7fffffff;  // .maxntid/.reqntid extents (32-bit in ptxas)

bool is_perf_directive(std::string_view s) {
  static constexpr std::string_view kNames[] = {
      ".maxntid",         ".reqntid",           ".minnctapersm",   ".maxnctapersm",
      ".maxnreg",         ".noreturn",          ".maxclusterrank", ".reqnctapercluster",
      ".explicitcluster", ".blocksareclusters", ".abi_preserve",   ".abi_preserve_control"};
  for (auto n : kNames)
    if (s == n) return true;
  return false;
}

void remap(Operand& o, const std::vector<int>& perm) {
  if (o.reg >= 0 && (o.kind == Operand::Kind::kReg || o.kind == Operand::Kind::kAddress))
    o.reg = perm[static_cast<std::size_t>(o.reg)];
  if (o.reg2 >= 0) o.reg2 = perm[static_cast<std::size_t>(o.reg2)];
  for (auto& e : o.elems) remap(e, perm);
}

}  // namespace

Function FunctionParser::parse(const Token& head, std::string linkage) {
  Function f;
  f.is_entry = head.text == ".entry";
  f.linkage = std::move(linkage);
  scopes_.push();
  if (!f.is_entry && c_.peek().is('(')) parse_params(f, f.rets);
  Token name = c_.peek();
  if (name.kind != TokKind::kWord || name.is_directive() || name.text[0] == '%')
    c_.fail(name, "expected a function name");
  c_.next();
  f.name = std::string(name.text);
  functions_.insert(f.name);
  if (c_.peek().is('(')) parse_params(f, f.params);
  parse_perf_directives(f);
  if (c_.accept(';')) {
    f.is_declaration = true;
    return f;
  }
  c_.expect('{', "expected '{' or ';' after function header");
  // ptxas: "Duplicate definition of function" (a second body would otherwise be ignored).
  if (auto [it, fresh] = defined_.emplace(f.name, name.line); !fresh)
    c_.fail(name, fmt::format("duplicate definition of function {} (first defined at line {})",
                              f.name, it->second));
  parse_body(f);
  check_labels();
  check_symbols(f);
  canonicalize_registers(f);
  return f;
}

void FunctionParser::parse_params(Function& f, std::vector<Variable>& out) {
  c_.expect('(', "expected '('");
  if (c_.accept(')')) return;
  do {
    Token head = c_.peek();
    if (!head.is_directive()) c_.fail(head, "expected a parameter declaration");
    c_.next();
    Variable v = parse_variable(c_, head, "", false);
    if (v.space != Space::kParam && v.space != Space::kReg)
      c_.fail(head, "parameters must be .param or .reg");
    if (v.space == Space::kReg) {
      if (!v.dims.empty() || v.vec != 1) c_.fail(head, "unsupported register parameter");
      if (!scopes_.declare(v.name, static_cast<int>(f.regs.size())))
        c_.fail(head, "redeclared register " + v.name);
      f.regs.push_back({v.name, v.type});
    }
    out.push_back(std::move(v));
  } while (c_.accept(','));
  c_.expect(')', "expected ',' or ')' after parameter");
}

void FunctionParser::parse_perf_directives(Function& f) {
  while (c_.peek().is_directive() && is_perf_directive(c_.peek().text)) {
    const Token head = c_.next();
    std::string d(head.text);
    // .maxntid and .reqntid give a block shape: 1 to 3 positive extents (ptxas: "Positive
    // non-zero value expected"); launches are checked against them (block_shape_problem).
    const bool shape = d == ".maxntid" || d == ".reqntid";
    if (shape && c_.peek().kind != TokKind::kInt && !c_.peek().is('-'))
      c_.fail(c_.peek(), "expected 1 to 3 thread counts after " + d);
    if (c_.peek().kind == TokKind::kInt || (shape && c_.peek().is('-'))) {
      int count = 0;
      do {
        const Token at = c_.peek();
        const std::int64_t v = c_.expect_int("expected a number");
        if (shape && (v <= 0 || v > kMaxNtid))
          c_.fail(at,
                  fmt::format("{} needs positive thread counts (1 to {})", head.text, kMaxNtid));
        if (shape && count == 3)
          c_.fail(at, fmt::format("{} takes at most 3 thread counts (x, y, z)", head.text));
        d += count++ == 0 ? " " : ", ";
        d += std::to_string(v);
      } while (c_.accept(','));
    }
    f.perf_directives.push_back(std::move(d));
  }
}

namespace {

// At most as many instructions as the ';' before the body's closing brace (declarations and
// comments count too): reserved at once, a large function's instructions are not moved while
// the vector grows, nor held twice when it does (issue 46).
std::size_t instruction_bound(std::string_view body) {
  std::size_t n = 0;
  int depth = 0;
  for (char ch : body) {
    if (ch == ';')
      ++n;
    else if (ch == '{')
      ++depth;
    else if (ch == '}' && depth-- == 0)
      break;
  }
  return n;
}

}  // namespace

void FunctionParser::parse_body(Function& f) {
  f.insts.reserve(f.insts.size() + instruction_bound(c_.rest()));
  std::vector<int> open;
  InstructionParser insts(c_, scopes_, functions_, f.regs);
  for (;;) {
    Token t = c_.peek();
    if (t.kind == TokKind::kEnd) c_.fail(t, "missing '}' at end of function body");
    if (t.is('}')) {
      c_.next();
      if (open.empty()) return;
      f.scopes[static_cast<std::size_t>(open.back())].end = static_cast<int>(f.insts.size());
      open.pop_back();
      scopes_.pop();
    } else if (t.is('{')) {
      c_.next();
      if (open.size() >= kMaxScopeDepth) c_.fail(t, "scopes nested too deeply");
      Scope s;
      s.begin = static_cast<int>(f.insts.size());
      s.depth = static_cast<int>(open.size()) + 1;
      open.push_back(static_cast<int>(f.scopes.size()));
      f.scopes.push_back(std::move(s));
      scopes_.push();
    } else if (t.is_directive()) {
      parse_body_directive(f, open);
    } else if (t.kind == TokKind::kWord && c_.peek(1).is(':')) {
      if (t.text[0] == '%') c_.fail(t, "bad label name");
      if (!label_names_.insert(std::string(t.text)).second) c_.fail(t, "duplicate label");
      f.labels.push_back({std::string(t.text), static_cast<int>(f.insts.size())});
      c_.next();
      c_.next();
    } else if (t.is('@') || t.kind == TokKind::kWord) {
      Instruction in = insts.parse(static_cast<int>(f.insts.size()), label_refs_, uses_);
      in.loc = loc_;
      f.insts.push_back(std::move(in));
    } else {
      c_.fail(t, "expected an instruction, a label or a directive");
    }
  }
}

void FunctionParser::parse_body_directive(Function& f, const std::vector<int>& open) {
  Token t = c_.next();
  Scope* scope = open.empty() ? nullptr : &f.scopes[static_cast<std::size_t>(open.back())];
  if (t.text == ".reg") {
    for (RegDecl& d : parse_reg_decl(c_, t)) {
      declare_registers(f, d, t);
      (scope ? scope->regs : f.reg_decls).push_back(std::move(d));
    }
  } else if (t.text == ".loc") {
    loc_ = parse_loc(c_);
  } else if (t.text == ".pragma") {
    Token s = c_.expect_string("expected a pragma string");
    c_.expect(';', "expected ';' after .pragma");
    f.pragmas.emplace_back(static_cast<int>(f.insts.size()), "\"" + std::string(s.text) + "\"");
  } else {
    auto parts = split_dots(t.text);
    Space sp = space_from_name(parts[0]);
    if (sp == Space::kNone || sp == Space::kReg) c_.fail(t, "unsupported directive");
    Variable v = parse_variable(c_, t, "", sp != Space::kParam);
    c_.expect(';', "expected ';' after declaration");
    (scope ? scope->vars : f.locals).push_back(std::move(v));
  }
}

void FunctionParser::declare_registers(Function& f, RegDecl& d, const Token& at) {
  d.first_reg = static_cast<int>(f.regs.size());
  if (d.count < 0) {
    if (!scopes_.declare(d.name, d.first_reg)) c_.fail(at, "redeclared register " + d.name);
    f.regs.push_back({d.name, d.type});
    return;
  }
  for (int k = 0; k < d.count; ++k) {
    std::string n = d.name + std::to_string(k);
    if (!scopes_.declare(n, static_cast<int>(f.regs.size())))
      c_.fail(at, "redeclared register " + n);
    f.regs.push_back({std::move(n), d.type});
  }
}

void FunctionParser::check_labels() {
  for (const auto& r : label_refs_)
    if (!label_names_.count(r.name)) c_.fail(r.at, "undefined label");
  label_refs_.clear();
}

void FunctionParser::check_symbols(Function& f) {
  std::set<std::string_view> vars;  // what a symbol operand may name inside the function
  for (const auto* list : {&f.rets, &f.locals})
    for (const auto& v : *list) vars.insert(v.name);
  for (const auto& s : f.scopes)
    for (const auto& v : s.vars) vars.insert(v.name);
  std::set<std::string_view> params;
  for (const auto& v : f.params) params.insert(v.name);
  for (SymbolUse& u : uses_) {
    Instruction& in = f.insts[static_cast<std::size_t>(u.inst)];
    if (vars.count(u.name)) continue;
    if (params.count(u.name)) {
      // ptxas: "Illegal to write to function input parameter"; a kernel's parameters are
      // shared by all its threads (st.param is for call arguments and return values).
      const bool writes =
          in.opcode == Opcode::kSt || in.opcode == Opcode::kAtom || in.opcode == Opcode::kRed;
      const int address = in.opcode == Opcode::kAtom ? 1 : 0;
      if (writes && u.operand == address &&
          in.operands[static_cast<std::size_t>(address)].kind == Operand::Kind::kAddress)
        c_.fail(u.at,
                fmt::format("{} cannot write {} parameter {} (input parameters are "
                            "read-only)",
                            opcode_name(in.opcode), f.is_entry ? "kernel" : "function", u.name));
      continue;
    }
    if (label_names_.count(u.name)) {
      // A label is an operand of its own kind (`l` in opcodes.def), which only branches take.
      if (!u.nested) {
        in.operands[static_cast<std::size_t>(u.operand)].kind = Operand::Kind::kLabel;
        if (auto problem = check_operands(in, f.regs)) c_.fail(u.at, problem->what);
      }
      c_.fail(u.at, fmt::format("label {} used where {} takes a variable", u.name,
                                opcode_name(in.opcode)));
    }
    unresolved_.push_back(std::move(u));
  }
  uses_.clear();
}

void canonicalize_registers(Function& f) {
  std::vector<int> perm(f.regs.size(), -1);
  int next = 0;
  for (const auto* list : {&f.rets, &f.params})
    for (const auto& v : *list)
      if (v.space == Space::kReg) {
        perm[static_cast<std::size_t>(next)] = next;
        ++next;
      }
  auto place = [&](RegDecl& d) {
    int start = next;
    int n = d.count < 0 ? 1 : d.count;
    for (int k = 0; k < n; ++k) perm[static_cast<std::size_t>(d.first_reg + k)] = next++;
    d.first_reg = start;
  };
  for (auto& d : f.reg_decls) place(d);
  for (auto& s : f.scopes)
    for (auto& d : s.regs) place(d);
  bool identity = true;
  for (std::size_t i = 0; i < perm.size(); ++i)
    identity = identity && perm[i] == static_cast<int>(i);
  if (identity) return;
  std::vector<Register> regs(f.regs.size());
  for (std::size_t i = 0; i < perm.size(); ++i)
    regs[static_cast<std::size_t>(perm[i])] = std::move(f.regs[i]);
  f.regs = std::move(regs);
  for (auto& in : f.insts) {
    if (in.guard.reg >= 0) in.guard.reg = perm[static_cast<std::size_t>(in.guard.reg)];
    for (auto& o : in.operands) remap(o, perm);
  }
}

}  // namespace simtsync::ptx
