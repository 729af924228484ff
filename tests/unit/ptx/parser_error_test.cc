// Malformed or unsupported input stops with PATH:LINE:COL, the offending text and exit code 4;
// no input crashes or hangs the parser.
#include <gtest/gtest.h>

#include <random>

#include "common/error.h"
#include "ptx/parser.h"
#include "ptx_test_files.h"

namespace simtsync::ptx {
namespace {

std::string error_of(const std::string& text) {
  try {
    parse_module(text, "bad.ptx");
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kUnsupported);
    return e.what();
  }
  return "no error";
}

std::string kernel(const std::string& body) {
  return ".version 9.0\n.target sm_75\n.entry k()\n{\n.reg .b32 %r<4>;\n.reg .pred %p<2>;\n" +
         body + "\n}\n";
}

struct Case {
  const char* body;
  const char* want;  // expected message, starting at the position
};

TEST(ParserErrors, MessagesNamePositionAndText) {
  const Case cases[] = {
      {"frob.u32 %r1, %r2;", "7:1: error: unknown opcode: `frob.u32`"},
      {"add.u33 %r1, %r2, %r3;", "7:1: error: unknown modifier .u33: `add.u33`"},
      {"  add.u32 %r1, %r9, %r3;", "7:16: error: undeclared register: `%r9`"},
      {"mov.u32 %r1, %envreg3;", "7:14: error: undeclared register: `%envreg3`"},
      {"@%q1 bra L;", "7:2: error: undeclared register: `%q1`"},
      {"bra $L__nowhere;", "7:5: error: undefined label: `$L__nowhere`"},
      {"L: L: ret;", "7:4: error: duplicate label: `L`"},
      {"add.u32 %r1, %r2 %r3;", "7:18: error: expected ',' or ';' after operand: `%r3`"},
      {"ld.global.u32 %r1, [%r2+];", "7:25: error: expected an offset: `]`"},
      {"call.uni (r), missing, (a);", "7:1: error: call to undeclared function missing"},
      {"call.uni (r), %r1, (a);", "7:1: error: indirect calls are unsupported"},
      {".reg .b32 %r1;", "7:1: error: redeclared register %r1"},
      {".tex .u32 t;", "7:1: error: unsupported directive: `.tex`"},
      {"mov.u32 %r1, 0f3F80;", "7:14: error: malformed number: `0f3F80`"},
      {"mov.u32 %r1, 1 # 2;", "7:16: error: unexpected character: `#`"},
      {"{ ret;", "9:1: error: missing '}' at end of function body: `end of file`"},
  };
  for (const auto& c : cases) {
    std::string msg = error_of(kernel(c.body));
    EXPECT_EQ(msg.rfind("bad.ptx:", 0), 0u) << msg;
    EXPECT_NE(msg.find(c.want), std::string::npos) << c.body << " -> " << msg;
  }
}

TEST(ParserErrors, ModuleLevel) {
  EXPECT_NE(error_of(".version nine\n").find("bad.ptx:1:10: error: expected a version"),
            std::string::npos);
  EXPECT_NE(
      error_of(".version 9.0\nadd.u32 %r1;\n").find("bad.ptx:2:1: error: expected a directive"),
      std::string::npos);
  EXPECT_NE(error_of(".global .u32 x = ;").find("expected an initializer value: `;`"),
            std::string::npos);
  EXPECT_NE(error_of(".entry k( .param .u32 a").find("expected ',' or ')' after parameter"),
            std::string::npos);
  EXPECT_NE(error_of(".entry k() { .reg .b32 %r<99999999>; }").find("register count out of range"),
            std::string::npos);
  EXPECT_NE(error_of(".section .debug_str { .b8 0").find("missing '}'"), std::string::npos);
  EXPECT_NE(error_of(std::string(200, '{')).find("expected a directive"), std::string::npos);
}

// Every prefix of a real file, and randomly mangled copies, either parse or throw Error.
TEST(ParserErrors, TruncatedAndMangledFilesNeverCrash) {
  std::mt19937 rng(12345);
  const std::string alphabet = "{}[]();,.%@!|<>+-_: \n\"0123456789abcxyz$/*";
  for (const auto& path : test::all_ptx_files()) {
    std::string text = test::read_text(path);
    if (text.size() > 40000) continue;
    std::size_t step = std::max<std::size_t>(1, text.size() / 300);
    for (std::size_t n = 0; n < text.size(); n += step) {
      try {
        parse_module(std::string_view(text).substr(0, n), path);
      } catch (const Error& e) {
        ASSERT_EQ(e.code(), ExitCode::kUnsupported) << e.what();
      }
    }
    for (int round = 0; round < 150; ++round) {
      std::string mangled = text;
      int edits = 1 + static_cast<int>(rng() % 4);
      for (int k = 0; k < edits; ++k) {
        std::size_t at = rng() % mangled.size();
        switch (rng() % 3) {
          case 0:
            mangled[at] = alphabet[rng() % alphabet.size()];
            break;
          case 1:
            mangled.erase(at, 1 + rng() % 20);
            break;
          default:
            mangled.insert(at, 1, alphabet[rng() % alphabet.size()]);
            break;
        }
      }
      try {
        parse_module(mangled, path);
      } catch (const Error& e) {
        ASSERT_EQ(e.code(), ExitCode::kUnsupported) << e.what();
      }
    }
  }
}

}  // namespace
}  // namespace simtsync::ptx
