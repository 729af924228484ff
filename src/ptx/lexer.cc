#include "ptx/lexer.h"

#include <cmath>
#include <cstdlib>

#include "common/error.h"

namespace simtsync::ptx {
namespace {

bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_word_char(char c) {
  return is_alpha(c) || is_digit(c) || c == '_' || c == '$';
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

constexpr std::string_view kPuncts = ",;:{}[]()<>+-@!|=";

}  // namespace

Lexer::Lexer(std::string_view src, std::string path) : src_(src), path_(std::move(path)) {}

void Lexer::fail(int line, int col, std::string_view what, std::string_view text) const {
  std::string shown(text.substr(0, 80));
  for (char& c : shown)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  throw unsupported_error(path_ + ":" + std::to_string(line) + ":" + std::to_string(col) +
                          ": error: " + std::string(what) + ": `" + shown + "`");
}

void Lexer::skip_space_and_comments() {
  while (pos_ < src_.size()) {
    char c = src_[pos_];
    if (c == '\n') {
      ++pos_;
      ++line_;
      line_start_ = pos_;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < src_.size() && src_[pos_ + 1] == '/') {
      while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
    } else if (c == '/' && pos_ + 1 < src_.size() && src_[pos_ + 1] == '*') {
      int line = line_, col = col_of(pos_);
      pos_ += 2;
      for (;;) {
        if (pos_ + 1 >= src_.size()) fail(line, col, "unterminated comment", "/*");
        if (src_[pos_] == '*' && src_[pos_ + 1] == '/') {
          pos_ += 2;
          break;
        }
        if (src_[pos_] == '\n') {
          ++line_;
          line_start_ = pos_ + 1;
        }
        ++pos_;
      }
    } else {
      return;
    }
  }
}

Token Lexer::make(TokKind kind, std::size_t begin, int line, int col) const {
  Token t;
  t.kind = kind;
  t.text = src_.substr(begin, pos_ - begin);
  t.line = line;
  t.col = col;
  return t;
}

Token Lexer::next() {
  skip_space_and_comments();
  int line = line_, col = col_of(pos_);
  std::size_t begin = pos_;
  if (pos_ >= src_.size()) return make(TokKind::kEnd, begin, line, col);
  char c = src_[pos_];
  if (is_digit(c)) return lex_number(begin, line, col);
  if (c == '"') return lex_string(begin, line, col);
  if (is_alpha(c) || c == '_' || c == '$' || c == '%' || c == '.')
    return lex_word(begin, line, col);
  if (kPuncts.find(c) != std::string_view::npos) {
    ++pos_;
    return make(TokKind::kPunct, begin, line, col);
  }
  fail(line, col, "unexpected character", src_.substr(begin, 1));
}

Token Lexer::lex_word(std::size_t begin, int line, int col) {
  ++pos_;
  for (;;) {
    if (pos_ >= src_.size()) break;
    char c = src_[pos_];
    if (is_word_char(c)) {
      ++pos_;
    } else if (c == '.' && pos_ + 1 < src_.size() && is_word_char(src_[pos_ + 1])) {
      ++pos_;
    } else if (c == ':' && pos_ + 2 < src_.size() && src_[pos_ + 1] == ':' &&
               is_word_char(src_[pos_ + 2])) {
      pos_ += 2;
    } else {
      break;
    }
  }
  Token t = make(TokKind::kWord, begin, line, col);
  if (t.text.size() == 1 && (t.text[0] == '%' || t.text[0] == '.'))
    fail(line, col, "malformed name", t.text);
  return t;
}

Token Lexer::lex_number(std::size_t begin, int line, int col) {
  auto at = [&](std::size_t p) { return p < src_.size() ? src_[p] : '\0'; };
  auto bad = [&]() -> Token {
    while (is_word_char(at(pos_)) || at(pos_) == '.') ++pos_;
    fail(line, col, "malformed number", src_.substr(begin, pos_ - begin));
  };
  char p = at(pos_ + 1);
  Token t;
  if (at(pos_) == '0' && (p == 'f' || p == 'F' || p == 'd' || p == 'D')) {
    std::size_t want = (p == 'f' || p == 'F') ? 8 : 16;
    pos_ += 2;
    std::uint64_t v = 0;
    std::size_t n = 0;
    while (hex_value(at(pos_)) >= 0) {
      v = (v << 4) | static_cast<std::uint64_t>(hex_value(at(pos_)));
      ++pos_;
      ++n;
    }
    if (n != want || is_word_char(at(pos_))) return bad();
    t = make(want == 8 ? TokKind::kF32 : TokKind::kF64, begin, line, col);
    t.bits = v;
    return t;
  }
  unsigned base = 10;
  if (at(pos_) == '0' && (p == 'x' || p == 'X')) {
    base = 16;
    pos_ += 2;
  } else if (at(pos_) == '0' && (p == 'b' || p == 'B')) {
    base = 2;
    pos_ += 2;
  } else if (at(pos_) == '0' && is_digit(p)) {
    base = 8;
    pos_ += 1;
  }
  if (base == 10) {
    while (is_digit(at(pos_))) ++pos_;
    bool is_float = false;
    if (at(pos_) == '.' && is_digit(at(pos_ + 1))) {
      is_float = true;
      ++pos_;
      while (is_digit(at(pos_))) ++pos_;
    }
    if ((at(pos_) == 'e' || at(pos_) == 'E') &&
        (is_digit(at(pos_ + 1)) ||
         ((at(pos_ + 1) == '+' || at(pos_ + 1) == '-') && is_digit(at(pos_ + 2))))) {
      is_float = true;
      pos_ += 2;
      while (is_digit(at(pos_))) ++pos_;
    }
    if (is_float) {
      if (is_word_char(at(pos_))) return bad();
      t = make(TokKind::kDecFloat, begin, line, col);
      t.dval = std::strtod(std::string(t.text).c_str(), nullptr);
      return t;
    }
    pos_ = begin;
  }
  std::uint64_t v = 0;
  bool overflow = false;
  std::size_t n = 0;
  for (;; ++pos_, ++n) {
    int d = hex_value(at(pos_));
    if (d < 0 || static_cast<unsigned>(d) >= base) break;
    std::uint64_t nv = v * base + static_cast<unsigned>(d);
    if (v > (~std::uint64_t{0} - static_cast<unsigned>(d)) / base) overflow = true;
    v = nv;
  }
  if (n == 0 && base != 8) return bad();
  if (at(pos_) == 'U') ++pos_;
  if (is_word_char(at(pos_)) || overflow) return bad();
  t = make(TokKind::kInt, begin, line, col);
  t.bits = v;
  return t;
}

Token Lexer::lex_string(std::size_t begin, int line, int col) {
  ++pos_;
  std::size_t body = pos_;
  while (pos_ < src_.size() && src_[pos_] != '"') {
    if (src_[pos_] == '\n')
      fail(line, col, "unterminated string", src_.substr(begin, pos_ - begin));
    if (src_[pos_] == '\\' && pos_ + 1 < src_.size() && src_[pos_ + 1] != '\n') ++pos_;
    ++pos_;
  }
  if (pos_ >= src_.size()) fail(line, col, "unterminated string", src_.substr(begin));
  Token t = make(TokKind::kString, begin, line, col);
  t.text = src_.substr(body, pos_ - body);
  ++pos_;
  return t;
}

std::string_view Lexer::raw_until_close_brace() {
  std::size_t begin = pos_;
  int line = line_, col = col_of(pos_);
  while (pos_ < src_.size() && src_[pos_] != '}') {
    if (src_[pos_] == '\n') {
      ++line_;
      line_start_ = pos_ + 1;
    }
    ++pos_;
  }
  if (pos_ >= src_.size()) fail(line, col, "missing '}' at end of section", "{");
  std::string_view body = src_.substr(begin, pos_ - begin);
  ++pos_;
  return body;
}

}  // namespace simtsync::ptx
