#include "ptx/parser_cursor.h"

namespace simtsync::ptx {

const Token& TokenCursor::peek(std::size_t k) {
  while (ahead_.size() <= k) {
    if (!ahead_.empty() && ahead_.back().kind == TokKind::kEnd) return ahead_.back();
    ahead_.push_back(lexer_.next());
  }
  return ahead_[k];
}

Token TokenCursor::next() {
  Token t = peek();
  if (t.kind != TokKind::kEnd) ahead_.pop_front();
  return t;
}

bool TokenCursor::accept(char punct) {
  if (!peek().is(punct)) return false;
  next();
  return true;
}

Token TokenCursor::expect(char punct, std::string_view what) {
  if (!peek().is(punct)) fail(peek(), what);
  return next();
}

Token TokenCursor::expect_word(std::string_view what) {
  if (peek().kind != TokKind::kWord) fail(peek(), what);
  return next();
}

Token TokenCursor::expect_string(std::string_view what) {
  if (peek().kind != TokKind::kString) fail(peek(), what);
  return next();
}

std::int64_t TokenCursor::expect_int(std::string_view what) {
  bool neg = accept('-');
  if (peek().kind != TokKind::kInt) fail(peek(), what);
  auto v = static_cast<std::int64_t>(next().bits);
  return neg ? static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(v)) : v;
}

std::string_view TokenCursor::raw_braced_block() {
  Token open = lexer_.next();
  if (!open.is('{')) fail(open, "expected '{'");
  return lexer_.raw_until_close_brace();
}

void TokenCursor::fail(const Token& at, std::string_view what) const {
  std::string_view text = at.text;
  std::string quoted;
  if (at.kind == TokKind::kEnd) text = "end of file";
  if (at.kind == TokKind::kString) {
    quoted = "\"" + std::string(at.text) + "\"";
    text = quoted;
  }
  lexer_.fail(at.line, at.col, what, text);
}

std::vector<std::string_view> split_dots(std::string_view word) {
  std::vector<std::string_view> out;
  std::size_t start = word.size() > 0 && word[0] == '.' ? 1 : 0;
  while (start <= word.size()) {
    std::size_t dot = word.find('.', start);
    if (dot == std::string_view::npos) dot = word.size();
    out.push_back(word.substr(start, dot - start));
    start = dot + 1;
  }
  return out;
}

}  // namespace simtsync::ptx
