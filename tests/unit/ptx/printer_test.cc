#include "ptx/printer.h"

#include <gtest/gtest.h>

#include "ptx/parser.h"

namespace simtsync::ptx {
namespace {

constexpr const char* kSource = R"(.version 9.0
.target sm_75
.address_size 64
.global .align 4 .s32 grid[2][2] = {{1, 2}, {3, 4}};
.global .u64 p = generic(grid);
.func (.param .b32 r) f(.param .b32 a) { ret; }
.visible .entry k(.param .u64 .ptr .global .align 8 k_p)
.maxntid 128, 1, 1
{
  .reg .pred %p<3>;
  .reg .b32 %r<5>;
  .reg .f32 %f<2>;
  .reg .b64 %rd<3>;
  .loc 1 3 0
  ld.param.u64 %rd1, [k_p];
  mov.f32 %f1, 1.0;
  mov.u32 %r1, %tid.x;
  setp.lo.u32 %p1|%p2, %r1, 32;
$L1:
  .pragma "nounroll";
  { .param .b32 a; .param .b32 r;
  st.param.b32 [a+0], %r1;
  call.uni (r), f, (a);
  ld.param.b32 %r2, [r+0];
  }
  .loc 1 4 2
  ld.global.v2.u32 {%r3, _}, [%rd1+-8];
  @!%p1 bra $L1;
  ret;
}
	.file	1 "k.cu"
)";

TEST(Printer, InstructionsAndOperands) {
  Module m = parse_module(kSource);
  const Function& k = m.functions.at(1);
  EXPECT_EQ(print_instruction(k, k.insts[0]), "ld.param.u64 %rd1, [k_p]");
  EXPECT_EQ(print_instruction(k, k.insts[1]), "mov.f32 %f1, 0f3F800000");
  EXPECT_EQ(print_instruction(k, k.insts[2]), "mov.u32 %r1, %tid.x");
  EXPECT_EQ(print_instruction(k, k.insts[3]), "setp.lo.u32 %p1|%p2, %r1, 32");
  EXPECT_EQ(print_instruction(k, k.insts[4]), "st.param.b32 [a], %r1");
  EXPECT_EQ(print_instruction(k, k.insts[5]), "call.uni (r), f, (a)");
  EXPECT_EQ(print_instruction(k, k.insts[7]), "ld.global.v2.u32 {%r3, _}, [%rd1+-8]");
  EXPECT_EQ(print_instruction(k, k.insts[8]), "@!%p1 bra $L1");
}

TEST(Printer, ModuleText) {
  Module m = parse_module(kSource);
  std::string text = print_module(m);
  for (const char* want : {
           ".global .align 4 .s32 grid[2][2] = {{1, 2}, {3, 4}};\n",
           ".global .u64 p = generic(grid);\n",
           ".func (.param .b32 r) f(\n\t.param .b32 a\n)\n{\n",
           ".visible .entry k(\n\t.param .u64 .ptr .global .align 8 k_p\n)\n.maxntid 128, 1, "
           "1\n{\n",
           "\t.reg .pred \t%p<3>;\n",
           "\t.loc\t1 3 0\n\tld.param.u64 %rd1, [k_p];\n\tmov.f32 %f1, 0f3F800000;\n",
           "$L1:\n\t.pragma \"nounroll\";\n\t{\n\t.param .b32 a;\n\t.param .b32 r;\n\tst.param",
           "\tld.param.b32 %r2, [r];\n\t}\n\t.loc\t1 4 2\n",
           "\t.file\t1 \"k.cu\"\n",
       })
    EXPECT_NE(text.find(want), std::string::npos) << want << "\nin:\n" << text;
  EXPECT_EQ(parse_module(text), m);
}

TEST(Printer, LabelAtEndAndEmptyScopes) {
  Module m = parse_module(R"(.version 9.0
.target sm_75
.entry k() { { } ret; { { } } $end: })");
  std::string text = print_module(m);
  Module again = parse_module(text);
  EXPECT_EQ(again, m);
  EXPECT_EQ(again.functions[0].scopes.size(), 3u);
  EXPECT_EQ(print_module(again), text);
}

}  // namespace
}  // namespace simtsync::ptx
