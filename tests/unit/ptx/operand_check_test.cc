// Operand counts and kinds per opcode (the signatures in opcodes.def): what the decoder cannot
// execute stops at PATH:LINE:COL with exit code 4, and every form the workloads use still parses.
#include "ptx/operand_check.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "common/error.h"
#include "ptx/parser.h"
#include "ptx_test_files.h"

namespace simtsync::ptx {
namespace {

std::string operand_kernel(const std::string& body) {
  return ".version 9.0\n.target sm_75\n.address_size 64\n"
         ".func (.param .b32 r) f(.param .b32 a)\n{\nret;\n}\n"
         ".entry k()\n{\n.reg .b32 %r<10>;\n.reg .b64 %rd<4>;\n.reg .pred %p<3>;\n"
         ".shared .b32 s[4];\n" +
         body + "\n}\n";
}
constexpr int kBodyLine = 14;  // the line `body` starts on

std::string operand_error_of(const std::string& body) {
  try {
    parse_module(operand_kernel(body), "bad.ptx");
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kUnsupported) << e.what();
    return e.what();
  }
  return "no error";
}

struct OperandCase {
  const char* body;
  const char* want;  // expected message from the column on
};

TEST(OperandCheck, RejectsWhatTheDecoderCannotExecute) {
  const OperandCase cases[] = {
      // Issue 22: both crashed the decoder before the parser checked operands.
      {"atom.add.u32;", ":1: error: atom takes 3 or 4 operands, not 0: `atom.add.u32`"},
      {"ld.global.v8.u32 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1];",
       ":1: error: ld.v8 is unsupported (at most .v4): `ld.global.v8.u32`"},
      // Issue 22: a wrong operand count used to be analyzed as if it were fine.
      {"add.s32 %r1, %r2;", ":1: error: add takes 3 operands, not 2: `add.s32`"},
      {"  mad.lo.s32 %r1, %r2, %r3, %r4, %r5;", ":3: error: mad takes 4 operands, not 5"},
      {"bar.sync;", ":1: error: bar takes 1 or 2 operands, not 0"},
      {"bar.sync 0, 64, 1;", ":1: error: bar takes 1 or 2 operands, not 3"},
      {"setp.eq.s32 %p1, %r1;", ":1: error: setp takes 3 or 4 operands, not 2"},
      {"ret %r1;", ":1: error: ret takes 0 operands, not 1"},
      {"membar.gl %r1;", ":1: error: membar takes 0 operands, not 1"},
      {"ld.global.u32 %r1, %rd1;", ":20: error: operand 2 of ld must be an address [...]: `%rd1`"},
      {"st.global.u32 %r1, [%rd1];", ":15: error: operand 1 of st must be an address [...]: `%r1`"},
      {"add.s32 5, %r2, %r3;", ":9: error: operand 1 of add must be a destination register or _"},
      {"add.s32 %r1, [%rd1], %r3;", ":14: error: operand 2 of add must be a register, immediate"},
      {"add.s32 %r1|%r2, %r2, %r3;", ":9: error: operand 1 of add must be a destination register"},
      {"ld.global.v4.u32 {%r1, %r2}, [%rd1];",
       ":18: error: operand 1 of ld.v4 must be a vector of 4: `{`"},
      {"ld.global.v2.u32 %r1, [%rd1];", ":18: error: operand 1 of ld.v2 must be a vector of 2"},
      {"ld.global.u32 {%r1, %r2}, [%rd1];",
       ":15: error: operand 1 of ld is a vector but there is no .vN"},
      {"st.global.v2.u32 [%rd1], {%r1, [%rd2]};", ":26: error: operand 2 of st must be a source"},
      {"mov.b64 {%r1, %r2, %r3, %r4, %r5}, %rd1;", "operand 1 of mov must be a destination"},
      {"atom.global.add.u32 %r1, %r2, %r3;", ":26: error: operand 2 of atom must be an address"},
      {"shfl.sync.idx.b32 %r1, %r2, 0;", ":1: error: shfl takes 4 or 5 operands, not 3"},
      {"shfl.sync.idx.b32 %r1, %r2, 0, 31;",
       ":1: error: shfl.sync takes 5 operands (the last is the member mask), not 4"},
      {"mov.b64 {%r1, %r2}, {%r3, %r4};",
       ":21: error: mov moves between a vector and a scalar, not vector to vector"},
      {"bar.red.popc.u32 %r1, 0;", ":1: error: bar takes 3 or 4 operands, not 2"},
      // Issue 45: accepted, and executed, though ptxas rejects them.
      {"atom.global.u32 %r1, [%rd1], %r2;",
       ":1: error: atom needs an operation (.add, .cas, .exch, ...): `atom.global.u32`"},
      {"red.global.u32 [%rd1], %r2;", ":1: error: red needs an operation"},
      {"atom.global.cas.b32 %r1, [%rd1], %r2;",
       ":1: error: atom.cas takes 4 operands (d, [a], b, c), not 3"},
      {"atom.global.add.u32 %r1, [%rd1], %r2, %r3;",
       ":1: error: atom.add takes 3 operands (d, [a], b), not 4"},
      {"st.const.u32 [%rd1], %r2;",
       ":1: error: st cannot write the .const state space (it is read-only)"},
      {"@%r1 bra L;\nL: ret;",
       ":2: error: a guard must be a .pred register, not the .b32 register %r1: `%r1`"},
      {"@!%rd1 ret;", ":3: error: a guard must be a .pred register, not the .b64 register %rd1"},
      {"setp.eq.s32 %r1, %r2, 0;",
       ":13: error: operand 1 of setp must be a .pred register, _ or a pair p|q of .pred "
       "registers: `%r1`"},
      {"setp.eq.s32 %p1|%r1, %r2, 0;", ":13: error: operand 1 of setp must be a .pred"},
      {"setp.s32 %p1, %r2, 0;", ":1: error: setp needs a comparison"},
      {"testp.finite.f32 %r1, %r2;", ":18: error: operand 1 of testp must be a .pred"},
      {"bar.sync 99999;",
       ":10: error: operand 1 of bar must be a barrier number in 0..15 (or a register), not "
       "99999: `99999`"},
      {"barrier.sync 16, 64;", ":14: error: operand 1 of barrier must be a barrier number"},
      {"bar.red.popc.u32 %r1, 16, %p1;", ":23: error: operand 2 of bar must be a barrier number"},
      {"add.s32 %r1, %r2, L1;\nL1: ret;",
       ":19: error: operand 3 of add must be a register, immediate, special register or "
       "symbol, not the label L1: `L1`"},
      {"mov.u64 %rd1, L1;\nL1: ret;", ":15: error: operand 2 of mov must be"},
      {"ld.global.u32 %r1, [L1];\nL1: ret;", ":20: error: label L1 used where ld takes a variable"},
      {"add.s32 %r1, %r2, nosuch;", ":19: error: undeclared symbol nosuch: `nosuch`"},
      {"ld.global.u32 %r1, [nosuch+4];", ":20: error: undeclared symbol nosuch"},
  };
  for (const auto& c : cases) {
    const std::string msg = operand_error_of(c.body);
    const std::string at = "bad.ptx:" + std::to_string(kBodyLine);
    EXPECT_EQ(msg.rfind(at, 0), 0u) << c.body << " -> " << msg;
    EXPECT_NE(msg.find(c.want), std::string::npos) << c.body << " -> " << msg;
  }
}

TEST(OperandCheck, AcceptsEveryFormTheDecoderExecutes) {
  const char* bodies[] = {
      "bar.sync 0;",
      "bar.sync 1, 64;",
      "barrier.sync.aligned 0;",
      "bar.arrive 1, 64;",
      "bar.red.popc.u32 %r1, 0, %p1;",
      "bar.red.and.pred %p1, 0, 64, !%p2;",
      "bar.warp.sync -1;",
      "bar.sync 15;",
      "bar.sync %r1, 64;",
      "setp.ne.s32 _, %r1, 0;",
      "@!%p1 ret;",
      "isspacep.global %p1, %rd1;",
      "testp.finite.f32 %p1, %r2;",
      "st.local.u32 [%rd1], %r2;",
      "ld.const.u32 %r1, [%rd1];",
      "add.s32 %r1, %r2, s;",
      "mov.u64 %rd1, f;",
      "atom.global.add.u32 %r1, [%rd1], 1;",
      "atom.global.cas.b32 %r1, [%rd1], %r2, %r3;",
      "atom.shared.exch.b32 _, [s], %r2;",
      "red.global.add.u32 [%rd1+4], %r2;",
      "setp.lt.s32 %p1, %r1, %r2;",
      "setp.lt.and.s32 %p1|%p2, %r1, %r2, !%p2;",
      "set.gt.u32.s32 %r1, %r2, 5;",
      "selp.b32 %r1, %r2, %r3, %p1;",
      "ld.global.v2.u32 {%r1, %r2}, [%rd1];",
      "ld.global.v4.u32 {%r1, %r2, _, %r4}, [%rd1+16];",
      "ld.shared.u32 %r1, [s+4];",
      "st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};",
      "st.global.v2.u32 [%rd1], {%r1, 0};",
      "st.global.v4.u32 [%rd1+16], {%r1, %r2, %r3, _};",
      "mov.b64 {%r1, %r2}, %rd1;",
      "mov.b64 %rd1, {%r1, %r2};",
      "mov.u32 %r1, %tid.x;",
      "mov.u64 %rd1, s;",
      "cvt.rn.f16x2.f32 %r1, %r2, %r3;",
      "cvta.shared.u64 %rd1, s;",
      "shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;",
      "shfl.down.b32 %r1, %r2, 1, 31;",
      "vote.sync.ballot.b32 %r1, %p1, -1;",
      "vote.all.pred %p1, !%p2;",
      "match.any.sync.b32 %r1, %r2, -1;",
      "activemask.b32 %r1;",
      "redux.sync.add.u32 %r1, %r2, -1;",
      "bfi.b32 %r1, %r2, %r3, 4, 8;",
      "lop3.b32 %r1, %r2, %r3, %r4, 0x96;",
      "{\n.param .b32 a0;\n.param .b32 r0;\ncall.uni (r0), f, (a0);\n}",
      "{\n.param .b32 a0;\ncall.uni f, (a0);\n}",
      "membar.gl;",
      "fence.acq_rel.gpu;",
      "nanosleep.u32 100;",
      "pmevent 7;",
      "@%p1 bra L;\nL: exit;",
      "ret;",
      "trap;",
  };
  for (const char* b : bodies) EXPECT_EQ(operand_error_of(b), "no error") << b;
}

TEST(OperandCheck, SignaturesAreWellFormed) {
  for (int i = 0; i <= static_cast<int>(Opcode::kNop); ++i) {
    const std::string sig = opcode_signature(static_cast<Opcode>(i));
    if (sig == "*") continue;
    EXPECT_EQ(sig.find_first_not_of("dpPsbDSal["), std::string::npos) << sig;
    EXPECT_LE(std::count(sig.begin(), sig.end(), '['), 1) << sig;
  }
}

TEST(OperandCheck, EveryCommittedPtxFitsTheSignatures) {
  int checked = 0;
  for (const auto& path : test::all_ptx_files()) {
    Module m;
    try {
      m = parse_module(test::read_text(path), path);
    } catch (const Error& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    for (const auto& f : m.functions)
      for (const auto& in : f.insts) {
        const auto problem = check_operands(in);
        EXPECT_FALSE(problem) << path << ":" << in.ptx_line << ": " << problem->what;
        ++checked;
      }
  }
  EXPECT_GT(checked, 1000);
}

}  // namespace
}  // namespace simtsync::ptx
