#include "func/program.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "analysis/reconvergence.h"
#include "common/error.h"
#include "func/global_memory.h"
#include "ptx/operand_check.h"

namespace simtsync::func {

namespace {

// The intrinsics of workloads/include/simtsync.cuh the decoder turns into machine instructions.
// Each is a call to a function with a `trap` body; its call sequence becomes one operation
// (Program::fuse_intrinsic_calls). A new one is a row here and its semantics where lock_op is
// performed (exec_memory.cc). The first argument is the address; a second is the value stored.
struct Intrinsic {
  const char* name;
  IntrinsicOp lock_op;
  ptx::Opcode op;  // the memory instruction it is timed as
  unsigned args;
  bool returns;  // returns one 64-bit value (the packed result)
  const char* signature;
};
constexpr Intrinsic kIntrinsics[] = {
    {"simtsync_ldslk", IntrinsicOp::kLoadLock, ptx::Opcode::kLd, 1, true, "(pointer)"},
    {"simtsync_stsul", IntrinsicOp::kStoreUnlock, ptx::Opcode::kSt, 2, false, "(pointer, value)"},
    {"simtsync_lock", IntrinsicOp::kLock, ptx::Opcode::kAtom, 1, false, "(pointer)"},
    {"simtsync_unlock", IntrinsicOp::kUnlock, ptx::Opcode::kAtom, 1, false, "(pointer)"},
    {"simtsync_try_lock", IntrinsicOp::kTryLock, ptx::Opcode::kAtom, 2, true,
     "(pointer, attempts)"},
};

const Intrinsic* intrinsic(const std::string& name) {
  for (const Intrinsic& x : kIntrinsics)
    if (name == x.name) return &x;
  return nullptr;
}

using ptx::Operand;

std::uint64_t align_up(std::uint64_t v, std::uint64_t a) {
  return a ? (v + a - 1) / a * a : v;
}

unsigned var_align(const ptx::Variable& v) {
  return v.align ? v.align : std::max(1u, ptx::dtype_bytes(v.type) * v.vec);
}

// Where a symbol lives, as seen from one instruction.
struct SymbolRef {
  enum class Kind { kNone, kFrame, kGlobal, kShared, kFunction } kind = Kind::kNone;
  std::uint64_t value = 0;  // frame offset, global address, shared offset, function index
};

}  // namespace

Program::Program(const ptx::Module& module, GlobalMemory& mem, DecodeOptions o)
    : module_(module), opts_(std::move(o)) {
  if (!opts_.cache) opts_.cache = std::make_shared<AnalysisCache>();
  // Module variables: .global and .const live in global memory (const-space addresses are
  // global addresses); .shared get offsets in every CTA's shared memory.
  Addr next = mem.module_cursor();
  for (const auto& v : module_.globals) {
    if (v.space == ptx::Space::kShared) continue;
    if (v.linkage == "extern" && v.space != ptx::Space::kShared) continue;
    next = align_up(next, std::max(8u, var_align(v)));
    std::uint64_t size = std::max<std::uint64_t>(v.size_bytes(), 1);
    mem.map(next, size, fmt::format("{} variable '{}'", ptx::space_name(v.space), v.name));
    // Initializer: flattened elements of the variable's type.
    unsigned es = ptx::dtype_bytes(v.type);
    Addr a = next;
    for (const auto& iv : v.init) {
      std::uint64_t bits = 0;
      switch (iv.kind) {
        case ptx::InitValue::Kind::kInt:
          bits = static_cast<std::uint64_t>(iv.i);
          break;
        case ptx::InitValue::Kind::kF32:
        case ptx::InitValue::Kind::kF64:
          bits = iv.fbits;
          break;
        case ptx::InitValue::Kind::kSymbol:
        case ptx::InitValue::Kind::kGenericSymbol: {
          auto it = global_addr_.find(iv.symbol);
          bits = (it == global_addr_.end() ? 0 : it->second) + static_cast<std::uint64_t>(iv.i);
          break;
        }
      }
      if (a + es <= next + size) mem.write(a, &bits, es);
      a += es;
    }
    global_addr_[v.name] = next;
    next += size;
  }
  layout_shared();

  // Register slots and PCs per function.
  for (const auto& f : module_.functions) {
    if (f.is_declaration) continue;
    DecodedFunction df;
    df.ir = &f;
    df.name = f.name;
    df.is_entry = f.is_entry;
    df.base_pc = f.base_pc;
    df.reg_base = total_regs_;
    df.nregs = static_cast<std::uint32_t>(f.regs.size());
    total_regs_ += df.nregs;
    functions_.push_back(std::move(df));
  }
  next = align_up(next, 256);
  for (auto& df : functions_) {
    if (!df.is_entry) continue;
    std::uint64_t off = 0;
    for (const auto& p : df.ir->params) {
      off = align_up(off, var_align(p));
      df.param_offsets.push_back(off);
      df.param_sizes.push_back(static_cast<std::uint32_t>(p.size_bytes()));
      off += p.size_bytes();
    }
    df.param_buffer_size = std::max<std::uint64_t>(off, 8);
    df.param_buffer = next;
    mem.map(next, df.param_buffer_size, fmt::format("parameters of kernel '{}'", df.name));
    next = align_up(next + df.param_buffer_size, 256);
  }
  mem.module_cursor() = align_up(next, 4096);
  marks_.resize(functions_.size());
  for (auto& df : functions_) decode_function(df, mem);
  // Kernels share one static shared layout (module .shared variables and function-scope ones).
  for (auto& df : functions_) df.static_shared = static_shared_total_;
}

void Program::layout_shared() {
  std::uint32_t off = 0;
  for (const auto& v : module_.globals) {
    if (v.space != ptx::Space::kShared) continue;
    off = static_cast<std::uint32_t>(align_up(off, var_align(v)));
    shared_off_[v.name] = off;
    off += static_cast<std::uint32_t>(v.size_bytes());  // extern [] arrays have size 0
  }
  // Dynamic shared memory (extern .shared arrays) starts after the static part.
  std::uint32_t dyn = static_cast<std::uint32_t>(align_up(off, 16));
  for (const auto& v : module_.globals)
    if (v.space == ptx::Space::kShared && v.size_bytes() == 0) shared_off_[v.name] = dyn;
  static_shared_total_ = dyn;
}

std::uint32_t Program::shared_offset(const std::string& var) const {
  auto it = shared_off_.find(var);
  return it == shared_off_.end() ? 0 : it->second;
}

const DecodedFunction* Program::kernel(const std::string& name) const {
  for (const auto& f : functions_)
    if (f.is_entry && f.name == name) return &f;
  return nullptr;
}

const DecodedFunction& Program::function_at(Pc pc) const {
  const DecodedFunction* best = &functions_.front();
  for (const auto& f : functions_)
    if (f.base_pc <= pc) best = &f;
  return *best;
}

const ExecInst* Program::at(Pc pc, const DecodedFunction** fn) const {
  const DecodedFunction& f = function_at(pc);
  if (fn) *fn = &f;
  std::uint64_t i = (pc - f.base_pc) / kInstSize;
  if (pc < f.base_pc || i >= f.code.size()) return nullptr;
  return &f.code[i];
}

std::string Program::source_of(const ExecInst& in) const {
  // Code inlined from a header (atomicCAS, ...) is named by the user's line that called it.
  const ptx::SrcLoc* loc = in.ir ? &in.ir->loc : nullptr;
  const int file = loc && loc->inlined_line > 0 ? loc->inlined_file : loc ? loc->file : 0;
  const int line = loc && loc->inlined_line > 0 ? loc->inlined_line : loc ? loc->line : 0;
  if (line > 0) {
    if (const auto* sf = module_.find_file(file)) {
      std::string p = sf->path;
      auto slash = p.find_last_of('/');
      if (slash != std::string::npos) p = p.substr(slash + 1);
      return fmt::format("{}:{}", p, line);
    }
    return fmt::format("line {}", line);
  }
  return fmt::format("{}:{}", module_.path, in.ir ? in.ir->ptx_line : 0);
}

namespace {

// One instruction being decoded: its IR, its ExecInst and its index in the function.
struct Site {
  const ptx::Instruction& in;
  ExecInst& e;
  int index;
};

// Decodes one function (Program::decode_function): lays out its frame, then turns each PTX
// instruction into an ExecInst, resolving the symbols its operands name.
class FunctionDecoder {
 public:
  FunctionDecoder(const ptx::Module& module, DecodedFunction& df,
                  const std::vector<DecodedFunction>& functions,
                  const std::map<std::string, Addr>& global_addr,
                  const std::map<std::string, std::uint32_t>& shared_off)
      : module_(module),
        f_(*df.ir),
        df_(df),
        functions_(functions),
        global_addr_(global_addr),
        shared_off_(shared_off),
        scoped_(f_.scopes.size()) {}

