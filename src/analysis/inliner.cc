#include "analysis/inliner.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

namespace simtsync::analysis {
namespace {

using ptx::Instruction;
using ptx::Mod;
using ptx::Opcode;
using ptx::Operand;

using Slots = std::map<std::string, std::map<std::int64_t, Operand>>;
using RetRegs = std::map<std::string, std::map<std::int64_t, int>>;

// A ptxas builtin that nvcc -G calls instead of emitting the instruction.
struct Builtin {
  Opcode opcode = Opcode::kNop;
  Mod op = Mod::kAddOp;
  ptx::DType type = ptx::DType::kNone;
  Mod level = Mod::kGl;
  int args = 0;  // operands after the address
};

std::optional<Builtin> builtin(const std::string& name) {
  if (name == "__threadfence") return Builtin{Opcode::kMembar, Mod::kAddOp, {}, Mod::kGl, 0};
  if (name == "__threadfence_block") return Builtin{Opcode::kMembar, Mod::kAddOp, {}, Mod::kCta, 0};
  if (name == "__threadfence_system")
    return Builtin{Opcode::kMembar, Mod::kAddOp, {}, Mod::kSys, 0};
  static const std::pair<const char*, ptx::DType> kTypes[] = {
      {"__ullAtomic", ptx::DType::kU64}, {"__llAtomic", ptx::DType::kS64},
      {"__iAtomic", ptx::DType::kS32},   {"__uAtomic", ptx::DType::kU32},
      {"__fAtomic", ptx::DType::kF32},   {"__dAtomic", ptx::DType::kF64}};
  static const std::pair<const char*, Mod> kOps[] = {
      {"CAS", Mod::kCasOp}, {"Exch", Mod::kExchOp}, {"Add", Mod::kAddOp}, {"Min", Mod::kMinOp},
      {"Max", Mod::kMaxOp}, {"Inc", Mod::kIncOp},   {"Dec", Mod::kDecOp}, {"And", Mod::kAndOp},
      {"Or", Mod::kOrOp},   {"Xor", Mod::kXorOp}};
  for (const auto& [prefix, type] : kTypes) {
    const std::string p = prefix;
    if (name.rfind(p, 0) != 0) continue;
    const std::string rest = name.substr(p.size());
    for (const auto& [op, mod] : kOps) {
      const std::string o = op;
      // `__iAtomicAdd`, `__iAtomicAdd_block`, `__iAtomicAdd_system`.
      if (rest == o || rest.rfind(o + "_", 0) == 0) {
        const bool cas = mod == Mod::kCasOp;
        ptx::DType t = type;
        if (mod == Mod::kCasOp || mod == Mod::kExchOp || mod == Mod::kAndOp || mod == Mod::kOrOp ||
            mod == Mod::kXorOp)
          t = ptx::dtype_bytes(type) == 8 ? ptx::DType::kB64 : ptx::DType::kB32;
        return Builtin{Opcode::kAtom, mod, t, Mod::kGl, cas ? 2 : 1};
      }
    }
  }
  return std::nullopt;
}

struct CallParts {
  const Operand* rets = nullptr;
  const Operand* callee = nullptr;
  const Operand* args = nullptr;
};

CallParts call_parts(const Instruction& in) {
  CallParts c;
  for (const auto& op : in.operands) {
    if (op.kind == Operand::Kind::kSymbol && c.callee == nullptr) {
      c.callee = &op;
    } else if (op.kind == Operand::Kind::kList) {
      (c.callee ? c.args : c.rets) = &op;
    }
  }
  return c;
}

// The symbol an ld/st.param addresses, or nullptr.
const Operand* param_slot(const Instruction& in) {
  if (in.opcode != Opcode::kLd && in.opcode != Opcode::kSt) return nullptr;
  if (in.attrs().space != ptx::Space::kParam) return nullptr;
  const size_t a = in.opcode == Opcode::kLd ? 1 : 0;
  if (in.operands.size() <= a) return nullptr;
  const Operand& o = in.operands[a];
  if (o.kind != Operand::Kind::kAddress || o.reg >= 0 || o.name.empty()) return nullptr;
  return &o;
}

bool is_named(const ptx::Function& g, const std::string& n, bool rets) {
  const auto& vs = rets ? g.rets : g.params;
  return std::any_of(vs.begin(), vs.end(), [&](const ptx::Variable& v) { return v.name == n; });
}

bool mentions(const Operand& o, const std::string& n) {
  if ((o.kind == Operand::Kind::kSymbol || o.kind == Operand::Kind::kAddress) && o.name == n)
    return true;
  return std::any_of(o.elems.begin(), o.elems.end(),
                     [&](const Operand& e) { return mentions(e, n); });
}

// Every use of the callee's parameters and return variables is a scalar ld/st.param of them.
bool params_followable(const ptx::Function& g) {
  for (const Instruction& in : g.insts) {
    const Operand* slot = param_slot(in);
    const bool scalar = in.attrs().vec <= 1;
    for (const auto& v : g.params)
      for (const auto& op : in.operands)
        if (mentions(op, v.name) &&
            !(slot && slot->name == v.name && in.opcode == Opcode::kLd && scalar))
          return false;
    for (const auto& v : g.rets)
      for (const auto& op : in.operands)
        if (mentions(op, v.name) &&
            !(slot && slot->name == v.name && in.opcode == Opcode::kSt && scalar))
          return false;
  }
  return true;
}

Instruction make(Opcode op, std::vector<Mod> mods, std::vector<Operand> ops, const ptx::SrcLoc& loc,
                 int ptx_line) {
  Instruction in;
  in.opcode = op;
  in.mods = std::move(mods);
  in.operands = std::move(ops);
  in.loc = loc;
  in.ptx_line = ptx_line;
  return in;
}

Operand reg_op(int r) {
  Operand o;
  o.kind = Operand::Kind::kReg;
  o.reg = r;
  return o;
}

class Inliner {
 public:
  Inliner(const ptx::Module& m, const InlineOptions& o, InlineResult& r) : m_(m), o_(o), r_(r) {}

