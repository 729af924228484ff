// Pull-based tokenizer for PTX text. Tokens are views into the source, which must outlive the
// lexer. Whitespace and comments are skipped. Errors throw simtsync::Error (kUnsupported) with
// "PATH:LINE:COL: error: WHAT: `text`".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace simtsync::ptx {

enum class TokKind : std::uint8_t {
  kEnd,       // end of input
  kWord,      // identifier, directive (leading '.'), opcode with modifiers, register, label;
              // dots and "::" are part of the word: `ld.shared::cta.u32`, `%tid.x`, `.ptr.global`
  kInt,       // integer literal; value in bits (two's complement), `U` suffix dropped
  kF32,       // 0fXXXXXXXX, bits in bits
  kF64,       // 0dXXXXXXXXXXXXXXXX, bits in bits
  kDecFloat,  // 1.5, 2e-3 (value in dval)
  kString,    // "..." (text holds the characters between the quotes, escapes as written)
  kPunct,     // one of , ; : { } [ ] ( ) < > + - @ ! | =
};

struct Token {
  TokKind kind = TokKind::kEnd;
  std::string_view text;
  int line = 0;
  int col = 0;
  std::uint64_t bits = 0;
  double dval = 0;

  bool is(char c) const { return kind == TokKind::kPunct && text.size() == 1 && text[0] == c; }
  bool is_word(std::string_view w) const { return kind == TokKind::kWord && text == w; }
  bool is_directive() const { return kind == TokKind::kWord && !text.empty() && text[0] == '.'; }
  bool is_number() const {
    return kind == TokKind::kInt || kind == TokKind::kF32 || kind == TokKind::kF64 ||
           kind == TokKind::kDecFloat;
  }
};

class Lexer {
 public:
  Lexer(std::string_view src, std::string path);

  Token next();

  // The raw text from the current position up to the next '}', which is consumed; for
  // `.section` bodies that are kept verbatim. Throws when there is no '}'.
  std::string_view raw_until_close_brace();

  // The text not yet lexed (tokens a cursor peeked are already behind it); for estimates.
  std::string_view rest() const { return src_.substr(pos_); }

  [[noreturn]] void fail(int line, int col, std::string_view what, std::string_view text) const;
  const std::string& path() const { return path_; }

 private:
  void skip_space_and_comments();
  Token make(TokKind kind, std::size_t begin, int line, int col) const;
  Token lex_word(std::size_t begin, int line, int col);
  Token lex_number(std::size_t begin, int line, int col);
  Token lex_string(std::size_t begin, int line, int col);
  int col_of(std::size_t pos) const { return static_cast<int>(pos - line_start_) + 1; }

  std::string_view src_;
  std::string path_;
  std::size_t pos_ = 0;
  int line_ = 1;
  std::size_t line_start_ = 0;
};

}  // namespace simtsync::ptx
