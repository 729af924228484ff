// A PTX module decoded for execution: per-instruction operands resolved to register slots,
// immediates, special registers and addresses; branch targets and reconvergence PCs resolved;
// variables laid out in their state spaces. Built once per loaded module, read-only afterwards.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "analysis/budget.h"
#include "common/types.h"
#include "func/analysis_cache.h"
#include "ptx/ir.h"

namespace simtsync::func {

class GlobalMemory;

// Generic-address windows (cvta): shared and local addresses are offsets inside these.
inline constexpr Addr kSharedWindow = 0x0000'7F00'0000'0000ULL;
inline constexpr Addr kLocalWindow = 0x0000'7E00'0000'0000ULL;
inline constexpr Addr kWindowSize = 0x0000'0001'0000'0000ULL;
inline constexpr Addr kModuleVarBase = 0x0000'0006'0000'0000ULL;  // module .global/.const

// A source operand.
struct Src {
  enum class Kind : std::uint8_t { kNone, kReg, kImm, kSpecial, kFrameAddr };
  Kind kind = Kind::kNone;
  bool negate = false;    // !%p
  std::uint32_t reg = 0;  // absolute register slot
  std::uint64_t imm = 0;  // immediate bits, or frame offset for kFrameAddr
  ptx::SpecialReg sreg = ptx::SpecialReg::kTid;
  std::int8_t component = -1;
};

// The address operand of a memory instruction.
struct MemRef {
  enum class Base : std::uint8_t { kNone, kReg, kAbsolute, kFrame };
  Base base = Base::kNone;
  std::uint32_t reg = 0;
  std::int64_t offset = 0;  // added to the register, absolute address, or frame offset
  // The base register is 32 bits wide: a .shared or .local address is computed modulo 2^32,
  // as the hardware's 32-bit shared and local addresses are (nvcc -O3 keeps a base below a
  // variable and adds an immediate past it).
  bool reg32 = false;
};

inline constexpr std::uint32_t kNoReg = ~std::uint32_t{0};

// The intrinsics of workloads/include/simtsync.cuh: shared-memory lock bits (seed 001: LDSLK,
// STSUL) and lock instructions on global lock words (seed 004 ch. 4: lock, unlock; sec. 9.2.2:
// try-lock with a bound of attempts).
enum class IntrinsicOp : std::uint8_t { kNone, kLoadLock, kStoreUnlock, kLock, kUnlock, kTryLock };

// Calls to functions the CUDA toolchain declares .extern and its runtime implements: device
// printf (vprintf(format, argument buffer)) and assert (__assertfail(message, file, line,
// function, char size)). The executor performs them itself (Executor::exec_host_call).
enum class HostCall : std::uint8_t { kNone, kPrintf, kAssertFail };
inline bool is_lock_bit(IntrinsicOp op) {
  return op == IntrinsicOp::kLoadLock || op == IntrinsicOp::kStoreUnlock;
}
inline bool is_lock_inst(IntrinsicOp op) {
  return op == IntrinsicOp::kLock || op == IntrinsicOp::kUnlock || op == IntrinsicOp::kTryLock;
}
// An instruction that asks for a lock word (a compare-and-swap -1 -> the thread's id).
inline bool is_lock_acquire(IntrinsicOp op) {
  return op == IntrinsicOp::kLock || op == IntrinsicOp::kTryLock;
}
// A lock instruction's lock word while free (seed 004 sec. 4.2: unlock writes -1).
inline constexpr std::uint32_t kLockFree = 0xFFFFFFFFu;

enum class SyncRole : std::uint8_t { kNone, kLockAttempt, kWaitSib, kWaitExit };

struct ExecInst {
  ptx::Opcode op = ptx::Opcode::kNop;
  ptx::InstAttrs a;
  std::uint32_t guard = kNoReg;  // predicate register slot
  bool guard_negate = false;
  std::uint8_t ndst = 0;
  std::uint32_t dst[4] = {kNoReg, kNoReg, kNoReg, kNoReg};  // kNoReg = sink
  std::uint8_t nsrc = 0;
  Src src[4];
  MemRef mem;
  Pc pc = 0;
  Pc target_pc = 0;  // branch target
  Pc reconv_pc = 0;  // branch reconvergence point (kExitPc: virtual exit)
  // Where a unit with delayed reconvergence (AWARE, seed 003 sec. IV-B) reconverges this
  // branch: the safe post-dominator of the flagged loop it exits (Algorithm 2 without lines
  // 10-14), and for the branches around such a loop the nearest post-dominator that
  // post-dominates the points of every branch on their paths to it; reconv_pc for the rest,
  // and for every branch when the Program was decoded without DecodeOptions::
  // safe_reconvergence (Program::deadlock_flagged tells the watchdog what the analysis flags).
  Pc safe_reconv_pc = 0;
  int callee = -1;                       // call: index of the callee in Program::functions()
  std::vector<std::uint64_t> call_args;  // call: caller frame offsets of argument variables
  std::vector<std::uint64_t> call_rets;  // call: caller frame offsets of return variables
  // Annotated spin-inducing branch: a backward branch of a loop the workload marks as a busy-wait
  // loop (SIMTSYNC_SPIN_LOOP); ground truth for DDOS, and BOWS's SIBs with sib_source=annotation.
  bool spin_mark = false;
  // Its part in a marked busy-wait loop, for the synchronization-status statistics (seed 000
  // Fig. 2): a lock acquire attempt (a compare-and-swap or a lock-bit load inside a marked loop:
  // a lock loop, or the first attempt nvcc peels out of one, just before it), or, in a marked
  // loop without one (a wait loop), its spin-inducing branch (lanes that go round again failed
  // to exit the wait) or a branch that leaves it.
  SyncRole sync_role = SyncRole::kNone;
  // Wait loops: the lanes that leave the loop through this branch succeeded in their wait
  // (those it takes when the target lies outside the loop; those it does not take when the
  // next instruction does).
  bool wait_exit_taken = false, wait_exit_fallthrough = false;
  // A lock-bit intrinsic (workloads/include/simtsync.cuh), decoded as the shared-memory
  // instruction it stands for: op kLd for LDSLK, kSt for STSUL. Two forms:
  // - fused (mem.base != kNone): the whole call sequence nvcc emits (st.param of the operands,
  //   the call, ld.param of the packed result, and the ALU steps right after it that take the
  //   result apart) is one operation, as LDSLK/STSUL are one SASS instruction each: the address
  //   is `mem`, STSUL's value src[0]; LDSLK writes the packed result to dst[0] and performs the
  //   `folded` steps on it at the same time, so their destinations (the predicate, dst[1..])
  //   are written when the load completes. It covers `span` PTX instructions.
  // - call (mem.base == kNone, a sequence the decoder does not recognise): operands stay in the
  //   caller's .param variables named by call_args/call_rets; st.param and ld.param execute.
  // A lock instruction (kLock, kUnlock, kTryLock) is decoded as the global atomic it sends per
  // thread, atom.global.cas.b32 (-1 -> the thread's id) or atom.global.exch.b32 (-1), and its
  // outcome goes to the reconvergence unit (lock_stack); it has only the fused form. A try-lock
  // takes its bound of attempts as src[0] and writes its result (1: acquired, 0: failed) to
  // dst[0], performing the `folded` steps on it, as LDSLK does.
  IntrinsicOp lock_op = IntrinsicOp::kNone;
  HostCall host_call = HostCall::kNone;  // call: performed by the executor (callee -1)
  std::uint8_t span = 1;                 // PTX instructions this operation stands for
  std::vector<ExecInst> folded;          // fused LDSLK: ALU steps performed with it
  Pc fallthrough() const { return pc + kInstSize * span; }
  const ptx::Instruction* ir = nullptr;
  int index = 0;  // index inside its function
};

struct DecodedFunction {
  const ptx::Function* ir = nullptr;
  std::string name;
  bool is_entry = false;
  Pc base_pc = 0;
  std::uint32_t reg_base = 0;  // first register slot of this function
  std::uint32_t nregs = 0;
  std::uint32_t frame_size = 0;  // bytes of per-thread frame (.local and .param variables)
  std::vector<std::uint64_t> param_offsets;  // .func: frame offsets of params; .entry: buffer
  std::vector<std::uint64_t> ret_offsets;
  std::vector<std::uint32_t> param_sizes;
  std::vector<std::uint32_t> ret_sizes;
  std::uint64_t param_buffer_size = 0;  // .entry only
  Addr param_buffer = 0;                // .entry only: global address of the parameter buffer
  std::uint32_t static_shared = 0;      // .entry only: bytes of static shared memory it uses
  std::vector<ExecInst> code;
};

// What decoding computes beyond the code itself (issue 46): the SIMT-deadlock analysis
// (seed 003 Algorithms 1 and 2) can cost more than the rest of decoding, and only a unit with
// delayed reconvergence reads its reconvergence points.
struct DecodeOptions {
  // Fill ExecInst::safe_reconv_pc (simt::UnitChoice::reads_safe_reconvergence). Without it the
  // analysis runs only if a watchdog report asks Program::deadlock_flagged.
  bool safe_reconvergence = true;
  // Entries one function's analysis may hold (analysis/budget.h; sim.analysis_budget): past
  // it the analysis is refused with exit 4. 0: no limit.
  std::uint64_t analysis_budget = analysis::kDefaultBudgetEntries;
  // Results by function content, shared by every Program given the same cache (null: a
  // cache of this Program's own).
  std::shared_ptr<AnalysisCache> cache;
};

class Program {
 public:
  // Decodes `module` and maps its .global/.const variables (and kernel parameter buffers) into
  // `mem`. The module must outlive the Program. Throws simtsync::Error(kUnsupported) for
  // constructs the functional model does not execute, naming file:line, and
  // analysis::AnalysisTooLarge (exit 4) when a function needed by delayed reconvergence is
  // past the analysis budget.
  Program(const ptx::Module& module, GlobalMemory& mem, DecodeOptions o = {});