  struct Frame {
    const ptx::Function* f = nullptr;
    int id = 0;                   // 0: the function itself
    std::vector<int> regs;        // callee register -> output register, -1 until used
    const Slots* args = nullptr;  // callee parameter -> offset -> value (id > 0)
    RetRegs* rets = nullptr;      // callee return variable -> offset -> register (id > 0)
    std::string ret_label;
    Slots pending;      // st.param to call-sequence parameters, by name
    RetRegs call_rets;  // return variables of calls replaced here
  };

  void run(const ptx::Function& f) {
    r_.function = f;
    r_.function.insts.clear();
    r_.function.labels.clear();
    Frame top;
    top.f = &f;
    top.regs.resize(f.regs.size());
    for (size_t i = 0; i < f.regs.size(); ++i) top.regs[i] = static_cast<int>(i);
    stack_.push_back(f.name);
    emit_body(top);
    r_.function.finalize(f.base_pc);
  }

 private:
  ptx::Function& out() { return r_.function; }

  int map_reg(Frame& fr, int reg) {
    if (reg < 0) return reg;
    int& slot = fr.regs[static_cast<size_t>(reg)];
    if (slot < 0)
      slot = fresh(fr.f->regs[static_cast<size_t>(reg)].name + fmt::format("$i{}", fr.id),
                   fr.f->regs[static_cast<size_t>(reg)].type);
    return slot;
  }
  int fresh(const std::string& name, ptx::DType t) {
    if (out().regs.empty()) out().regs.push_back(ptx::Register{"%inline_unused", ptx::DType::kB32});
    out().regs.push_back(ptx::Register{name, t});
    return static_cast<int>(out().regs.size()) - 1;
  }
  std::string rename(const Frame& fr, const std::string& n) const {
    return fr.id == 0 ? n : n + fmt::format("$i{}", fr.id);
  }

  void map_operand(Frame& fr, Operand& o) {
    o.reg = map_reg(fr, o.reg);
    if (o.kind == Operand::Kind::kReg) o.reg2 = map_reg(fr, o.reg2);
    if (o.kind == Operand::Kind::kLabel) o.name = rename(fr, o.name);
    if (fr.id > 0 && (o.kind == Operand::Kind::kSymbol || o.kind == Operand::Kind::kAddress))
      for (const auto& v : fr.f->locals)
        if (v.name == o.name) o.name = rename(fr, o.name);
    for (auto& e : o.elems) map_operand(fr, e);
  }

  Instruction mapped(Frame& fr, const Instruction& in) {
    Instruction c = in;
    c.guard.reg = map_reg(fr, c.guard.reg);
    for (auto& o : c.operands) map_operand(fr, o);
    return c;
  }

  void push(Instruction in) { out().insts.push_back(std::move(in)); }
  void label(const std::string& n) {
    out().labels.push_back(ptx::Label{n, static_cast<int>(out().insts.size())});
  }
  void leave_call(const Instruction& in, const std::string& callee, const std::string& why) {
    r_.not_analysed.push_back(fmt::format("{} ({}) at {}:{}", callee, why, m_.path, in.ptx_line));
  }

  // Mods of a `mov` with the type of `in` (an ld/st.param).
  static std::vector<Mod> mov_mods(const Instruction& in) {
    std::vector<Mod> mods;
    for (Mod md : in.mods)
      if (ptx::mod_category(md) == ptx::ModCategory::kType) mods.push_back(md);
    return mods;
  }

