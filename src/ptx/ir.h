// The PTX intermediate representation: module -> functions -> instructions (with basic blocks
// computed from labels and branches). The parser builds it, the printer writes it back, the
// analyses read it, and the functional model decodes it once at load time.
//
// Round-trip contract: print(parse(text)) parses to an IR equal (operator==) to parse(text).
// Modifiers are kept in source order as typed enumerators so that the printer reproduces the
// spelling ptxas expects; attrs() interprets them per opcode.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/types.h"

namespace simtsync::ptx {

enum class Opcode : std::uint8_t {
#define X(e, s, c, o) e,
#include "ptx/opcodes.def"
#undef X
};

enum class UnitClass : std::uint8_t { kInt, kFp, kSfu, kMem, kAtomic, kCtrl, kBarrier, kFence, kWarp, kMisc };

enum class Mod : std::uint8_t {
#define X(e, s, c) e,
#include "ptx/modifiers.def"
#undef X
};

enum class ModCategory : std::uint8_t {
  kType, kCmp, kOp, kSpace, kRound, kSem, kScope, kVec, kCache, kFlag, kShfl, kPrmt, kTestp
};

const char* opcode_name(Opcode op);
UnitClass opcode_unit(Opcode op);
// The operand signature of opcodes.def (its fourth column; the letters are explained there).
const char* opcode_signature(Opcode op);
std::optional<Opcode> opcode_from_name(std::string_view s);
const char* mod_name(Mod m);
ModCategory mod_category(Mod m);
std::optional<Mod> mod_from_name(std::string_view s);  // s without the leading '.'

// Scalar data types of PTX.
enum class DType : std::uint8_t {
  kNone, kPred, kB8, kB16, kB32, kB64, kB128, kU8, kU16, kU32, kU64, kS8, kS16, kS32, kS64,
  kF16, kF16x2, kBf16, kBf16x2, kF32, kF64
};
DType dtype_of_mod(Mod m);          // kNone when m is not a type modifier
std::optional<Mod> mod_of_dtype(DType t);
// kPred counts as 1. Indexed by DType (hot in the functional model, hence inline).
inline constexpr unsigned kDTypeBytes[] = {0, 1, 1, 2, 4, 8, 16, 1, 2, 4, 8, 1, 2, 4, 8,
                                           2, 4, 2, 4, 4, 8};
inline unsigned dtype_bytes(DType t) { return kDTypeBytes[static_cast<int>(t)]; }
inline bool dtype_is_float(DType t) { return t >= DType::kF16; }
inline bool dtype_is_signed(DType t) { return t >= DType::kS8 && t <= DType::kS64; }
const char* dtype_name(DType t);    // "u32", ...

enum class Space : std::uint8_t { kNone, kGeneric, kGlobal, kShared, kLocal, kParam, kConst, kReg };
const char* space_name(Space s);

enum class SpecialReg : std::uint8_t {
  kTid, kNtid, kCtaid, kNctaid, kLaneid, kWarpid, kNwarpid, kSmid, kNsmid, kGridid,
  kLanemaskEq, kLanemaskLe, kLanemaskLt, kLanemaskGe, kLanemaskGt, kClock, kClockHi,
  kClock64, kGlobaltimer, kGlobaltimerLo, kGlobaltimerHi, kDynamicSmemSize, kTotalSmemSize,
  kWarpsz
};
const char* special_reg_name(SpecialReg r);  // without '%'
std::optional<SpecialReg> special_reg_from_name(std::string_view s);

// Source position of a .loc directive.
struct SrcLoc {
  int file = 0;    // .file index; 0 = none
  int line = 0;
  int column = 0;
  // `.loc f l c, function_name $L__info_stringN, inlined_at f2 l2 c2`
  int inlined_file = 0, inlined_line = 0, inlined_column = 0;
  // Interned (intern_name): every instruction carries a SrcLoc, and a string per instruction
  // was a sixth of a large module's memory. Equal names are the same pointer.
  const std::string* function_name = nullptr;
  bool operator==(const SrcLoc&) const = default;
};
// The one copy of `name` for the rest of the process (thread-safe).
const std::string* intern_name(std::string_view name);

// An operand. Registers are indices into Function::regs.
struct Operand {
  enum class Kind : std::uint8_t {
    kReg,       // %r5 (reg; reg2 >= 0 for the `%p|%q` destination pair of setp)
    kSpecial,   // %tid.x (sreg, component 0..2 for .x/.y/.z, -1 when scalar)
    kImmInt,    // 42, -1, 0x1f (imm)
    kImmF32,    // 0f3F800000 (fbits holds the 32 bits)
    kImmF64,    // 0d3FF0000000000000 (fbits)
    kSymbol,    // a variable, parameter or function name (name; offset for `sym+4`)
    kLabel,     // branch target (name; target = instruction index after resolution)
    kAddress,   // [base+offset]: base is reg (reg>=0), symbol (name), or absolute (neither)
    kVector,    // {%r1, %r2, _}
    kList,      // (a, b) argument lists of call
    kSink,      // _
  };
  // Ordered by size, so that an operand is 96 bytes, not 112 (a large module holds millions).
  Kind kind = Kind::kSink;
  bool negate = false;  // !%p as a source predicate
  SpecialReg sreg = SpecialReg::kTid;
  std::int8_t component = -1;
  int reg = -1;
  int reg2 = -1;
  int target = -1;
  std::int64_t imm = 0;
  std::uint64_t fbits = 0;
  std::int64_t offset = 0;
  std::string name;
  std::vector<Operand> elems;  // kVector, kList

