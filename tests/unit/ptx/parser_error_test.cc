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
      {"mov.u32 %r1, %envreg3;", "7:14: error: grid-wide synchronization (cooperative launch"},
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

// Issue 45: module-level input that ptxas rejects and simtsync used to accept.
TEST(ParserErrors, WhatPtxasRejects) {
  const std::string head = ".version 9.0\n.target sm_75\n.address_size 64\n";
  // A second definition of a kernel or function (the first one used to run silently);
  // declarations before or after a definition are fine.
  EXPECT_NE(error_of(head + ".entry k()\n{\nret;\n}\n.entry k()\n{\nexit;\n}\n")
                .find("bad.ptx:8:8: error: duplicate definition of function k (first defined at "
                      "line 4): `k`"),
            std::string::npos);
  EXPECT_NE(error_of(head + ".func f()\n{\nret;\n}\n.entry f()\n{\nret;\n}\n")
                .find("8:8: error: duplicate definition of function f"),
            std::string::npos);
  EXPECT_EQ(error_of(head + ".func f();\n.func f()\n{\nret;\n}\n.func f();\n"), "no error");
  // An initializer with more elements than its variable holds.
  EXPECT_NE(error_of(head + ".global .u32 a[2] = {1, 2, 3};\n")
                .find("bad.ptx:4:19: error: initializer of a has 3 elements, more than the 2 it "
                      "holds: `=`"),
            std::string::npos);
  EXPECT_NE(error_of(head + ".global .u32 s = {1, 2};\n").find("more than the 1 it holds"),
            std::string::npos);
  EXPECT_NE(error_of(head + ".const .v2 .u32 m[2][2] = {{1,2},{3,4},{5,6},{7,8},{9,10}};\n")
                .find("has 10 elements, more than the 8 it holds"),
            std::string::npos);
  EXPECT_EQ(error_of(head + ".global .u32 a[3] = {1, 2};\n.global .u32 b[] = {1, 2, 3};\n"
                            ".global .v2 .u32 m[2][2] = {{1,2},{3,4},{5,6},{7,8}};\n"),
            "no error");
  // .maxntid/.reqntid: 1 to 3 positive thread counts.
  EXPECT_NE(error_of(head + ".entry k() .maxntid 0\n{\nret;\n}\n")
                .find("bad.ptx:4:21: error: .maxntid needs positive thread counts (1 to "
                      "2147483647): `0`"),
            std::string::npos);
  EXPECT_NE(error_of(head + ".entry k() .reqntid 16, 0\n{\nret;\n}\n")
                .find("4:25: error: .reqntid needs positive thread counts"),
            std::string::npos);
  EXPECT_NE(error_of(head + ".entry k() .reqntid 16, -1\n{\nret;\n}\n")
                .find(".reqntid needs positive thread counts"),
            std::string::npos);
  EXPECT_NE(error_of(head + ".entry k() .maxntid 1, 1, 1, 1\n{\nret;\n}\n")
                .find("4:30: error: .maxntid takes at most 3 thread counts (x, y, z)"),
            std::string::npos);
  EXPECT_NE(error_of(head + ".entry k() .maxntid\n{\nret;\n}\n")
                .find("5:1: error: expected 1 to 3 thread counts after .maxntid"),
            std::string::npos);
  // st.param (or any store or atomic) to a kernel's own parameter: they are read-only.
  const std::string k = ".entry k(.param .u64 p)\n{\n.reg .b64 %rd<3>;\n.reg .b32 %r<3>;\n";
  EXPECT_NE(error_of(head + k + "st.param.u64 [p], %rd1;\nret;\n}\n")
                .find("bad.ptx:8:14: error: st cannot write kernel parameter p (input "
                      "parameters are read-only): `[`"),
            std::string::npos);
  EXPECT_NE(error_of(head + k + "atom.param.add.u32 %r1, [p+4], 1;\nret;\n}\n")
                .find("8:25: error: atom cannot write kernel parameter p"),
            std::string::npos);
  // Reading them is fine, and so is st.param to a call's argument, also in a kernel.
  EXPECT_EQ(error_of(head + ".func g(.param .b64 a)\n{\nret;\n}\n" + k +
                     "ld.param.u64 %rd1, [p];\nmov.u64 %rd2, p;\n{\n.param .b64 a0;\n"
                     "st.param.b64 [a0], %rd1;\ncall.uni g, (a0);\n}\nret;\n}\n"),
            "no error");
  // A function's input parameters are read-only too; its return values are written.
  EXPECT_NE(error_of(head + ".func g(.param .b64 a)\n{\n.reg .b64 %rd<2>;\n"
                            "st.param.b64 [a], %rd1;\nret;\n}\n")
                .find("7:14: error: st cannot write function parameter a"),
            std::string::npos);
  EXPECT_EQ(error_of(head + ".func (.param .b64 r) g(.param .b64 a)\n{\n.reg .b64 %rd<2>;\n"
                            "ld.param.b64 %rd1, [a];\nst.param.b64 [r], %rd1;\nret;\n}\n"),
            "no error");
  // A symbol declared after its use resolves (the decoder's rule); an undeclared one does not.
  EXPECT_EQ(error_of(head + k + "mov.u64 %rd1, later;\nret;\n}\n.global .u32 later;\n"),
            "no error");
  EXPECT_NE(error_of(head + k + "mov.u64 %rd1, nowhere;\nret;\n}\n")
                .find("bad.ptx:8:15: error: undeclared symbol nowhere: `nowhere`"),
            std::string::npos);
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