  void emit_body(Frame& fr) {
    const ptx::Function& g = *fr.f;
    if (fr.id > 0)
      for (const auto& v : g.locals) {
        ptx::Variable c = v;
        c.name = rename(fr, v.name);
        out().locals.push_back(c);
      }
    size_t next_label = 0;
    for (size_t i = 0; i <= g.insts.size(); ++i) {
      while (next_label < g.labels.size() && g.labels[next_label].index == static_cast<int>(i))
        label(rename(fr, g.labels[next_label++].name));
      if (i == g.insts.size()) break;
      emit_inst(fr, g.insts[i]);
    }
  }

  void emit_inst(Frame& fr, const Instruction& in) {
    const ptx::Function& g = *fr.f;
    const Operand* slot = param_slot(in);
    if (slot != nullptr && in.attrs().vec <= 1) {
      const std::vector<Mod> mods = mov_mods(in);
      if (in.opcode == Opcode::kLd && fr.id > 0 && is_named(g, slot->name, false)) {
        auto a = fr.args->find(slot->name);
        if (a != fr.args->end()) {
          auto v = a->second.find(slot->offset);
          if (v != a->second.end()) {
            Instruction mv =
                make(Opcode::kMov, mods, {in.operands[0], v->second}, in.loc, in.ptx_line);
            mv.guard = in.guard;
            mv.operands[0].reg = map_reg(fr, mv.operands[0].reg);
            mv.guard.reg = map_reg(fr, mv.guard.reg);
            push(std::move(mv));
            return;
          }
        }
      }
      if (in.opcode == Opcode::kSt && fr.id > 0 && is_named(g, slot->name, true)) {
        int& reg = (*fr.rets)[slot->name][slot->offset];
        if (reg <= 0) reg = fresh(fmt::format("%ret$i{}_{}", fr.id, slot->offset), in.attrs().type);
        Instruction c = mapped(fr, in);
        Instruction mv =
            make(Opcode::kMov, mods, {reg_op(reg), c.operands[1]}, in.loc, in.ptx_line);
        mv.guard = c.guard;
        push(std::move(mv));
        return;
      }
      if (in.opcode == Opcode::kSt && !is_named(g, slot->name, false) &&
          !is_named(g, slot->name, true)) {
        Instruction c = mapped(fr, in);
        fr.pending[slot->name][slot->offset] = c.operands[1];
        push(std::move(c));
        return;
      }
      if (in.opcode == Opcode::kLd) {
        auto rv = fr.call_rets.find(slot->name);
        if (rv != fr.call_rets.end()) {
          auto reg = rv->second.find(slot->offset);
          if (reg != rv->second.end() && reg->second > 0) {
            Instruction c = mapped(fr, in);
            Instruction mv =
                make(Opcode::kMov, mods, {c.operands[0], reg_op(reg->second)}, in.loc, in.ptx_line);
            mv.guard = c.guard;
            push(std::move(mv));
            return;
          }
        }
      }
    } else if (slot != nullptr && in.opcode == Opcode::kSt) {
      fr.pending[slot->name].clear();
      fr.pending[slot->name][-1] = Operand{};  // an aggregate: not followable
    }
    if (in.opcode == Opcode::kRet && fr.id > 0) {
      Instruction b = make(Opcode::kBra, {}, {}, in.loc, in.ptx_line);
      Operand l;
      l.kind = Operand::Kind::kLabel;
      l.name = fr.ret_label;
      b.operands.push_back(l);
      b.guard = in.guard;
      b.guard.reg = map_reg(fr, b.guard.reg);
      push(std::move(b));
      return;
    }
    if (in.opcode == Opcode::kCall) {
      // Each call sequence declares its own parameters (nvcc reuses the names param0...).
      if (!emit_call(fr, in)) push(mapped(fr, in));
      fr.pending.clear();
      return;
    }
    push(mapped(fr, in));
  }

