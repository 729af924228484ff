#include "ptx/parser_inst.h"

#include <bit>

#include "ptx/operand_check.h"

namespace simtsync::ptx {

namespace {

// Appends the names `o` uses as symbols (itself, its elements, an address's base).
void collect_symbols(const Operand& o, const Token& at, int inst, int operand, bool nested,
                     std::vector<SymbolUse>& uses) {
  if (o.kind == Operand::Kind::kSymbol || (o.kind == Operand::Kind::kAddress && !o.name.empty()))
    uses.push_back({o.name, at, inst, operand, nested || o.kind == Operand::Kind::kAddress});
  for (const auto& e : o.elems) collect_symbols(e, at, inst, operand, true, uses);
}

}  // namespace

Instruction InstructionParser::parse(int index, std::vector<LabelRef>& refs,
                                     std::vector<SymbolUse>& uses) {
  Instruction in;
  in.ptx_line = c_.peek().line;
  Token guard_at;
  if (c_.accept('@')) {
    in.guard.negate = c_.accept('!');
    guard_at = c_.expect_word("expected a guard predicate");
    in.guard.reg = expect_register(guard_at);
  }
  Token op = c_.peek();
  if (op.kind != TokKind::kWord || op.is_directive()) c_.fail(op, "expected an opcode");
  c_.next();
  parse_opcode(in, op);
  std::vector<Token> starts;  // where each operand begins, for diagnostics
  if (!c_.peek().is(';')) {
    do {
      starts.push_back(c_.peek());
      in.operands.push_back(parse_operand(in, refs, false));
    } while (c_.accept(','));
  }
  c_.expect(';', "expected ',' or ';' after operand");
  // Exactly as many as there are: growth leaves room for a fourth operand after the third,
  // and operands are most of a large module's memory (issue 46).
  in.operands.shrink_to_fit();
  if (in.opcode == Opcode::kCall) {
    normalize_call(in, op);
    // The callee was checked; the argument lists name .param variables.
    collect_symbols(in.operands[0], op, index, 0, true, uses);
    collect_symbols(in.operands[2], op, index, 2, true, uses);
  } else {
    for (std::size_t i = 0; i < in.operands.size(); ++i)
      collect_symbols(in.operands[i], starts[i], index, static_cast<int>(i), false, uses);
  }
  if (auto problem = check_operands(in, regs_))
    c_.fail(problem->operand == kGuardOperand ? guard_at
            : problem->operand < 0            ? op
                                              : starts[static_cast<std::size_t>(problem->operand)],
            problem->what);
  return in;
}

void InstructionParser::parse_opcode(Instruction& in, const Token& word) {
  auto parts = split_dots(word.text);
  auto op = opcode_from_name(parts[0]);
  if (!op) c_.fail(word, "unknown opcode");
  in.opcode = *op;
  bool compares = in.opcode == Opcode::kSetp || in.opcode == Opcode::kSet;
  in.mods.reserve(parts.size() - 1);
  for (std::size_t i = 1; i < parts.size(); ++i) {
    auto m = mod_from_name(parts[i]);
    if (!m) c_.fail(word, "unknown modifier ." + std::string(parts[i]));
    // "lo"/"hi" spell both a comparison (setp.lo.u32) and a half selector (mul.lo.s32).
    if (compares && *m == Mod::kLoHalf) m = Mod::kLo;
    if (compares && *m == Mod::kHiHalf) m = Mod::kHi;
    in.mods.push_back(*m);
  }
}

Operand InstructionParser::parse_operand(const Instruction& in, std::vector<LabelRef>& refs,
                                         bool nested) {
  Token t = c_.peek();
  Operand o;
  if (t.is('[')) return parse_address();
  if ((t.is('{') || t.is('(')) && !nested) {
    char close = t.is('{') ? '}' : ')';
    o.kind = t.is('{') ? Operand::Kind::kVector : Operand::Kind::kList;
    c_.next();
    if (o.kind == Operand::Kind::kList && c_.accept(')')) return o;
    do {
      o.elems.push_back(parse_operand(in, refs, true));
    } while (c_.accept(','));
    c_.expect(close, close == '}' ? "expected ',' or '}'" : "expected ',' or ')'");
    if (o.kind == Operand::Kind::kVector && o.elems.size() > 8) c_.fail(t, "vector too long");
    return o;
  }
  if (t.is('!')) {
    c_.next();
    o.kind = Operand::Kind::kReg;
    o.negate = true;
    o.reg = expect_register(c_.expect_word("expected a predicate after '!'"));
    return o;
  }
  if (t.is('-') || t.is_number()) return parse_number(in);
  if (t.kind == TokKind::kWord && !t.is_directive()) return parse_name(in, c_.next(), refs);
  c_.fail(t, "expected an operand");
}

Operand InstructionParser::parse_name(const Instruction& in, const Token& t,
                                      std::vector<LabelRef>& refs) {
  Operand o;
  if (t.text == "_") return o;  // kSink
  if (int r = scopes_.find(t.text); r >= 0) {
    o.kind = Operand::Kind::kReg;
    o.reg = r;
    if (c_.accept('|')) o.reg2 = expect_register(c_.expect_word("expected a register after '|'"));
    return o;
  }
  if (t.text[0] == '%') {
    std::string_view base = t.text.substr(1);
    std::string_view comp;
    if (auto dot = base.find('.'); dot != std::string_view::npos) {
      comp = base.substr(dot + 1);
      base = base.substr(0, dot);
    }
    auto sr = special_reg_from_name(base);
    // Issue 45: cooperative groups' grid.sync() reads the launch environment (%envreg*).
    if (!sr && base.starts_with("envreg"))
      c_.fail(t,
              "grid-wide synchronization (cooperative launch, cooperative_groups grid.sync(), "
              "which reads %envreg registers) is not supported");
    if (!sr) c_.fail(t, "undeclared register");
    o.kind = Operand::Kind::kSpecial;
    o.sreg = *sr;
    if (!comp.empty()) {
      if (comp.size() != 1 || comp[0] < 'x' || comp[0] > 'z')
        c_.fail(t, "unsupported special register component");
      o.component = static_cast<std::int8_t>(comp[0] - 'x');
    }
    return o;
  }
  o.name = std::string(t.text);
  if (in.opcode == Opcode::kBra || in.opcode == Opcode::kBrx) {
    o.kind = Operand::Kind::kLabel;
    refs.push_back({o.name, t});
    return o;
  }
  o.kind = Operand::Kind::kSymbol;
  if (c_.accept('+')) o.offset = c_.expect_int("expected an offset after '+'");
  return o;
}

Operand InstructionParser::parse_number(const Instruction& in) {
  Operand o;
  bool neg = c_.accept('-');
  Token t = c_.next();
  switch (t.kind) {
    case TokKind::kInt:
      o.kind = Operand::Kind::kImmInt;
      o.imm = static_cast<std::int64_t>(neg ? 0 - t.bits : t.bits);
      return o;
    case TokKind::kF32:
    case TokKind::kF64:
      if (neg) c_.fail(t, "negated hexadecimal float");
      o.kind = t.kind == TokKind::kF32 ? Operand::Kind::kImmF32 : Operand::Kind::kImmF64;
      o.fbits = t.bits;
      return o;
    case TokKind::kDecFloat: {
      double d = neg ? -t.dval : t.dval;
      if (in.attrs().type == DType::kF64) {
        o.kind = Operand::Kind::kImmF64;
        o.fbits = std::bit_cast<std::uint64_t>(d);
      } else {
        o.kind = Operand::Kind::kImmF32;
        o.fbits = std::bit_cast<std::uint32_t>(static_cast<float>(d));
      }
      return o;
    }
    default:
      c_.fail(t, "expected an operand");
  }
}

Operand InstructionParser::parse_address() {
  c_.expect('[', "expected '['");
  Operand o;
  o.kind = Operand::Kind::kAddress;
  Token t = c_.peek();
  if (t.kind == TokKind::kWord && !t.is_directive()) {
    Token w = c_.next();
    if (int r = scopes_.find(w.text); r >= 0) {
      o.reg = r;
    } else if (w.text[0] == '%') {
      c_.fail(w, "undeclared register");
    } else if (w.text == "_") {
      c_.fail(w, "expected an address");
    } else {
      o.name = std::string(w.text);
    }
    if (c_.accept('+') || c_.peek().is('-')) o.offset = c_.expect_int("expected an offset");
  } else if (t.kind == TokKind::kInt || t.is('-')) {
    o.offset = c_.expect_int("expected an address");
  } else {
    c_.fail(t, "expected an address");
  }
  c_.expect(']', "expected ']'");
  return o;
}

int InstructionParser::expect_register(const Token& t) {
  int r = scopes_.find(t.text);
  if (r < 0) c_.fail(t, "undeclared register");
  return r;
}

void InstructionParser::normalize_call(Instruction& in, const Token& at) {
  Operand rets, args, callee;
  rets.kind = args.kind = Operand::Kind::kList;
  std::size_t i = 0, n = in.operands.size();
  if (i < n && in.operands[i].kind == Operand::Kind::kList) rets = in.operands[i++];
  if (i >= n || in.operands[i].kind != Operand::Kind::kSymbol || in.operands[i].offset != 0) {
    if (i < n && in.operands[i].kind == Operand::Kind::kReg)
      c_.fail(at, "indirect calls are unsupported");
    c_.fail(at, "expected a function name in call");
  }
  callee = in.operands[i++];
  if (i < n && in.operands[i].kind == Operand::Kind::kList) args = in.operands[i++];
  if (i != n) c_.fail(at, "unsupported call operands");
  if (functions_.find(callee.name) == functions_.end())
    c_.fail(at, "call to undeclared function " + callee.name);
  in.operands = {std::move(rets), std::move(callee), std::move(args)};
}

}  // namespace simtsync::ptx