  bool operator==(const Operand&) const = default;
};

// Decoded view of an instruction's modifiers.
struct InstAttrs {
  DType type = DType::kNone;   // first type modifier: the operation / destination type
  DType stype = DType::kNone;  // second type modifier when there are two (cvt.dtype.stype:
                               // the source type); equal to `type` otherwise
  Space space = Space::kNone;
  std::optional<Mod> cmp;      // setp/set comparison
  std::optional<Mod> op;       // boolean op (setp/set), atomic op (atom/red), bar.red op
  std::optional<Mod> rounding;
  std::optional<Mod> shfl;     // shfl mode
  std::optional<Mod> scope;
  std::optional<Mod> sem;
  unsigned vec = 1;
  bool sat = false, ftz = false, approx = false, hi = false, lo = false, wide = false;
  bool cc = false, uni = false, sync = false, arrive = false, red = false, nan = false;
  bool volatile_ = false, nc = false, to = false;
};

struct Guard {
  int reg = -1;  // predicate register; -1 = unguarded
  bool negate = false;
  bool operator==(const Guard&) const = default;
};

struct Instruction {
  Opcode opcode = Opcode::kNop;
  std::vector<Mod> mods;      // in source order
  Guard guard;
  std::vector<Operand> operands;
  SrcLoc loc;                 // from the most recent .loc
  // Not part of IR identity:
  Pc pc = 0;                  // absolute PC (function base + 8 * index)
  int ptx_line = 0;           // line in the PTX file it came from

  InstAttrs attrs() const;
  bool has(Mod m) const;
  bool is_branch() const { return opcode == Opcode::kBra || opcode == Opcode::kBrx; }
  bool operator==(const Instruction& o) const {
    return opcode == o.opcode && mods == o.mods && guard == o.guard && operands == o.operands &&
           loc == o.loc;
  }
};

// A value in a variable initializer: integer, float bits, or address of a symbol (+offset).
struct InitValue {
  enum class Kind : std::uint8_t { kInt, kF32, kF64, kSymbol, kGenericSymbol };
  Kind kind = Kind::kInt;
  std::int64_t i = 0;
  std::uint64_t fbits = 0;
  std::string symbol;
  bool operator==(const InitValue&) const = default;
};

// A variable in any state space (.global/.shared/.const/.local/.param).
struct Variable {
  std::string name;
  Space space = Space::kNone;
  std::string linkage;              // "", "visible", "extern", "weak", "common"
  DType type = DType::kB8;
  unsigned align = 0;               // 0 = natural
  unsigned vec = 1;                 // .v2/.v4 variables
  std::vector<std::int64_t> dims;   // array dimensions; -1 for `[]`
  std::vector<InitValue> init;      // flattened initializer
  bool ptr_attr = false;            // .ptr attribute on kernel params
  Space ptr_space = Space::kNone;   // .ptr.global etc.
  unsigned ptr_align = 0;
  bool managed = false;  // .attribute(.managed): a __managed__ variable