  // Replaces the call by a builtin or the callee's body; false when it stays a call.
  bool emit_call(Frame& fr, const Instruction& in) {
    const CallParts c = call_parts(in);
    if (c.callee == nullptr) {
      leave_call(in, "(indirect)", "indirect call");
      return false;
    }
    const std::string& name = c.callee->name;
    if (in.guard.reg >= 0) {
      leave_call(in, name, "guarded call");
      return false;
    }
    // Argument values in declaration order; nullopt when one cannot be followed.
    std::vector<std::map<std::int64_t, Operand>> args;
    bool aggregate = false;
    if (c.args)
      for (const Operand& a : c.args->elems) {
        auto it = fr.pending.find(a.name);
        if (it == fr.pending.end() || it->second.count(-1)) {
          aggregate = true;
          args.emplace_back();
          continue;
        }
        args.push_back(it->second);
      }
    const ptx::Function* g = m_.find_function(name);
    if (auto b = builtin(name)) return emit_builtin(fr, in, c, *b, args, aggregate);
    if (g == nullptr || g->is_declaration) {
      leave_call(in, name, "no body in this module");
      return false;
    }
    if (std::any_of(g->insts.begin(), g->insts.end(), [](const Instruction& x) {
          return x.opcode == Opcode::kTrap && x.guard.reg < 0;
        })) {
      // simtsync_ldslk/stsul (the simulator's lock-bit intrinsics) have `trap` bodies.
      leave_call(in, name, "its body traps: an intrinsic the simulator implements");
      return false;
    }
    if (std::find(stack_.begin(), stack_.end(), name) != stack_.end()) {
      leave_call(in, name, "recursive call");
      return false;
    }
    if (static_cast<int>(stack_.size()) > o_.max_depth) {
      leave_call(in, name, fmt::format("deeper than {} calls", o_.max_depth));
      return false;
    }
    if (static_cast<int>(out().insts.size() + g->insts.size()) > o_.max_insts) {
      leave_call(in, name, fmt::format("inlined body would exceed {} instructions", o_.max_insts));
      return false;
    }
    if (aggregate || !params_followable(*g) ||
        (c.args && c.args->elems.size() != g->params.size())) {
      leave_call(in, name, "arguments the inliner cannot follow");
      return false;
    }
    Frame callee;
    callee.f = g;
    callee.id = ++instances_;
    callee.regs.assign(g->regs.size(), -1);
    Slots by_param;
    for (size_t k = 0; k < args.size(); ++k) by_param[g->params[k].name] = args[k];
    callee.args = &by_param;
    RetRegs rets;
    callee.rets = &rets;
    callee.ret_label = fmt::format("$L__inline_ret{}", callee.id);
    stack_.push_back(name);
    emit_body(callee);
    stack_.pop_back();
    label(callee.ret_label);
    // The caller's return variables (by position) are the callee's.
    if (c.rets)
      for (size_t k = 0; k < c.rets->elems.size() && k < g->rets.size(); ++k)
        fr.call_rets[c.rets->elems[k].name] = rets[g->rets[k].name];
    ++r_.inlined_calls;
    return true;
  }

  bool emit_builtin(Frame& fr, const Instruction& in, const CallParts& c, const Builtin& b,
                    const std::vector<std::map<std::int64_t, Operand>>& args, bool aggregate) {
    if (b.opcode == Opcode::kMembar) {
      push(make(Opcode::kMembar, {b.level}, {}, in.loc, in.ptx_line));
      ++r_.inlined_calls;
      return true;
    }
    auto value = [&](size_t k) -> const Operand* {
      if (k >= args.size()) return nullptr;
      auto it = args[k].find(0);
      return it == args[k].end() ? nullptr : &it->second;
    };
    const Operand* ptr = value(0);
    if (aggregate || ptr == nullptr || ptr->kind != Operand::Kind::kReg ||
        args.size() != static_cast<size_t>(b.args) + 1 || !c.rets || c.rets->elems.size() != 1) {
      leave_call(in, c.callee->name, "builtin with unexpected arguments");
      return false;
    }
    const int dst = fresh(fmt::format("%atom$i{}", ++instances_), b.type);
    Operand addr;
    addr.kind = Operand::Kind::kAddress;
    addr.reg = ptr->reg;
    std::vector<Operand> ops{reg_op(dst), addr};
    for (int k = 1; k <= b.args; ++k) {
      const Operand* v = value(static_cast<size_t>(k));
      if (v == nullptr) {
        leave_call(in, c.callee->name, "builtin with unexpected arguments");
        return false;
      }
      ops.push_back(*v);
    }
    const auto type = ptx::mod_of_dtype(b.type);
    std::vector<Mod> mods{b.op};
    if (type) mods.push_back(*type);
    push(make(Opcode::kAtom, mods, ops, in.loc, in.ptx_line));
    fr.call_rets[c.rets->elems[0].name][0] = dst;
    ++r_.inlined_calls;
    return true;
  }

  const ptx::Module& m_;
  const InlineOptions& o_;
  InlineResult& r_;
  std::vector<std::string> stack_;
  int instances_ = 0;
};

}  // namespace

bool makes_calls(const ptx::Function& f) {
  return std::any_of(f.insts.begin(), f.insts.end(),
                     [](const Instruction& in) { return in.opcode == Opcode::kCall; });
}

InlineResult inline_calls(const ptx::Module& m, const ptx::Function& f, const InlineOptions& o) {
  InlineResult r;
  if (!makes_calls(f)) {
    r.function = f;
    return r;
  }
  Inliner(m, o, r).run(f);
  return r;
}

}  // namespace simtsync::analysis
