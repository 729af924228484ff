#include "analysis/alias.h"

#include <fmt/format.h>

#include <map>
#include <set>

#include "analysis/inst_info.h"

namespace simtsync::analysis {
namespace {

using ptx::Opcode;
using ptx::Operand;
using ptx::Space;
using Base = AddressInfo::Base;

// Abstract value of a register: a pointer (base + offset), an integer, or nothing yet.
struct Val {
  enum class Kind { kNone, kInt, kPtr, kUnknown } kind = Kind::kNone;
  Base base = Base::kUnknown;
  std::string name;
  Space space = Space::kGeneric;
  bool known = false;  // offset (kPtr) or value (kInt) is a constant
  std::int64_t off = 0;
  bool cycle = false;  // a loop-carried definition took part: constants are not constant
};

Val unknown() { Val v; v.kind = Val::Kind::kUnknown; return v; }
Val integer(bool known, std::int64_t x) {
  Val v; v.kind = Val::Kind::kInt; v.known = known; v.off = x; return v;
}

Val merge(const Val& a, const Val& b) {
  if (a.kind == Val::Kind::kNone) { Val r = b; r.cycle |= a.cycle; return r; }
  if (b.kind == Val::Kind::kNone) { Val r = a; r.cycle |= b.cycle; return r; }
  Val r;
  if (a.kind != b.kind || a.kind == Val::Kind::kUnknown ||
      (a.kind == Val::Kind::kPtr && (a.base != b.base || a.name != b.name))) {
    r = unknown();
  } else {
    r = a;
    r.known = a.known && b.known && a.off == b.off;
    if (a.space != b.space) r.space = Space::kGeneric;
  }
  r.cycle = a.cycle || b.cycle;
  return r;
}

Val add(const Val& a, const Val& b, bool subtract) {
  Val r;
  if (a.kind == Val::Kind::kNone || b.kind == Val::Kind::kNone) {
    r = a.kind == Val::Kind::kNone ? b : a;
    r.known = false;
  } else if (a.kind == Val::Kind::kPtr && b.kind == Val::Kind::kInt) {
    r = a;
    r.known = a.known && b.known;
    r.off = subtract ? a.off - b.off : a.off + b.off;
  } else if (!subtract && a.kind == Val::Kind::kInt && b.kind == Val::Kind::kPtr) {
    return add(b, a, false);
  } else if (a.kind == Val::Kind::kInt && b.kind == Val::Kind::kInt) {
    r = integer(a.known && b.known, subtract ? a.off - b.off : a.off + b.off);
  } else {
    r = unknown();
  }
  r.cycle = a.cycle || b.cycle;
  return r;
}

class Evaluator {
 public:
  Evaluator(const Cfg& cfg, const ReachingDefs& rd, const ptx::Module* m)
      : f_(cfg.function()), rd_(rd), m_(m) {}

  // Value of register `reg` as read by instruction `at`.
  Val reg_at(int at, int reg) {
    Val v;
    for (int d : rd_.reaching(at, reg)) v = merge(v, d == kEntryDef ? unknown() : def(d, reg));
    return v;
  }

  Val operand(int at, const Operand& o) {
    switch (o.kind) {
      case Operand::Kind::kReg: return reg_at(at, o.reg);
      case Operand::Kind::kImmInt: return integer(true, o.imm);
      case Operand::Kind::kSymbol: return symbol(o.name, o.offset);
      default: return unknown();
    }
  }

  Val symbol(const std::string& name, std::int64_t off) {
    Val v;
    v.kind = Val::Kind::kPtr;
    v.known = true;
    v.off = off;
    v.name = name;
    if (const ptx::Variable* var = find_var(name)) {
      v.base = Base::kVariable;
      v.space = var->space;
      return v;
    }
    for (const auto& p : f_.params)
      if (p.name == name) { v.base = Base::kParam; v.space = Space::kParam; return v; }
    return unknown();
  }

 private:
  const ptx::Variable* find_var(const std::string& n) const {
    for (const auto& v : f_.locals) if (v.name == n) return &v;
    for (const auto& s : f_.scopes) for (const auto& v : s.vars) if (v.name == n) return &v;
    if (m_) for (const auto& v : m_->globals) if (v.name == n) return &v;
    return nullptr;
  }

  Val def(int d, int reg) {
    const auto key = std::make_pair(d, reg);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    if (!active_.insert(key).second) { Val v; v.cycle = true; return v; }
    Val v = eval(f_.insts[static_cast<size_t>(d)], d);
    active_.erase(key);
    if (v.cycle) v.known = false;
    if (active_.empty() || !v.cycle) memo_[key] = v;
    return v;
  }

