#include "ptx/lexer.h"

#include <gtest/gtest.h>

#include <vector>

#include "common/error.h"

namespace simtsync::ptx {
namespace {

std::vector<Token> lex_all(std::string_view text) {
  Lexer lx(text, "t.ptx");
  std::vector<Token> out;
  for (;;) {
    Token t = lx.next();
    if (t.kind == TokKind::kEnd) return out;
    out.push_back(t);
  }
}

TEST(Lexer, WordsKeepDotsAndDoubleColons) {
  auto t = lex_all("ld.shared::cta.u32 %r1, [%rd2+8]; .ptr.global.align %tid.x $L__BB0_2:");
  ASSERT_EQ(t.size(), 13u);
  EXPECT_EQ(t[0].text, "ld.shared::cta.u32");
  EXPECT_EQ(t[1].text, "%r1");
  EXPECT_TRUE(t[2].is(','));
  EXPECT_TRUE(t[3].is('['));
  EXPECT_EQ(t[4].text, "%rd2");
  EXPECT_TRUE(t[5].is('+'));
  EXPECT_EQ(t[6].kind, TokKind::kInt);
  EXPECT_EQ(t[6].bits, 8u);
  EXPECT_TRUE(t[9].is_directive());
  EXPECT_EQ(t[9].text, ".ptr.global.align");
  EXPECT_EQ(t[10].text, "%tid.x");
  EXPECT_EQ(t[11].text, "$L__BB0_2");
  EXPECT_TRUE(t[12].is(':'));
}

TEST(Lexer, IntegerLiterals) {
  auto t = lex_all("42 0x1F 0X10U 017 0b101 0 4294967295U 18446744073709551615");
  ASSERT_EQ(t.size(), 8u);
  std::uint64_t want[] = {42, 31, 16, 15, 5, 0, 4294967295u, ~std::uint64_t{0}};
  for (std::size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(t[i].kind, TokKind::kInt) << i;
    EXPECT_EQ(t[i].bits, want[i]) << i;
  }
}

TEST(Lexer, FloatLiterals) {
  auto t = lex_all("0f3F800000 0d3FF0000000000000 1.5 2e-3 9.0");
  ASSERT_EQ(t.size(), 5u);
  EXPECT_EQ(t[0].kind, TokKind::kF32);
  EXPECT_EQ(t[0].bits, 0x3F800000u);
  EXPECT_EQ(t[1].kind, TokKind::kF64);
  EXPECT_EQ(t[1].bits, 0x3FF0000000000000u);
  EXPECT_EQ(t[2].kind, TokKind::kDecFloat);
  EXPECT_DOUBLE_EQ(t[2].dval, 1.5);
  EXPECT_DOUBLE_EQ(t[3].dval, 2e-3);
  EXPECT_EQ(t[4].text, "9.0");
}

TEST(Lexer, CommentsStringsAndPositions) {
  auto t = lex_all("// line comment\n  /* block\n comment */ .file 1 \"a\\\"b.cu\"\n\tret;");
  ASSERT_EQ(t.size(), 5u);
  EXPECT_EQ(t[0].text, ".file");
  EXPECT_EQ(t[0].line, 3);
  EXPECT_EQ(t[0].col, 13);
  EXPECT_EQ(t[2].kind, TokKind::kString);
  EXPECT_EQ(t[2].text, "a\\\"b.cu");
  EXPECT_EQ(t[3].text, "ret");
  EXPECT_EQ(t[3].line, 4);
  EXPECT_EQ(t[3].col, 2);
}

TEST(Lexer, PunctuationAndSink) {
  auto t = lex_all("@!%p1 {_, %r2} %p|%q (a) <18> = -");
  std::string kinds;
  for (const auto& k : t) kinds += k.kind == TokKind::kPunct ? k.text[0] : 'w';
  EXPECT_EQ(kinds, "@!w{w,w}w|w(w)<w>=-");
}

TEST(Lexer, RawSectionBody) {
  Lexer lx(".section .debug_str { $L:\n.b8 1,2\n } ret", "t.ptx");
  lx.next();
  lx.next();
  EXPECT_TRUE(lx.next().is('{'));
  EXPECT_EQ(lx.raw_until_close_brace(), " $L:\n.b8 1,2\n ");
  Token t = lx.next();
  EXPECT_EQ(t.text, "ret");
  EXPECT_EQ(t.line, 3);
}

TEST(Lexer, ErrorsCarryPosition) {
  for (std::string_view bad : {"0f3F80", "12abc", "\"open", "/* open", "#include", "0x", "%"}) {
    try {
      lex_all(std::string("  ") + std::string(bad));
      ADD_FAILURE() << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::kUnsupported);
      EXPECT_EQ(std::string(e.what()).rfind("t.ptx:1:3: error: ", 0), 0u) << e.what();
    }
  }
}

}  // namespace
}  // namespace simtsync::ptx
