#include "ptx/operand_check.h"

#include <fmt/format.h>

#include <algorithm>

namespace simtsync::ptx {
namespace {

constexpr std::size_t kMaxVector = 4;     // ExecInst holds at most 4 destinations and 4 sources
constexpr std::int64_t kMaxBarrier = 15;  // PTX ISA: barriers 0..15 per CTA

// Operand counts that depend on a modifier, checked after the opcode's signature: the first row
// of the opcode whose modifier the instruction has (or whose modifier is empty) applies.
struct Form {
  Opcode op;
  std::optional<Mod> mod;
  std::size_t operands;
  const char* shape;
};
constexpr Form kForms[] = {
    {Opcode::kAtom, Mod::kCasOp, 4, "d, [a], b, c"},
    {Opcode::kAtom, std::nullopt, 3, "d, [a], b"},
};

// Modifiers an opcode cannot do without (ptxas: "Reduction operation is required").
struct Required {
  Opcode op;
  ModCategory category;
  const char* what;
};
constexpr Required kRequired[] = {
    {Opcode::kAtom, ModCategory::kOp, "atom needs an operation (.add, .cas, .exch, ...)"},
    {Opcode::kRed, ModCategory::kOp, "red needs an operation (.add, .min, .or, ...)"},
    {Opcode::kSetp, ModCategory::kCmp, "setp needs a comparison (.eq, .lt, ...)"},
    {Opcode::kSet, ModCategory::kCmp, "set needs a comparison (.eq, .lt, ...)"},
};

// State spaces an opcode may not name (ptxas: "State space incorrect for instruction 'st'").
struct Forbidden {
  Opcode op;
  Space space;
  const char* what;
};
constexpr Forbidden kForbiddenSpaces[] = {
    {Opcode::kSt, Space::kConst, "st cannot write the .const state space (it is read-only)"},
    {Opcode::kAtom, Space::kConst, "atom cannot write the .const state space (it is read-only)"},
    {Opcode::kRed, Space::kConst, "red cannot write the .const state space (it is read-only)"},
};

// Whether register `r` is a .pred register; true when the types are not known.
bool is_pred(int r, std::span<const Register> regs) {
  if (r < 0 || static_cast<std::size_t>(r) >= regs.size()) return true;
  return regs[static_cast<std::size_t>(r)].type == DType::kPred;
}

bool is_dest(const Operand& o, bool pair) {
  if (o.kind == Operand::Kind::kSink) return true;
  return o.kind == Operand::Kind::kReg && !o.negate && (pair || o.reg2 < 0);
}

bool is_source(const Operand& o) {
  switch (o.kind) {
    case Operand::Kind::kReg:
      return o.reg2 < 0;
    case Operand::Kind::kImmInt:
    case Operand::Kind::kImmF32:
    case Operand::Kind::kImmF64:
    case Operand::Kind::kSpecial:
    case Operand::Kind::kSymbol:
      return true;
    default:
      return false;
  }
}

// Empty when `o` fits the signature letter; what it must be otherwise.
std::string fit(char letter, const Operand& o, std::span<const Register> regs) {
  auto vector_of = [&](bool (*elem)(const Operand&), const char* what) -> std::string {
    if (o.kind != Operand::Kind::kVector) return elem(o) ? "" : what;
    if (o.elems.empty() || o.elems.size() > kMaxVector)
      return fmt::format("{} (vectors of 1 to {} elements)", what, kMaxVector);
    for (const auto& e : o.elems)
      if (!elem(e)) return what;
    return "";
  };
  switch (letter) {
    case 'd':
      return is_dest(o, false) ? "" : "a destination register or _";
    case 'p':
      if (!is_dest(o, true)) return "a destination register, _ or a pair p|q";
      return o.reg2 < 0 || is_pred(o.reg2, regs) ? "" : "a pair p|q whose q is a .pred register";
    case 'P':
      if (is_dest(o, true) && (o.kind == Operand::Kind::kSink ||
                               (is_pred(o.reg, regs) && (o.reg2 < 0 || is_pred(o.reg2, regs)))))
        return "";
      return "a .pred register, _ or a pair p|q of .pred registers";
    case 'b':
      if (o.kind == Operand::Kind::kImmInt && (o.imm < 0 || o.imm > kMaxBarrier))
        return fmt::format("a barrier number in 0..{} (or a register), not {}", kMaxBarrier, o.imm);
      return o.kind == Operand::Kind::kReg || o.kind == Operand::Kind::kImmInt
                 ? ""
                 : fmt::format("a barrier number in 0..{} (or a register)", kMaxBarrier);
    case 's':
      return is_source(o) ? "" : "a register, immediate, special register or symbol";
    case 'D':
      return vector_of([](const Operand& e) { return is_dest(e, false); },
                       "a destination register, _ or a vector of them");
    case 'S':
      // A store vector may leave elements out with `_` (nvcc writes them; the decoder refuses).
      if (o.kind == Operand::Kind::kVector)
        return vector_of(
            [](const Operand& e) { return is_source(e) || e.kind == Operand::Kind::kSink; },
            "a source operand or a vector of them");
      return vector_of(is_source, "a source operand or a vector of them");
    case 'a':
      return o.kind == Operand::Kind::kAddress ? "" : "an address [...]";
    case 'l':
      return o.kind == Operand::Kind::kLabel ? "" : "a label";
    default:
      return "nothing";
  }
}

std::string count_text(std::size_t lo, std::size_t hi) {
  if (lo == hi) return fmt::format("{} operand{}", lo, lo == 1 ? "" : "s");
  if (hi == lo + 1) return fmt::format("{} or {} operands", lo, hi);
  return fmt::format("{} to {} operands", lo, hi);
}

}  // namespace

std::string_view operand_signature(const Instruction& in) {
  if (in.opcode == Opcode::kBar || in.opcode == Opcode::kBarrier) {
    if (in.has(Mod::kRedMod)) return "dbs[s";
    if (in.has(Mod::kWarp)) return "s";  // bar.warp.sync membermask
  }
  return opcode_signature(in.opcode);
}

std::optional<OperandProblem> check_operands(const Instruction& in,
                                             std::span<const Register> regs) {
  const std::string_view sig = operand_signature(in);
  if (sig == "*") return std::nullopt;
  std::string letters;
  std::size_t required = std::string_view::npos;
  for (char c : sig) {
    if (c == '[') {
      required = letters.size();
    } else {
      letters.push_back(c);
    }
  }
  if (required == std::string_view::npos) required = letters.size();
  const std::size_t n = in.operands.size();
  if (n < required || n > letters.size())
    return OperandProblem{-1, fmt::format("{} takes {}, not {}", opcode_name(in.opcode),
                                          count_text(required, letters.size()), n)};
  const InstAttrs a = in.attrs();
  for (const Required& r : kRequired) {
    if (r.op != in.opcode) continue;
    const bool has = std::any_of(in.mods.begin(), in.mods.end(),
                                 [&](Mod m) { return mod_category(m) == r.category; });
    if (!has) return OperandProblem{-1, r.what};
  }
  for (const Form& form : kForms) {
    if (form.op != in.opcode || (form.mod && !in.has(*form.mod))) continue;
    if (n != form.operands)
      return OperandProblem{
          -1, fmt::format("{}{}{} takes {} ({}), not {}", opcode_name(in.opcode), a.op ? "." : "",
                          a.op ? mod_name(*a.op) : "", count_text(form.operands, form.operands),
                          form.shape, n)};
    break;
  }
  for (const Forbidden& f : kForbiddenSpaces)
    if (f.op == in.opcode && f.space == a.space) return OperandProblem{-1, f.what};
  if (in.guard.reg >= 0 && !is_pred(in.guard.reg, regs))
    return OperandProblem{kGuardOperand,
                          fmt::format("a guard must be a .pred register, not the .{} register {}",
                                      dtype_name(regs[static_cast<std::size_t>(in.guard.reg)].type),
                                      regs[static_cast<std::size_t>(in.guard.reg)].name)};
  // shfl.sync names its member mask; only the deprecated shfl without .sync leaves it off.
  if (in.opcode == Opcode::kShfl && in.has(Mod::kSync) && n != letters.size())
    return OperandProblem{-1,
                          fmt::format("shfl.sync takes {} (the last is the member mask), not {}",
                                      count_text(letters.size(), letters.size()), n)};
  // mov packs a vector into a scalar or unpacks a scalar into a vector, never vector to vector.
  if (in.opcode == Opcode::kMov && n == 2 && in.operands[0].kind == Operand::Kind::kVector &&
      in.operands[1].kind == Operand::Kind::kVector)
    return OperandProblem{1, "mov moves between a vector and a scalar, not vector to vector"};
  // Vector loads and stores move exactly .vN elements.
  if (in.opcode == Opcode::kLd || in.opcode == Opcode::kLdu || in.opcode == Opcode::kSt) {
    const int v = in.opcode == Opcode::kSt ? 1 : 0;
    const Operand& o = in.operands[static_cast<std::size_t>(v)];
    const unsigned vec = a.vec;
    if (vec > kMaxVector)
      return OperandProblem{-1, fmt::format("{}.v{} is unsupported (at most .v{})",
                                            opcode_name(in.opcode), vec, kMaxVector)};
    const bool is_vector = o.kind == Operand::Kind::kVector;
    if (vec > 1 && (!is_vector || o.elems.size() != vec))
      return OperandProblem{v, fmt::format("operand {} of {}.v{} must be a vector of {}", v + 1,
                                           opcode_name(in.opcode), vec, vec)};
    if (vec == 1 && is_vector)
      return OperandProblem{v, fmt::format("operand {} of {} is a vector but there is no .vN",
                                           v + 1, opcode_name(in.opcode))};
  }
  for (std::size_t i = 0; i < n; ++i) {
    const Operand& o = in.operands[i];
    if (std::string need = fit(letters[i], o, regs); !need.empty()) {
      if (o.kind == Operand::Kind::kLabel && letters[i] != 'l')
        need += fmt::format(", not the label {}", o.name);
      return OperandProblem{static_cast<int>(i), fmt::format("operand {} of {} must be {}", i + 1,
                                                             opcode_name(in.opcode), need)};
    }
  }
  return std::nullopt;
}

}  // namespace simtsync::ptx