  std::uint64_t size_bytes() const;  // element size * product of dims (0 when a dim is -1)
  bool operator==(const Variable&) const = default;
};

// A register declaration as written: `.reg .b32 %r<19>;` (count 19) or `.reg .b32 x;` (count -1).
struct RegDecl {
  std::string name;
  DType type = DType::kB32;
  int count = -1;
  int first_reg = 0;  // index of the first register it declares in Function::regs
  bool operator==(const RegDecl& o) const {
    return name == o.name && type == o.type && count == o.count;
  }
};

struct Register {
  std::string name;  // "%r5"
  DType type = DType::kB32;
  bool operator==(const Register&) const = default;
};

// A `{ ... }` block inside a function body: instructions [begin, end) and the declarations made
// inside it. nvcc emits one around every call sequence. Scopes nest; listed in opening order.
struct Scope {
  int begin = 0;
  int end = 0;
  int depth = 1;
  std::vector<RegDecl> regs;
  std::vector<Variable> vars;
  bool operator==(const Scope&) const = default;
};

struct Label {
  std::string name;
  int index = 0;  // instruction the label precedes
  bool operator==(const Label&) const = default;
};

struct BasicBlock {
  int begin = 0;  // first instruction index
  int end = 0;    // one past the last
  std::string label;  // label at its start, empty if none
};

struct Function {
  std::string name;
  bool is_entry = false;             // .entry (kernel) vs .func
  std::string linkage;               // "visible", "extern", "weak", ""
  std::vector<Variable> params;      // .param (or .reg for old-style .func params)
  std::vector<Variable> rets;        // return parameters of a .func
  std::vector<std::string> perf_directives;  // ".maxntid 256, 1, 1" etc., verbatim
  bool is_declaration = false;       // prototype only (no body)
  std::vector<RegDecl> reg_decls;    // top-level register declarations
  std::vector<Variable> locals;      // top-level .local/.shared/.param/.const variables
  std::vector<Register> regs;        // every register, expanded (scoped ones included)
  std::vector<Instruction> insts;
  std::vector<Label> labels;
  std::vector<Scope> scopes;
  std::vector<std::pair<int, std::string>> pragmas;  // (instruction index, `"nounroll"`)

  Pc base_pc = 0;
  // Computed by finalize(): basic blocks in instruction order.
  std::vector<BasicBlock> blocks;
  std::vector<int> block_of;         // instruction index -> block index

  int label_index(const std::string& n) const;  // -1 if none
  // Recomputes label targets, basic blocks and PCs. Called by the parser and after transforms.
  void finalize(Pc base);
  bool operator==(const Function& o) const;
};

// Whether a CTA of `x` * `y` * `z` threads may run `f` under its .reqntid (the block must be
// exactly that shape; missing extents are 1) and .maxntid (at most their product of threads)
// directives: nullopt when it may; otherwise what is wrong, naming the function and the directive
// ("kernel k: block (32,1,1) is not the shape .reqntid 16 (16,1,1) requires"). Every launch path
// (func::make_launch_info for the functional and timing modes, the CUDA runtime) calls it.
std::optional<std::string> block_shape_problem(const Function& f, std::uint32_t x, std::uint32_t y,
                                               std::uint32_t z);

// Module-level directives that are kept verbatim (debug sections).
struct Section {
  std::string name;   // ".debug_str"
  std::string body;   // everything between the braces, verbatim
  bool operator==(const Section&) const = default;
};

struct SourceFile {
  int index = 0;
  std::string path;
  std::string extra;  // ", timestamp, size" when present
  bool operator==(const SourceFile&) const = default;
};

struct Module {
  std::string path;  // file it was read from (diagnostics only)
  int version_major = 0, version_minor = 0;
  std::vector<std::string> target;  // sm_75, debug, ...
  unsigned address_size = 64;
  std::vector<Variable> globals;     // module-scope .global/.shared/.const variables
  std::vector<Function> functions;
  std::vector<SourceFile> files;
  std::vector<Section> sections;

  const Function* find_function(const std::string& n) const;
  Function* find_function(const std::string& n);
  const SourceFile* find_file(int index) const;
  // Assigns base PCs: functions laid out one after another, each starting on a 256-byte line.
  void finalize();
  bool operator==(const Module& o) const;
};

}  // namespace simtsync::ptx