  const ptx::Module& module() const { return module_; }
  const std::vector<DecodedFunction>& functions() const { return functions_; }
  const DecodedFunction* kernel(const std::string& name) const;
  std::uint32_t total_regs() const { return total_regs_; }
  // Function and instruction index for a PC (nullptr when no instruction is there).
  const ExecInst* at(Pc pc, const DecodedFunction** fn = nullptr) const;
  const DecodedFunction& function_at(Pc pc) const;
  // "file.cu:LINE" for an instruction, or "PTXFILE:LINE" without .loc.
  std::string source_of(const ExecInst& in) const;
  // `in` is a branch of a loop the SIMT-deadlock analysis flags (seed 003 Algorithm 1 with the
  // uniformity filter), for watchdog reports. Runs the analysis of in's function on first use
  // when decoding did not; throws analysis::AnalysisTooLarge past the budget.
  bool deadlock_flagged(const ExecInst& in) const;
  std::uint32_t shared_offset(const std::string& var) const;
  // Global address of a module .global/.const variable (0 when the module has none by that name).
  Addr global_address(const std::string& var) const {
    auto it = global_addr_.find(var);
    return it == global_addr_.end() ? 0 : it->second;
  }

 private:
  void layout_shared();
  // The analysis results of function `fn` (an index of functions_), computed or found in the
  // cache on first use.
  const DecodeMarks& marks(size_t fn) const;
  // Alternative reconvergence points from the SIMT-deadlock analysis (ExecInst::safe_reconv_pc).
  void fill_safe_reconvergence(DecodedFunction& df, const DecodeMarks& m) const;
  void fill_spin_marks(DecodedFunction& df) const;
  // Intrinsic call sequences to single operations (ExecInst::lock_op, fused form).
  void fuse_intrinsic_calls(DecodedFunction& df) const;
  void decode_function(DecodedFunction& df, GlobalMemory& mem);

  const ptx::Module& module_;
  DecodeOptions opts_;
  std::vector<DecodedFunction> functions_;
  mutable std::mutex marks_mutex_;
  mutable std::vector<std::shared_ptr<const DecodeMarks>> marks_;  // per function, on demand
  std::map<std::string, Addr> global_addr_;          // module .global/.const variables
  std::map<std::string, std::uint32_t> shared_off_;  // module .shared variables
  std::uint32_t static_shared_total_ = 0;
  std::uint32_t total_regs_ = 0;
};

}  // namespace simtsync::func
