#include "ptx/ir.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string_view>
#include <unordered_map>

namespace simtsync::ptx {
namespace {

struct OpInfo {
  const char* name;
  UnitClass unit;
  const char* signature;
};
constexpr OpInfo kOps[] = {
#define X(e, s, c, o) {s, UnitClass::c, o},
#include "ptx/opcodes.def"
#undef X
};

struct ModInfo {
  const char* name;
  ModCategory cat;
};
constexpr ModInfo kMods[] = {
#define X(e, s, c) {s, ModCategory::c},
#include "ptx/modifiers.def"
#undef X
};

struct TypeInfo {
  DType t;
  Mod m;
  unsigned bytes;
  const char* name;
};
constexpr TypeInfo kTypes[] = {
    {DType::kPred, Mod::kPred, 1, "pred"},   {DType::kB8, Mod::kB8, 1, "b8"},
    {DType::kB16, Mod::kB16, 2, "b16"},      {DType::kB32, Mod::kB32, 4, "b32"},
    {DType::kB64, Mod::kB64, 8, "b64"},      {DType::kB128, Mod::kB128, 16, "b128"},
    {DType::kU8, Mod::kU8, 1, "u8"},         {DType::kU16, Mod::kU16, 2, "u16"},
    {DType::kU32, Mod::kU32, 4, "u32"},      {DType::kU64, Mod::kU64, 8, "u64"},
    {DType::kS8, Mod::kS8, 1, "s8"},         {DType::kS16, Mod::kS16, 2, "s16"},
    {DType::kS32, Mod::kS32, 4, "s32"},      {DType::kS64, Mod::kS64, 8, "s64"},
    {DType::kF16, Mod::kF16, 2, "f16"},      {DType::kF16x2, Mod::kF16x2, 4, "f16x2"},
    {DType::kBf16, Mod::kBf16, 2, "bf16"},   {DType::kBf16x2, Mod::kBf16x2, 4, "bf16x2"},
    {DType::kF32, Mod::kF32, 4, "f32"},      {DType::kF64, Mod::kF64, 8, "f64"},
};

constexpr const char* kSpecialNames[] = {
    "tid",         "ntid",        "ctaid",         "nctaid",      "laneid",
    "warpid",      "nwarpid",     "smid",          "nsmid",       "gridid",
    "lanemask_eq", "lanemask_le", "lanemask_lt",   "lanemask_ge", "lanemask_gt",
    "clock",       "clock_hi",    "clock64",       "globaltimer", "globaltimer_lo",
    "globaltimer_hi", "dynamic_smem_size", "total_smem_size", "WARP_SZ"};

}  // namespace

const char* opcode_name(Opcode op) { return kOps[static_cast<int>(op)].name; }
UnitClass opcode_unit(Opcode op) { return kOps[static_cast<int>(op)].unit; }
const char* opcode_signature(Opcode op) {
  return kOps[static_cast<int>(op)].signature;
}

std::optional<Opcode> opcode_from_name(std::string_view s) {
  static const auto* map = [] {
    auto* m = new std::unordered_map<std::string_view, Opcode>;
    for (size_t i = 0; i < std::size(kOps); ++i) (*m)[kOps[i].name] = static_cast<Opcode>(i);
    return m;
  }();
  auto it = map->find(s);
  if (it == map->end()) return std::nullopt;
  return it->second;
}

const char* mod_name(Mod m) { return kMods[static_cast<int>(m)].name; }
ModCategory mod_category(Mod m) { return kMods[static_cast<int>(m)].cat; }

std::optional<Mod> mod_from_name(std::string_view s) {
  static const auto* map = [] {
    auto* m = new std::unordered_map<std::string_view, Mod>;
    for (size_t i = 0; i < std::size(kMods); ++i) (*m)[kMods[i].name] = static_cast<Mod>(i);
    return m;
  }();
  auto it = map->find(s);
  if (it == map->end()) return std::nullopt;
  return it->second;
}

DType dtype_of_mod(Mod m) {
  for (const auto& t : kTypes)
    if (t.m == m) return t.t;
  return DType::kNone;
}

std::optional<Mod> mod_of_dtype(DType t) {
  for (const auto& e : kTypes)
    if (e.t == t) return e.m;
  return std::nullopt;
}

const char* dtype_name(DType t) {
  for (const auto& e : kTypes)
    if (e.t == t) return e.name;
  return "none";
}

const char* space_name(Space s) {
  switch (s) {
    case Space::kNone: return "";
    case Space::kGeneric: return "generic";
    case Space::kGlobal: return "global";
    case Space::kShared: return "shared";
    case Space::kLocal: return "local";
    case Space::kParam: return "param";
    case Space::kConst: return "const";
    case Space::kReg: return "reg";
  }
  return "";
}

const char* special_reg_name(SpecialReg r) { return kSpecialNames[static_cast<int>(r)]; }

std::optional<SpecialReg> special_reg_from_name(std::string_view s) {
  for (size_t i = 0; i < std::size(kSpecialNames); ++i)
    if (s == kSpecialNames[i]) return static_cast<SpecialReg>(i);
  return std::nullopt;
}

bool Instruction::has(Mod m) const { return std::find(mods.begin(), mods.end(), m) != mods.end(); }

InstAttrs Instruction::attrs() const {
  InstAttrs a;
  int ntypes = 0;
  for (Mod m : mods) {
    switch (mod_category(m)) {
      case ModCategory::kType:
        // Two types (cvt.dtype.stype, set.dtype.stype): the first is the destination's.
        if (ntypes++ == 0) {
          a.type = dtype_of_mod(m);
        } else {
          a.stype = dtype_of_mod(m);
        }
        break;
      case ModCategory::kCmp: a.cmp = m; break;
      case ModCategory::kOp: a.op = m; break;
      case ModCategory::kSpace:
        switch (m) {
          case Mod::kGlobal: a.space = Space::kGlobal; break;
          case Mod::kShared:
          case Mod::kSharedCta:
          case Mod::kSharedCluster: a.space = Space::kShared; break;
          case Mod::kLocal: a.space = Space::kLocal; break;
          case Mod::kParam:
          case Mod::kParamEntry:
          case Mod::kParamFunc: a.space = Space::kParam; break;
          case Mod::kConst: a.space = Space::kConst; break;
          default: break;
        }
        break;
      case ModCategory::kRound: a.rounding = m; break;
      case ModCategory::kSem:
        if (m == Mod::kVolatile) a.volatile_ = true;
        a.sem = m;
        break;
      case ModCategory::kScope: a.scope = m; break;
      case ModCategory::kVec: a.vec = m == Mod::kV2 ? 2 : m == Mod::kV4 ? 4 : 8; break;
      case ModCategory::kCache:
        if (m == Mod::kNc) a.nc = true;
        break;
      case ModCategory::kShfl: a.shfl = m; break;
      case ModCategory::kFlag:
        switch (m) {
          case Mod::kSat: a.sat = true; break;
          case Mod::kFtz: a.ftz = true; break;
          case Mod::kApprox: a.approx = true; break;
          case Mod::kHiHalf: a.hi = true; break;
          case Mod::kLoHalf: a.lo = true; break;
          case Mod::kWide: a.wide = true; break;
          case Mod::kCc: a.cc = true; break;
          case Mod::kUni: a.uni = true; break;
          case Mod::kSync: a.sync = true; break;
          case Mod::kArrive: a.arrive = true; break;
          case Mod::kRedMod: a.red = true; break;
          case Mod::kNaN: a.nan = true; break;
          case Mod::kTo: a.to = true; break;
          default: break;
        }
        break;
      default: break;
    }
  }
  if (ntypes < 2) a.stype = a.type;
  // cvta.to.global / cvta.global: the space names the non-generic side.
  return a;
}

std::uint64_t Variable::size_bytes() const {
  std::uint64_t n = std::uint64_t{dtype_bytes(type)} * vec;
  for (auto d : dims) {
    if (d < 0) return 0;
    n *= static_cast<std::uint64_t>(d);
  }
  return n;
}

std::optional<std::string> block_shape_problem(const Function& f, std::uint32_t x, std::uint32_t y,
                                               std::uint32_t z) {
  const std::uint64_t threads = std::uint64_t{x} * y * z;
  for (const std::string& d : f.perf_directives) {
    const auto space = d.find(' ');
    const std::string_view name = std::string_view(d).substr(0, space);
    if (name != ".reqntid" && name != ".maxntid") continue;
    // The parser keeps ".maxntid 256, 1, 1" with 1 to 3 positive extents.
    std::uint64_t ext[3] = {1, 1, 1};
    std::size_t n = 0;
    for (std::size_t p = space; p != std::string::npos && n < 3; p = d.find(',', p + 1))
      ext[n++] = std::strtoull(d.c_str() + p + 1, nullptr, 10);
    if (n == 0 || ext[0] == 0 || ext[1] == 0 || ext[2] == 0) continue;  // not from the parser
    const std::string shape = fmt::format("{} ({},{},{})", d, ext[0], ext[1], ext[2]);
    const std::string what = fmt::format("{} {}: block ({},{},{})",
                                         f.is_entry ? "kernel" : "function", f.name, x, y, z);
    if (name == ".reqntid" && (x != ext[0] || y != ext[1] || z != ext[2]))
      return fmt::format("{} is not the shape {} requires", what, shape);
    std::uint64_t limit = ext[0] * ext[1];  // extents are below 2^31
    limit = ext[2] > UINT64_MAX / limit ? UINT64_MAX : limit * ext[2];
    if (name == ".maxntid" && threads > limit)
      return fmt::format("{} has {} threads, more than {} allows ({})", what, threads, d, limit);
  }
  return std::nullopt;
}

int Function::label_index(const std::string& n) const {
  for (const auto& l : labels)
    if (l.name == n) return l.index;
  return -1;
}

void Function::finalize(Pc base) {
  base_pc = base;
  std::unordered_map<std::string, int> lab;
  std::unordered_map<int, const std::string*> first_label;  // instruction -> its first label
  for (const auto& l : labels) {
    lab[l.name] = l.index;
    first_label.emplace(l.index, &l.name);
  }
  std::vector<char> leader(insts.size() + 1, 0);
  if (!insts.empty()) leader[0] = 1;
  for (const auto& l : labels) leader[static_cast<size_t>(l.index)] = 1;
  for (size_t i = 0; i < insts.size(); ++i) {
    Instruction& in = insts[i];
    in.pc = base + kInstSize * i;
    for (auto& op : in.operands) {
      if (op.kind == Operand::Kind::kLabel) {
        auto it = lab.find(op.name);
        op.target = it == lab.end() ? -1 : it->second;
      }
    }
    if (in.is_branch() || in.opcode == Opcode::kRet || in.opcode == Opcode::kExit ||
        in.opcode == Opcode::kTrap || in.opcode == Opcode::kBrkpt)
      leader[i + 1] = 1;
  }
  blocks.clear();
  block_of.assign(insts.size(), 0);
  for (size_t i = 0; i < insts.size(); ++i) {
    if (leader[i]) {
      if (!blocks.empty()) blocks.back().end = static_cast<int>(i);
      BasicBlock b;
      b.begin = static_cast<int>(i);
      if (auto it = first_label.find(static_cast<int>(i)); it != first_label.end())
        b.label = *it->second;
      blocks.push_back(b);
    }
    block_of[i] = static_cast<int>(blocks.size()) - 1;
  }
  if (!blocks.empty()) blocks.back().end = static_cast<int>(insts.size());
}

bool Function::operator==(const Function& o) const {
  return name == o.name && is_entry == o.is_entry && linkage == o.linkage && params == o.params &&
         rets == o.rets && perf_directives == o.perf_directives &&
         is_declaration == o.is_declaration && reg_decls == o.reg_decls && locals == o.locals &&
         regs == o.regs && insts == o.insts && labels == o.labels && scopes == o.scopes &&
         pragmas == o.pragmas;
}

const Function* Module::find_function(const std::string& n) const {
  for (const auto& f : functions)
    if (f.name == n && !f.is_declaration) return &f;
  for (const auto& f : functions)
    if (f.name == n) return &f;
  return nullptr;
}

Function* Module::find_function(const std::string& n) {
  return const_cast<Function*>(static_cast<const Module*>(this)->find_function(n));
}

const SourceFile* Module::find_file(int index) const {
  for (const auto& f : files)
    if (f.index == index) return &f;
  return nullptr;
}

void Module::finalize() {
  Pc base = 0;
  for (auto& f : functions) {
    f.finalize(base);
    base += kInstSize * f.insts.size();
    base = (base + 255) & ~Pc{255};
  }
}

bool Module::operator==(const Module& o) const {
  return version_major == o.version_major && version_minor == o.version_minor &&
         target == o.target && address_size == o.address_size && globals == o.globals &&
         functions == o.functions && files == o.files && sections == o.sections;
}

const std::string* intern_name(std::string_view name) {
  static std::mutex mu;
  static std::set<std::string, std::less<>> names;
  std::lock_guard<std::mutex> lock(mu);
  auto it = names.find(name);
  if (it == names.end()) it = names.emplace(name).first;
  return &*it;
}

}  // namespace simtsync::ptx
