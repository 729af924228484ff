// The decoder never indexes past the operands an opcode guarantees: instructions that do not fit
// their signature (IR built without the parser, as transforms do) are clear errors with exit
// code 4 naming file:line, not out-of-bounds reads (issue 22's two decoder crashes).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "common/error.h"
#include "func/global_memory.h"
#include "func/program.h"
#include "ptx/parser.h"

namespace simtsync::func {
namespace {

using ptx::Operand;

const char* kKernel = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 p)
{
.reg .b32 %r<10>;
.reg .b64 %rd<4>;
ld.param.u64 %rd1, [p];
atom.global.add.u32 %r1, [%rd1], 1;
ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];
ret;
}
)";

// The decoder's error for `m`, or "decoded" when it accepts it.
std::string decode_error(const ptx::Module& m) {
  GlobalMemory mem;
  try {
    Program prog(m, mem);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kUnsupported) << e.what();
    return e.what();
  }
  return "decoded";
}

ptx::Instruction& find(ptx::Module& m, ptx::Opcode op) {
  for (auto& in : m.functions.front().insts)
    if (in.opcode == op && in.guard.reg < 0 && !in.operands.empty() &&
        (op != ptx::Opcode::kLd || in.operands[0].kind == Operand::Kind::kVector))
      return in;
  ADD_FAILURE() << "no such instruction";
  return m.functions.front().insts.front();
}

TEST(Decode, WellFormedKernelDecodes) {
  const ptx::Module m = ptx::parse_module(kKernel, "k.ptx");
  EXPECT_EQ(decode_error(m), "decoded");
}

TEST(Decode, AtomWithoutOperandsIsAnErrorNotACrash) {
  ptx::Module m = ptx::parse_module(kKernel, "k.ptx");
  find(m, ptx::Opcode::kAtom).operands.clear();
  const std::string msg = decode_error(m);
  EXPECT_NE(msg.find("k.ptx:9: error: atom takes 3 or 4 operands, not 0"), std::string::npos)
      << msg;
}

TEST(Decode, EightElementLoadIsAnErrorNotACrash) {
  ptx::Module m = ptx::parse_module(kKernel, "k.ptx");
  ptx::Instruction& ld = find(m, ptx::Opcode::kLd);
  for (int i = 4; i < 8; ++i) ld.operands[0].elems.push_back(ld.operands[0].elems[0]);
  ld.mods.insert(ld.mods.begin() + 2, ptx::Mod::kV8);
  ld.mods.erase(std::find(ld.mods.begin(), ld.mods.end(), ptx::Mod::kV4));
  const std::string msg = decode_error(m);
  EXPECT_NE(msg.find("k.ptx:10: error: ld.v8 is unsupported"), std::string::npos) << msg;
}

TEST(Decode, WrongOperandCountIsAnError) {
  ptx::Module m = ptx::parse_module(kKernel, "k.ptx");
  find(m, ptx::Opcode::kAtom).operands.pop_back();
  const std::string msg = decode_error(m);
  EXPECT_NE(msg.find("k.ptx:9: error: atom takes 3 or 4 operands, not 2"), std::string::npos)
      << msg;
}

}  // namespace
}  // namespace simtsync::func