  // Places params, return values and body variables in the frame (function-scope .shared
  // variables in the static shared layout, whose running size is `static_shared_total`).
  void layout_frame(std::uint32_t& static_shared_total);
  // Fills df.code, one ExecInst per PTX instruction.
  void decode_code(const analysis::ReconvergenceTable& reconv);

 private:
  // The error for a construct the functional model does not execute, at `in`'s line.
  Error fail(const ptx::Instruction& in, const std::string& what) const {
    return unsupported_error(
        fmt::format("{}:{}: error: {} in function '{}'", module_.path, in.ptx_line, what, f_.name));
  }
  // The frame offset of the next variable `v` (aligned), growing the frame past it.
  std::uint64_t place(const ptx::Variable& v) {
    frame_ = align_up(frame_, var_align(v));
    std::uint64_t o = frame_;
    frame_ += std::max<std::uint64_t>(v.size_bytes(), 1);
    return o;
  }
  // Where symbol `name` lives as seen from instruction `index` (innermost scope first).
  SymbolRef resolve(const std::string& name, int index) const;
  // A source operand: register, immediate, special register or symbol address.
  Src src_of(const Site& s, const Operand& op);
  // A destination operand's register slot (kNoReg for the sink `_`).
  std::uint32_t dst_of(const Site& s, const Operand& op) const;
  // An address operand [reg+offset], [symbol+offset] or [absolute].
  MemRef mem_of(const Site& s, const Operand& op);
  // Appends a source operand to s.e.
  void add_src(const Site& s, const Operand& op) {
    if (s.e.nsrc >= std::size(s.e.src)) throw fail(s.in, "too many source operands");
    s.e.src[s.e.nsrc++] = src_of(s, op);
  }
  // Appends a destination register to s.e.
  void add_dst(const Site& s, std::uint32_t reg) const {
    if (s.e.ndst >= std::size(s.e.dst)) throw fail(s.in, "too many destination operands");
    s.e.dst[s.e.ndst++] = reg;
  }
  // One instruction: the fields every instruction has, then its operands by opcode.
  void decode_inst(size_t i);
  // bra: its target and reconvergence PCs.
  void decode_branch(const Site& s);
  // call: an intrinsic, a host call (vprintf, __assertfail) or a call of a function here.
  void decode_call(const Site& s);
  // ld/ldu, st, atom/red: their registers and address.
  void decode_load(const Site& s);
  void decode_store(const Site& s);
  void decode_atomic(const Site& s);
  // Every other instruction: destinations first, then sources.
  void decode_generic(const Site& s);

