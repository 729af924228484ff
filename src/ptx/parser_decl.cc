#include "ptx/parser_decl.h"

#include <fmt/format.h>

#include <bit>
#include <cstdint>
#include <cstring>

namespace simtsync::ptx {
namespace {

constexpr int kMaxInitDepth = 16;
constexpr std::int64_t kMaxRegRange = 1 << 20;

bool is_name(const Token& t) {
  return t.kind == TokKind::kWord && !t.is_directive();
}

InitValue init_number(TokenCursor& c, DType type) {
  InitValue v;
  bool neg = c.accept('-');
  Token t = c.next();
  switch (t.kind) {
    case TokKind::kInt:
      v.kind = InitValue::Kind::kInt;
      v.i = static_cast<std::int64_t>(neg ? 0 - t.bits : t.bits);
      return v;
    case TokKind::kF32:
    case TokKind::kF64:
      if (neg) c.fail(t, "negated hexadecimal float");
      v.kind = t.kind == TokKind::kF32 ? InitValue::Kind::kF32 : InitValue::Kind::kF64;
      v.fbits = t.bits;
      return v;
    case TokKind::kDecFloat: {
      double d = neg ? -t.dval : t.dval;
      if (type == DType::kF32) {
        v.kind = InitValue::Kind::kF32;
        v.fbits = std::bit_cast<std::uint32_t>(static_cast<float>(d));
      } else {
        v.kind = InitValue::Kind::kF64;
        v.fbits = std::bit_cast<std::uint64_t>(d);
      }
      return v;
    }
    default:
      c.fail(t, "expected an initializer value");
  }
}

InitValue init_value(TokenCursor& c, DType type) {
  const Token& t = c.peek();
  if (!is_name(t)) return init_number(c, type);
  InitValue v;
  Token name = c.next();
  if (name.text == "generic" && c.peek().is('(')) {
    c.next();
    v.kind = InitValue::Kind::kGenericSymbol;
    v.symbol = std::string(c.expect_word("expected a symbol in generic()").text);
    c.expect(')', "expected ')'");
  } else {
    v.kind = InitValue::Kind::kSymbol;
    v.symbol = std::string(name.text);
  }
  if (c.accept('+')) v.i = c.expect_int("expected an offset");
  return v;
}

void parse_init(TokenCursor& c, DType type, int depth, std::vector<InitValue>& out) {
  if (depth > kMaxInitDepth) c.fail(c.peek(), "initializer nested too deeply");
  if (!c.accept('{')) {
    out.push_back(init_value(c, type));
    return;
  }
  if (c.accept('}')) return;
  do {
    parse_init(c, type, depth + 1, out);
  } while (c.accept(','));
  c.expect('}', "expected ',' or '}' in initializer");
}

}  // namespace

Space space_from_name(std::string_view s) {
  if (s == "global") return Space::kGlobal;
  if (s == "shared") return Space::kShared;
  if (s == "local") return Space::kLocal;
  if (s == "param") return Space::kParam;
  if (s == "const") return Space::kConst;
  if (s == "reg") return Space::kReg;
  return Space::kNone;
}

Variable parse_variable(TokenCursor& c, const Token& head, std::string linkage, bool allow_init) {
  Variable v;
  v.linkage = std::move(linkage);
  bool have_type = false;
  bool first = true;
  Token word = head;
  for (;;) {
    auto parts = split_dots(word.text);
    for (std::size_t i = 0; i < parts.size(); ++i) {
      std::string_view p = parts[i];
      bool last = i + 1 == parts.size();
      if (first) {
        v.space = space_from_name(p);
        if (v.space == Space::kNone) c.fail(word, "unknown state space");
        first = false;
      } else if (p == "align") {
        if (!last) c.fail(word, "expected an alignment after .align");
        auto a = c.expect_int("expected an alignment");
        if (a <= 0 || a > (1 << 16) || (a & (a - 1)) != 0) c.fail(word, "bad alignment");
        (v.ptr_attr ? v.ptr_align : v.align) = static_cast<unsigned>(a);
      } else if (p == "ptr") {
        v.ptr_attr = true;
      } else if (p == "attribute" && last) {
        // .attribute(.managed): CUDA's __managed__ variables (the only attribute PTX defines
        // for variables besides .unified, which names a UUID and is not supported).
        if (!c.accept('(')) c.fail(word, "expected '(' after .attribute");
        const Token a = c.next();
        if (a.text != ".managed") c.fail(a, "unsupported .attribute " + std::string(a.text));
        if (!c.accept(')')) c.fail(c.peek(), "expected ')' after the attribute");
        v.managed = true;
      } else if (p == "v2" || p == "v4" || p == "v8") {
        v.vec = static_cast<unsigned>(p[1] - '0');
      } else if (auto m = mod_from_name(p);
                 m && mod_category(*m) == ModCategory::kType && !have_type) {
        v.type = dtype_of_mod(*m);
        have_type = true;
      } else if (v.ptr_attr && space_from_name(p) != Space::kNone) {
        v.ptr_space = space_from_name(p);
      } else {
        c.fail(word, "unsupported variable attribute ." + std::string(p));
      }
    }
    if (!c.peek().is_directive()) break;
    word = c.next();
  }
  if (!have_type) c.fail(c.peek(), "expected a type in declaration");
  if (!is_name(c.peek())) c.fail(c.peek(), "expected a variable name");
  v.name = std::string(c.next().text);
  while (c.accept('[')) {
    if (c.accept(']')) {
      v.dims.push_back(-1);
      continue;
    }
    auto d = c.expect_int("expected an array dimension");
    if (d < 0) c.fail(c.peek(), "negative array dimension");
    v.dims.push_back(d);
    c.expect(']', "expected ']'");
  }
  if (c.peek().is('=')) {
    if (!allow_init) c.fail(c.peek(), "initializer not allowed here");
    const Token eq = c.next();
    parse_init(c, v.type, 0, v.init);
    // ptxas: "Greater number of elements in array initializer" (the rest would be cut off).
    std::uint64_t capacity = v.vec;
    bool unsized = false;
    for (auto d : v.dims) {
      if (d < 0) unsized = true;
      const auto n = static_cast<std::uint64_t>(d < 0 ? 1 : d);
      capacity = n != 0 && capacity > UINT64_MAX / n ? UINT64_MAX : capacity * n;
    }
    if (!unsized && v.init.size() > capacity)
      c.fail(eq, fmt::format("initializer of {} has {} elements, more than the {} it holds", v.name,
                             v.init.size(), capacity));
  }
  return v;
}

std::vector<RegDecl> parse_reg_decl(TokenCursor& c, const Token& head) {
  if (head.text != ".reg") c.fail(head, "unsupported register declaration");
  Token t = c.expect_word("expected a register type");
  auto parts = split_dots(t.text);
  std::optional<Mod> m =
      parts.size() == 1 && t.is_directive() ? mod_from_name(parts[0]) : std::nullopt;
  if (!m || mod_category(*m) != ModCategory::kType) c.fail(t, "unsupported register type");
  std::vector<RegDecl> out;
  do {
    if (!is_name(c.peek())) c.fail(c.peek(), "expected a register name");
    RegDecl d;
    d.type = dtype_of_mod(*m);
    d.name = std::string(c.next().text);
    if (c.accept('<')) {
      Token at = c.peek();
      auto n = c.expect_int("expected a register count");
      if (n < 0 || n > kMaxRegRange) c.fail(at, "register count out of range");
      d.count = static_cast<int>(n);
      c.expect('>', "expected '>'");
    }
    out.push_back(std::move(d));
  } while (c.accept(','));
  c.expect(';', "expected ';' after register declaration");
  return out;
}

SrcLoc parse_loc(TokenCursor& c) {
  auto small_int = [&](std::string_view what) {
    Token at = c.peek();
    auto v = c.expect_int(what);
    if (v < 0 || v > (1 << 30)) c.fail(at, "value out of range");
    return static_cast<int>(v);
  };
  SrcLoc l;
  l.file = small_int("expected a file index");
  l.line = small_int("expected a line number");
  l.column = small_int("expected a column number");
  while (c.accept(',')) {
    Token key = c.expect_word("expected function_name or inlined_at");
    if (key.text == "function_name") {
      l.function_name = intern_name(c.expect_word("expected a function name label").text);
    } else if (key.text == "inlined_at") {
      l.inlined_file = small_int("expected a file index");
      l.inlined_line = small_int("expected a line number");
      l.inlined_column = small_int("expected a column number");
    } else {
      c.fail(key, "unsupported .loc attribute");
    }
  }
  return l;
}

}  // namespace simtsync::ptx
