// Token stream with lookahead and the diagnostics helpers every parser stage shares.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "ptx/lexer.h"

namespace simtsync::ptx {

class TokenCursor {
 public:
  TokenCursor(std::string_view text, std::string path) : lexer_(text, std::move(path)) {}

  const Token& peek(std::size_t k = 0);
  Token next();
  bool accept(char punct);  // consumes the punctuation when it is next
  Token expect(char punct, std::string_view what);
  Token expect_word(std::string_view what);
  Token expect_string(std::string_view what);
  // An integer literal with an optional leading '-'.
  std::int64_t expect_int(std::string_view what);
  // `{ ... }` kept verbatim; must be called with no token looked ahead.
  std::string_view raw_braced_block();
  std::string_view rest() const { return lexer_.rest(); }

  [[noreturn]] void fail(const Token& at, std::string_view what) const;
  const std::string& path() const { return lexer_.path(); }

 private:
  Lexer lexer_;
  std::deque<Token> ahead_;
};

// ".ptr.global.align" -> {"ptr", "global", "align"}; "ld.global.u32" -> {"ld", "global", "u32"}.
std::vector<std::string_view> split_dots(std::string_view word);

}  // namespace simtsync::ptx
