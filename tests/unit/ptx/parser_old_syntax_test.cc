// Parser tests on the older PTX syntax printed in the research papers (PTX 1.x/2.x era).
#include <gtest/gtest.h>

#include "ptx/parser.h"
#include "ptx_test_files.h"

namespace simtsync::ptx {
namespace {

using K = Operand::Kind;

TEST(OldSyntax, GpgpuSimEraKernel) {
  Module m = load_module_file(test::data_file("old_gpgpusim_kernel.ptx"));
  EXPECT_EQ(m.version_major, 1);
  EXPECT_EQ(m.version_minor, 4);
  EXPECT_EQ(m.target, (std::vector<std::string>{"sm_10", "map_f64_to_f32"}));
  ASSERT_EQ(m.files.size(), 3u);
  EXPECT_EQ(m.files[0].path, "<command-line>");
  EXPECT_EQ(m.files[2].index, 15);
  ASSERT_EQ(m.globals.size(), 2u);
  EXPECT_EQ(m.globals[1].init.at(0).fbits, 0x40000000u);
  ASSERT_EQ(m.functions.size(), 1u);
  const Function& f = m.functions[0];
  EXPECT_TRUE(f.is_entry);
  EXPECT_EQ(f.params.size(), 3u);
  EXPECT_EQ(f.params[2].type, DType::kS32);
  EXPECT_EQ(f.insts[0].loc.file, 15);
  EXPECT_EQ(f.insts[0].loc.line, 12);
  EXPECT_EQ(f.insts[0].operands[1].sreg, SpecialReg::kCtaid);
  // The label after the last instruction marks the end of the function.
  EXPECT_EQ(f.label_index("$LDWend__Z6kernelPiS_i"), static_cast<int>(f.insts.size()));
  const Instruction& bra = f.insts.at(7);
  EXPECT_EQ(bra.opcode, Opcode::kBra);
  EXPECT_EQ(bra.operands[0].target, f.label_index("$Lt_0_1"));
  int negated = 0;
  for (const auto& in : f.insts) negated += in.guard.negate;
  EXPECT_EQ(negated, 1);
  // set.gt.u32.s32: destination type first, source type second.
  for (const auto& in : f.insts) {
    if (in.opcode != Opcode::kSet) continue;
    EXPECT_EQ(in.attrs().cmp, Mod::kGt);
    EXPECT_EQ(in.attrs().type, DType::kU32);
    EXPECT_EQ(in.attrs().stype, DType::kS32);
  }
}

TEST(OldSyntax, BusyWaitLoopOfBowsFigure7) {
  Module m = load_module_file(test::data_file("old_busy_wait.ptx"));
  const Function& f = m.functions.at(0);
  int bb2 = f.label_index("BB2");
  ASSERT_GE(bb2, 0);
  EXPECT_EQ(f.insts[static_cast<std::size_t>(bb2)].opcode, Opcode::kAtom);
  EXPECT_EQ(f.insts[static_cast<std::size_t>(bb2)].pc, f.base_pc + 0x30);
  const Instruction& back = f.insts.at(f.insts.size() - 2);
  EXPECT_EQ(back.operands[0].target, bb2);
  EXPECT_EQ(back.pc, f.base_pc + 0x98);
  EXPECT_EQ(f.regs.size(), 2u + 130u + 8u + 4u);
}

TEST(OldSyntax, RegisterParametersAndScopedShadowing) {
  Module m = load_module_file(test::data_file("old_func_regs.ptx"));
  const Function& fact = m.functions.at(0);
  ASSERT_EQ(fact.rets.size(), 1u);
  EXPECT_EQ(fact.rets[0].space, Space::kReg);
  EXPECT_EQ(fact.params[0].space, Space::kReg);
  EXPECT_EQ(fact.regs[0].name, "%rv1");
  EXPECT_EQ(fact.regs[1].name, "%ra1");
  EXPECT_EQ(fact.insts[0].operands[1].reg, 1);
  // Inside the scope %r1 is the inner declaration; %r3 still the outer one.
  const Instruction& call = fact.insts.at(6);
  ASSERT_EQ(call.opcode, Opcode::kCall);
  int inner_r1 = call.operands[0].elems.at(0).reg;
  EXPECT_EQ(fact.regs[static_cast<std::size_t>(inner_r1)].name, "%r1");
  EXPECT_GE(inner_r1, 2 + 6 + 2);
  const Instruction& mov = fact.insts.at(7);
  EXPECT_EQ(mov.operands[0].reg, 2 + 3);
  EXPECT_EQ(mov.operands[1].reg, inner_r1);
  EXPECT_EQ(m.functions.at(1).locals.at(0).space, Space::kLocal);
  EXPECT_EQ(call.operands[1].kind, K::kSymbol);
}

}  // namespace
}  // namespace simtsync::ptx