  Val eval(const ptx::Instruction& in, int d) {
    const auto& ops = in.operands;
    const ptx::InstAttrs a = in.attrs();
    switch (in.opcode) {
      case Opcode::kLd:
        if (a.space == Space::kParam && ops.size() > 1 && ops[1].kind == Operand::Kind::kAddress &&
            ops[1].reg < 0 && !ops[1].name.empty()) {
          Val v = symbol(ops[1].name, 0);
          if (v.base == Base::kParam) {
            v.space = Space::kGeneric;
            for (const auto& p : f_.params)
              if (p.name == ops[1].name && p.ptr_space != Space::kNone) v.space = p.ptr_space;
            v.off = 0;
            return v;
          }
        }
        return unknown();
      case Opcode::kMov:
      case Opcode::kCvt:
        return ops.size() > 1 ? operand(d, ops[1]) : unknown();
      case Opcode::kCvta: {
        if (ops.size() < 2) return unknown();
        Val v = operand(d, ops[1]);
        if (v.kind == Val::Kind::kPtr && a.space != Space::kNone) v.space = a.space;
        return v;
      }
      case Opcode::kAdd:
      case Opcode::kSub:
        if (ops.size() < 3) return unknown();
        return add(operand(d, ops[1]), operand(d, ops[2]), in.opcode == Opcode::kSub);
      case Opcode::kMad:
        if (ops.size() < 4) return unknown();
        return add(integer(false, 0), operand(d, ops[3]), false);
      case Opcode::kMul:
      case Opcode::kShl:
      case Opcode::kShr:
      case Opcode::kAnd:
      case Opcode::kOr:
      case Opcode::kXor:
      case Opcode::kRem:
      case Opcode::kDiv:
      case Opcode::kMin:
      case Opcode::kMax:
      case Opcode::kBfe:
      case Opcode::kSelp:
        return integer(false, 0);
      default:
        break;
    }
    if (ptx::opcode_unit(in.opcode) == ptx::UnitClass::kInt) return integer(false, 0);
    return unknown();
  }

  const ptx::Function& f_;
  const ReachingDefs& rd_;
  const ptx::Module* m_;
  std::map<std::pair<int, int>, Val> memo_;
  std::set<std::pair<int, int>> active_;
};

}  // namespace

std::string AddressInfo::describe() const {
  std::string b;
  switch (base) {
    case Base::kUnknown: b = "unknown"; break;
    case Base::kParam: b = "param:" + name; break;
    case Base::kVariable: b = "var:" + name; break;
    case Base::kAbsolute: b = "absolute"; break;
  }
  const std::string off = offset_known ? fmt::format("{:+}", offset) : std::string("+?");
  return fmt::format("{} {}{} ({} bytes)", ptx::space_name(space), b, off, bytes);
}

AliasAnalysis AliasAnalysis::compute(const Cfg& cfg, const ReachingDefs& rd,
                                     const ptx::Module* module, bool distinct_params) {
  const ptx::Function& f = cfg.function();
  AliasAnalysis r;
  r.distinct_params_ = distinct_params;
  r.slot_.assign(f.insts.size(), -1);
  Evaluator ev(cfg, rd, module);
  for (size_t i = 0; i < f.insts.size(); ++i) {
    const ptx::Instruction& in = f.insts[i];
    const MemAccess m = memory(in);
    if (!m.is_access() || !cfg.reachable(cfg.node_of_inst(static_cast<int>(i)))) continue;
    r.slot_[i] = static_cast<int>(r.addr_.size());
    AddressInfo& ai = r.addr_.emplace_back();
    ai.space = m.space;
    ai.bytes = m.bytes;
    if (m.addr < 0) continue;
    const Operand& op = in.operands[static_cast<size_t>(m.addr)];
    Val v;
    if (op.reg >= 0) {
      v = add(ev.reg_at(static_cast<int>(i), op.reg), integer(true, op.offset), false);
    } else if (!op.name.empty()) {
      v = ev.symbol(op.name, op.offset);
    } else {
      v.kind = Val::Kind::kPtr; v.base = Base::kAbsolute; v.known = true; v.off = op.offset;
    }
    if (v.kind != Val::Kind::kPtr) continue;
    ai.base = v.base;
    ai.name = v.name;
    ai.offset_known = v.known && !v.cycle;
    ai.offset = v.off;
    if (ai.space == ptx::Space::kGeneric && v.space != Space::kParam) ai.space = v.space;
  }
  return r;
}

bool AliasAnalysis::may_alias(const AddressInfo& a, const AddressInfo& b, bool distinct_params) {
  auto norm = [](Space s) { return s == Space::kNone ? Space::kGeneric : s; };
  const Space sa = norm(a.space), sb = norm(b.space);
  if (sa != Space::kGeneric && sb != Space::kGeneric && sa != sb) return false;  // rule 4a
  if (a.base == Base::kUnknown || b.base == Base::kUnknown) return true;
  if (a.base == Base::kVariable && b.base == Base::kVariable && a.name != b.name)
    return false;  // rule 4b
  if (distinct_params && (a.base == Base::kParam || b.base == Base::kParam) &&
      (a.base != b.base || a.name != b.name) && a.base != Base::kAbsolute &&
      b.base != Base::kAbsolute)
    return false;  // rule 4d
  if (a.base == b.base && a.name == b.name && a.offset_known && b.offset_known) {  // rule 4c
    const std::int64_t ea = a.offset + std::max<unsigned>(a.bytes, 1);
    const std::int64_t eb = b.offset + std::max<unsigned>(b.bytes, 1);
    return a.offset < eb && b.offset < ea;
  }
  return true;
}

bool AliasAnalysis::may_alias(int inst_a, int inst_b) const {
  return may_alias(address(inst_a), address(inst_b), distinct_params_);
}

}  // namespace simtsync::analysis