  const ptx::Module& module_;
  const ptx::Function& f_;
  DecodedFunction& df_;
  const std::vector<DecodedFunction>& functions_;
  const std::map<std::string, Addr>& global_addr_;          // module .global/.const variables
  const std::map<std::string, std::uint32_t>& shared_off_;  // module .shared variables
  const analysis::ReconvergenceTable* reconv_ = nullptr;    // set by decode_code

  // Frame layout: params and return values of a .func, then every .local/.param variable
  // declared in the body (top level and inside scopes). Scoped names may repeat, so scoped
  // variables are keyed by (scope index, name).
  std::uint64_t frame_ = 0;
  std::map<std::string, std::uint64_t> top_;
  std::vector<std::map<std::string, std::uint64_t>> scoped_;
  std::map<std::string, std::uint32_t> local_shared_;  // function-scope .shared variables
  std::set<std::string> shared_used_;
};

void FunctionDecoder::layout_frame(std::uint32_t& static_shared_total) {
  if (!f_.is_entry) {
    for (const auto& p : f_.params) {
      std::uint64_t o = place(p);
      top_[p.name] = o;
      df_.param_offsets.push_back(o);
      df_.param_sizes.push_back(static_cast<std::uint32_t>(p.size_bytes()));
    }
    for (const auto& r : f_.rets) {
      std::uint64_t o = place(r);
      top_[r.name] = o;
      df_.ret_offsets.push_back(o);
      df_.ret_sizes.push_back(static_cast<std::uint32_t>(r.size_bytes()));
    }
  }
  for (const auto& v : f_.locals) {
    if (v.space == ptx::Space::kShared) {
      // Function-scope .shared behaves like a module .shared variable.
      local_shared_[v.name] = static_shared_total;
      static_shared_total += static_cast<std::uint32_t>(align_up(v.size_bytes(), 16));
      continue;
    }
    top_[v.name] = place(v);
  }
  for (size_t s = 0; s < f_.scopes.size(); ++s)
    for (const auto& v : f_.scopes[s].vars) scoped_[s][v.name] = place(v);
  df_.frame_size = static_cast<std::uint32_t>(align_up(frame_, 16));
}

SymbolRef FunctionDecoder::resolve(const std::string& name, int index) const {
  int best = -1;
  for (size_t s = 0; s < f_.scopes.size(); ++s) {
    const auto& sc = f_.scopes[s];
    if (index >= sc.begin && index < sc.end && scoped_[s].count(name) &&
        (best < 0 || sc.depth >= f_.scopes[best].depth))
      best = static_cast<int>(s);
  }
  if (best >= 0) return {SymbolRef::Kind::kFrame, scoped_[best].at(name)};
  if (auto it = top_.find(name); it != top_.end()) return {SymbolRef::Kind::kFrame, it->second};
  if (f_.is_entry) {
    for (size_t i = 0; i < f_.params.size(); ++i)
      if (f_.params[i].name == name)
        return {SymbolRef::Kind::kGlobal, df_.param_buffer + df_.param_offsets[i]};
  }
  if (auto it = local_shared_.find(name); it != local_shared_.end())
    return {SymbolRef::Kind::kShared, it->second};
  if (auto it = global_addr_.find(name); it != global_addr_.end())
    return {SymbolRef::Kind::kGlobal, it->second};
  if (auto it = shared_off_.find(name); it != shared_off_.end())
    return {SymbolRef::Kind::kShared, it->second};
  for (size_t i = 0; i < functions_.size(); ++i)
    if (functions_[i].name == name) return {SymbolRef::Kind::kFunction, i};
  return {};
}

Src FunctionDecoder::src_of(const Site& site, const Operand& op) {
  Src s;
  s.negate = op.negate;
  switch (op.kind) {
    case Operand::Kind::kReg:
      s.kind = Src::Kind::kReg;
      s.reg = df_.reg_base + static_cast<std::uint32_t>(op.reg);
      break;
    case Operand::Kind::kImmInt:
      s.kind = Src::Kind::kImm;
      s.imm = static_cast<std::uint64_t>(op.imm);
      break;
    case Operand::Kind::kImmF32:
    case Operand::Kind::kImmF64:
      s.kind = Src::Kind::kImm;
      s.imm = op.fbits;
      break;
    case Operand::Kind::kSpecial:
      s.kind = Src::Kind::kSpecial;
      s.sreg = op.sreg;
      s.component = static_cast<std::int8_t>(op.component);
      break;
    case Operand::Kind::kSymbol: {
      SymbolRef r = resolve(op.name, site.index);
      switch (r.kind) {
        case SymbolRef::Kind::kFrame:
          s.kind = Src::Kind::kFrameAddr;
          s.imm = r.value + static_cast<std::uint64_t>(op.offset);
          break;
        case SymbolRef::Kind::kGlobal:
        case SymbolRef::Kind::kShared:
          if (r.kind == SymbolRef::Kind::kShared) shared_used_.insert(op.name);
          s.kind = Src::Kind::kImm;
          s.imm = r.value + static_cast<std::uint64_t>(op.offset);
          break;
        default:
          throw fail(site.in, fmt::format("unknown symbol '{}'", op.name));
      }
      break;
    }
    default:
      throw fail(site.in, "unsupported operand");
  }
  return s;
}

std::uint32_t FunctionDecoder::dst_of(const Site& s, const Operand& op) const {
  if (op.kind == Operand::Kind::kSink) return kNoReg;
  if (op.kind != Operand::Kind::kReg) throw fail(s.in, "destination is not a register");
  return df_.reg_base + static_cast<std::uint32_t>(op.reg);
}

MemRef FunctionDecoder::mem_of(const Site& s, const Operand& op) {
  MemRef m;
  m.offset = op.offset;
  if (op.reg >= 0) {
    m.base = MemRef::Base::kReg;
    m.reg = df_.reg_base + static_cast<std::uint32_t>(op.reg);
    m.reg32 = ptx::dtype_bytes(f_.regs[static_cast<size_t>(op.reg)].type) <= 4;
  } else if (!op.name.empty()) {
    SymbolRef r = resolve(op.name, s.index);
    switch (r.kind) {
      case SymbolRef::Kind::kFrame:
        m.base = MemRef::Base::kFrame;
        m.offset += static_cast<std::int64_t>(r.value);
        break;
      case SymbolRef::Kind::kGlobal:
      case SymbolRef::Kind::kShared:
        if (r.kind == SymbolRef::Kind::kShared) shared_used_.insert(op.name);
        m.base = MemRef::Base::kAbsolute;
        m.offset += static_cast<std::int64_t>(r.value);
        break;
      default:
        throw fail(s.in, fmt::format("unknown symbol '{}' in address", op.name));
    }
  } else {
    m.base = MemRef::Base::kAbsolute;
  }
  return m;
}

void FunctionDecoder::decode_code(const analysis::ReconvergenceTable& reconv) {
  reconv_ = &reconv;
  df_.code.resize(f_.insts.size());
  for (size_t i = 0; i < f_.insts.size(); ++i) decode_inst(i);
}

void FunctionDecoder::decode_inst(size_t i) {
  const ptx::Instruction& in = f_.insts[i];
  ExecInst& e = df_.code[i];
  e.op = in.opcode;
  e.a = in.attrs();
  e.pc = in.pc;
  e.ir = &in;
  e.index = static_cast<int>(i);
  if (in.guard.reg >= 0) {
    e.guard = df_.reg_base + static_cast<std::uint32_t>(in.guard.reg);
    e.guard_negate = in.guard.negate;
  }

  // The parser only builds instructions that fit their signature; IR made by transforms is
  // checked here again, so nothing below indexes past the operands an opcode guarantees.
  if (auto problem = ptx::check_operands(in, f_.regs)) throw fail(in, problem->what);
  const Site s{in, e, static_cast<int>(i)};
  switch (in.opcode) {
    case ptx::Opcode::kBra:
      decode_branch(s);
      break;
    case ptx::Opcode::kCall:
      decode_call(s);
      break;
    case ptx::Opcode::kLd:
    case ptx::Opcode::kLdu:
      decode_load(s);
      break;
    case ptx::Opcode::kSt:
      decode_store(s);
      break;
    case ptx::Opcode::kAtom:
    case ptx::Opcode::kRed:
      decode_atomic(s);
      break;
    case ptx::Opcode::kPrefetch:
    case ptx::Opcode::kPrefetchu:
      break;
    case ptx::Opcode::kRet:
    case ptx::Opcode::kExit:
      e.reconv_pc = reconv_->rpc_by_inst(s.index).value_or(kExitPc);
      e.safe_reconv_pc = e.reconv_pc;
      break;
    default:
      decode_generic(s);
  }
}

void FunctionDecoder::decode_branch(const Site& s) {
  const auto& ops = s.in.operands;
  if (ops.empty() || ops[0].kind != Operand::Kind::kLabel || ops[0].target < 0)
    throw fail(s.in, "branch without a resolved label");
  if (static_cast<size_t>(ops[0].target) >= f_.insts.size())
    throw fail(s.in,
               fmt::format("branch to label '{}', which no instruction follows", ops[0].name));
  s.e.target_pc = f_.insts[static_cast<size_t>(ops[0].target)].pc;
  s.e.reconv_pc = reconv_->rpc_by_inst(s.index).value_or(kExitPc);
  s.e.safe_reconv_pc = s.e.reconv_pc;
}

void FunctionDecoder::decode_call(const Site& s) {
  const ptx::Instruction& in = s.in;
  ExecInst& e = s.e;
  // call (rets), callee, (args)
  const Operand* rets = nullptr;
  const Operand* callee = nullptr;
  const Operand* args = nullptr;
  for (const auto& op : in.operands) {
    if (op.kind == Operand::Kind::kSymbol && !callee) {
      callee = &op;
    } else if (op.kind == Operand::Kind::kList) {
      (callee ? args : rets) = &op;
    }
  }
  if (!callee) throw fail(in, "indirect calls are not supported");
  auto offsets = [&](const Operand* list, std::vector<std::uint64_t>& out) {
    if (!list) return;
    for (const auto& el : list->elems) {
      SymbolRef a = resolve(el.name, s.index);
      if (el.kind != Operand::Kind::kSymbol || a.kind != SymbolRef::Kind::kFrame)
        throw fail(in, "call arguments must be .param variables");
      out.push_back(a.value);
    }
  };
  offsets(rets, e.call_rets);
  offsets(args, e.call_args);
  if (const Intrinsic* x = intrinsic(callee->name)) {
    // An intrinsic (workloads/include/simtsync.cuh): the machine instruction it stands
    // for, not a call (fuse_intrinsic_calls then folds the call sequence into it).
    if (e.call_args.size() != x->args || e.call_rets.size() != (x->returns ? 1u : 0u))
      throw fail(in, fmt::format("{} takes {} and returns {}", callee->name, x->signature,
                                 x->returns ? "one 64-bit value" : "nothing"));
    e.op = x->op;
    e.a = ptx::InstAttrs{};
    e.a.space = is_lock_bit(x->lock_op) ? ptx::Space::kShared : ptx::Space::kGlobal;
    e.a.type = ptx::DType::kB32;
    if (is_lock_acquire(x->lock_op)) e.a.op = ptx::Mod::kCasOp;
    if (x->lock_op == IntrinsicOp::kUnlock) e.a.op = ptx::Mod::kExchOp;
    e.lock_op = x->lock_op;
    return;
  }
  if (callee->name == "vprintf" || callee->name == "__assertfail") {
    const ptx::Function* decl = module_.find_function(callee->name);
    if (decl && decl->is_declaration) {
      const bool pf = callee->name == "vprintf";
      if (e.call_args.size() != (pf ? 2u : 5u))
        throw fail(in, fmt::format("{} takes {} arguments", callee->name, pf ? 2 : 5));
      e.host_call = pf ? HostCall::kPrintf : HostCall::kAssertFail;
      return;
    }
  }
  SymbolRef r = resolve(callee->name, s.index);
  if (r.kind != SymbolRef::Kind::kFunction)
    throw fail(in, fmt::format("call to '{}', which has no body in this module", callee->name));
  e.callee = static_cast<int>(r.value);
}

void FunctionDecoder::decode_load(const Site& s) {
  const auto& ops = s.in.operands;
  // ld dst|{dsts}, [addr]
  if (ops.size() != 2 || ops[1].kind != Operand::Kind::kAddress) throw fail(s.in, "malformed load");
  if (ops[0].kind == Operand::Kind::kVector) {
    for (const auto& el : ops[0].elems) add_dst(s, dst_of(s, el));
  } else {
    add_dst(s, dst_of(s, ops[0]));
  }
  s.e.mem = mem_of(s, ops[1]);
}

void FunctionDecoder::decode_store(const Site& s) {
  const auto& ops = s.in.operands;
  if (ops.size() != 2 || ops[0].kind != Operand::Kind::kAddress)
    throw fail(s.in, "malformed store");
  s.e.mem = mem_of(s, ops[0]);
  if (ops[1].kind == Operand::Kind::kVector) {
    for (const auto& el : ops[1].elems) add_src(s, el);
  } else {
    add_src(s, ops[1]);
  }
}

void FunctionDecoder::decode_atomic(const Site& s) {
  const auto& ops = s.in.operands;
  size_t k = 0;
  if (s.in.opcode == ptx::Opcode::kAtom) {
    if (ops.empty()) throw fail(s.in, "malformed atomic");
    add_dst(s, dst_of(s, ops[k++]));
  }
  if (k >= ops.size() || ops[k].kind != Operand::Kind::kAddress)
    throw fail(s.in, "malformed atomic");
  s.e.mem = mem_of(s, ops[k++]);
  for (; k < ops.size(); ++k) add_src(s, ops[k]);
}

void FunctionDecoder::decode_generic(const Site& s) {
  const ptx::Instruction& in = s.in;
  const auto& ops = in.operands;
  // Generic form: destinations first (setp may have a pair), then sources.
  size_t ndst = 0;
  switch (in.opcode) {
    case ptx::Opcode::kSt:
    case ptx::Opcode::kRed:
    case ptx::Opcode::kBar:
    case ptx::Opcode::kBarrier:
    case ptx::Opcode::kMembar:
    case ptx::Opcode::kFence:
    case ptx::Opcode::kRet:
    case ptx::Opcode::kExit:
    case ptx::Opcode::kTrap:
    case ptx::Opcode::kBrkpt:
    case ptx::Opcode::kNop:
    case ptx::Opcode::kNanosleep:
    case ptx::Opcode::kPmevent:
      ndst = 0;
      break;
    case ptx::Opcode::kBrx:
      throw fail(in, "indirect branches (brx) are not supported");
    default:
      ndst = ops.empty() ? 0 : 1;
  }
  // bar.red.popc.u32 d, a{, b}, p  has a destination.
  if ((in.opcode == ptx::Opcode::kBar || in.opcode == ptx::Opcode::kBarrier) && s.e.a.red) ndst = 1;
  for (size_t k = 0; k < ops.size(); ++k) {
    const Operand& op = ops[k];
    if (k < ndst) {
      if (op.kind == Operand::Kind::kVector) {
        for (const auto& el : op.elems) add_dst(s, dst_of(s, el));
      } else {
        add_dst(s, dst_of(s, op));
        if (op.reg2 >= 0) add_dst(s, df_.reg_base + static_cast<std::uint32_t>(op.reg2));
      }
    } else if (op.kind == Operand::Kind::kVector) {
      for (const auto& el : op.elems) add_src(s, el);
    } else {
      add_src(s, op);
    }
  }
}

}  // namespace

void Program::decode_function(DecodedFunction& df, GlobalMemory& mem) {
  FunctionDecoder decoder(module_, df, functions_, global_addr_, shared_off_);
  decoder.layout_frame(static_shared_total_);
  const auto reconv = analysis::ReconvergenceTable::compute(*df.ir);
  decoder.decode_code(reconv);
  (void)mem;
  fuse_intrinsic_calls(df);
  if (opts_.safe_reconvergence)
    fill_safe_reconvergence(df, marks(static_cast<size_t>(&df - functions_.data())));
  fill_spin_marks(df);
}

void Program::fuse_intrinsic_calls(DecodedFunction& df) const {
  // LDSLK and STSUL are one SASS instruction each (seed 001 Listings 1, 4, 6, 13); at the PTX
  // level nvcc reaches them through the call ABI:
  //   st.param.b64 [param0], %addr;  call.uni (retval0), simtsync_ldslk, (param0);
  //   ld.param.b64 %r, [retval0];    and.b64 %x, %r, 0xffffffff00000000;  setp.ne.s64 %p, %x, 0;
  //   st.param.b64 [param0], %addr;  st.param.b32 [param1], %v;  call.uni simtsync_stsul, (...);
  // Each such sequence becomes one operation at the first instruction's PC. The ALU steps that
  // follow the ld.param and read only its result (or each other's) are folded into the LDSLK
  // and performed with it, so every register the sequence writes gets the value it would have
  // got; only the .param variables of the call, which nothing outside the call sequence can
  // name, are not written. A sequence with a label inside (a branch target) or any other shape
  // stays a call (the slower, equally correct form).
  const ptx::Function& f = *df.ir;
  std::vector<bool> target(f.insts.size() + 1, false);
  for (const auto& l : f.labels)
    if (l.index >= 0 && static_cast<size_t>(l.index) < target.size())
      target[static_cast<size_t>(l.index)] = true;
  auto& code = df.code;
  auto param_store = [&](size_t j, std::uint64_t offset) {
    const ExecInst& e = code[j];
    return e.op == ptx::Opcode::kSt && e.a.space == ptx::Space::kParam && e.a.vec <= 1 &&
           e.guard == kNoReg && e.mem.base == MemRef::Base::kFrame && e.nsrc == 1 &&
           static_cast<std::uint64_t>(e.mem.offset) == offset;
  };
  auto address_of = [](const Src& s, MemRef& m) {
    if (s.kind == Src::Kind::kReg && !s.negate) {
      m = {MemRef::Base::kReg, s.reg, 0};
      return true;
    }
    if (s.kind == Src::Kind::kImm) {
      m = {MemRef::Base::kAbsolute, 0, static_cast<std::int64_t>(s.imm)};
      return true;
    }
    return false;
  };
  auto foldable = [](const ExecInst& e) {
    switch (e.op) {
      case ptx::Opcode::kAnd:
      case ptx::Opcode::kShr:
      case ptx::Opcode::kCvt:
      case ptx::Opcode::kSetp:
      case ptx::Opcode::kMov:
        return e.guard == kNoReg && e.nsrc > 0;
      default:
        return false;
    }
  };
  for (size_t i = 0; i < code.size(); ++i) {
    const ExecInst call = code[i];
    if (call.lock_op == IntrinsicOp::kNone || call.guard != kNoReg) continue;
    // Decoded from a kIntrinsics row, which fixed its arguments and result.
    const bool load = !call.call_rets.empty();
    const size_t nargs = call.call_args.size();
    if (i < nargs) continue;
    const size_t first = i - nargs;
    // The argument stores, in either order, right before the call.
    const ExecInst* addr_st = nullptr;
    const ExecInst* value_st = nullptr;
    for (size_t j = first; j < i; ++j) {
      if (param_store(j, call.call_args[0])) {
        addr_st = &code[j];
      } else if (nargs > 1 && param_store(j, call.call_args[1])) {
        value_st = &code[j];
      }
    }
    MemRef m;
    if (!addr_st || (nargs > 1 && !value_st) || !address_of(addr_st->src[0], m)) continue;
    size_t last = i;
    ExecInst fused = call;
    fused.pc = code[first].pc;
    fused.index = static_cast<int>(first);
    fused.mem = m;
    if (load) {
      // The result's ld.param, then the steps that take it apart.
      const size_t k = i + 1;
      if (k >= code.size() || target[k]) continue;
      const ExecInst& ld = code[k];
      if (ld.op != ptx::Opcode::kLd || ld.a.space != ptx::Space::kParam || ld.ndst != 1 ||
          ld.guard != kNoReg || ld.mem.base != MemRef::Base::kFrame ||
          static_cast<std::uint64_t>(ld.mem.offset) != call.call_rets[0])
        continue;
      last = k;
      fused.ndst = 1;
      fused.dst[0] = ld.dst[0];
      std::set<std::uint32_t> known{ld.dst[0]};
      for (size_t n = k + 1; n < code.size() && !target[n] && foldable(code[n]); ++n) {
        const ExecInst& e = code[n];
        bool reads_result = false, reads_other = false;
        for (unsigned s = 0; s < e.nsrc; ++s) {
          if (e.src[s].kind == Src::Kind::kReg && known.count(e.src[s].reg)) {
            reads_result = true;
          } else if (e.src[s].kind != Src::Kind::kImm) {
            reads_other = true;
          }
        }
        reads_result &= !reads_other;
        unsigned fresh = 0;
        for (unsigned d = 0; d < e.ndst; ++d) fresh += e.dst[d] != kNoReg && !known.count(e.dst[d]);
        if (!reads_result || fused.ndst + fresh > std::size(fused.dst)) break;
        for (unsigned d = 0; d < e.ndst; ++d)
          if (e.dst[d] != kNoReg && known.insert(e.dst[d]).second)
            fused.dst[fused.ndst++] = e.dst[d];
        fused.folded.push_back(e);
        last = n;
      }
      // A try-lock's second argument, its bound of attempts.
      if (value_st) {
        fused.nsrc = 1;
        fused.src[0] = value_st->src[0];
      }
    } else if (value_st) {
      fused.nsrc = 1;
      fused.src[0] = value_st->src[0];
    } else {
      fused.nsrc = 0;
    }
    bool labelled = false;
    for (size_t n = first + 1; n <= last; ++n) labelled |= target[n];
    if (labelled) continue;
    fused.span = static_cast<std::uint8_t>(last - first + 1);
    code[first] = std::move(fused);
    i = last;
  }
}

}  // namespace simtsync::func
