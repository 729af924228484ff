#include "ptx/parser.h"

#include <charconv>
#include <functional>
#include <map>
#include <set>

#include "common/error.h"
#include "common/input_file.h"
#include "ptx/parser_cursor.h"
#include "ptx/parser_decl.h"
#include "ptx/parser_function.h"

namespace simtsync::ptx {
namespace {

// Module-level statements: header directives, variables, functions, files and sections.
class ModuleParser {
 public:
  ModuleParser(std::string_view text, const std::string& path) : c_(text, path) { m_.path = path; }

  Module parse() {
    while (c_.peek().kind != TokKind::kEnd) statement();
    check_unresolved();
    m_.finalize();
    return std::move(m_);
  }

 private:
  void statement() {
    Token t = c_.peek();
    if (!t.is_directive()) c_.fail(t, "expected a directive");
    c_.next();
    std::string_view d = t.text;
    if (d == ".version") {
      version();
    } else if (d == ".target") {
      do {
        m_.target.emplace_back(c_.expect_word("expected a target name").text);
      } while (c_.accept(','));
    } else if (d == ".address_size") {
      Token at = c_.peek();
      auto n = c_.expect_int("expected an address size");
      if (n != 32 && n != 64) c_.fail(at, "address size must be 32 or 64");
      m_.address_size = static_cast<unsigned>(n);
    } else if (d == ".file") {
      file();
    } else if (d == ".section") {
      Section s;
      s.name = std::string(c_.expect_word("expected a section name").text);
      s.body = std::string(c_.raw_braced_block());
      m_.sections.push_back(std::move(s));
    } else if (d == ".loc") {
      parse_loc(c_);  // outside functions a .loc describes nothing
    } else if (d == ".visible" || d == ".extern" || d == ".weak" || d == ".common") {
      Token next = c_.peek();
      if (!next.is_directive()) c_.fail(next, "expected a declaration after linkage");
      c_.next();
      declaration(next, std::string(d.substr(1)));
    } else {
      declaration(t, "");
    }
  }

  void declaration(const Token& head, std::string linkage) {
    if (head.text == ".entry" || head.text == ".func") {
      FunctionParser fp(c_, functions_, defined_, unresolved_);
      m_.functions.push_back(fp.parse(head, std::move(linkage)));
      return;
    }
    Space sp = space_from_name(split_dots(head.text)[0]);
    if (sp != Space::kGlobal && sp != Space::kShared && sp != Space::kConst && sp != Space::kLocal)
      c_.fail(head, "unsupported directive");
    m_.globals.push_back(parse_variable(c_, head, std::move(linkage), true));
    c_.expect(';', "expected ';' after declaration");
  }

  void version() {
    Token t = c_.next();
    auto dot = t.text.find('.');
    if (t.kind != TokKind::kDecFloat || dot == std::string_view::npos)
      c_.fail(t, "expected a version MAJOR.MINOR");
    auto major = t.text.substr(0, dot), minor = t.text.substr(dot + 1);
    auto r1 = std::from_chars(major.data(), major.data() + major.size(), m_.version_major);
    auto r2 = std::from_chars(minor.data(), minor.data() + minor.size(), m_.version_minor);
    if (r1.ec != std::errc() || r2.ec != std::errc() || r1.ptr != major.data() + major.size() ||
        r2.ptr != minor.data() + minor.size())
      c_.fail(t, "expected a version MAJOR.MINOR");
  }

  void file() {
    SourceFile f;
    Token at = c_.peek();
    auto idx = c_.expect_int("expected a file index");
    if (idx < 0 || idx > (1 << 30)) c_.fail(at, "file index out of range");
    f.index = static_cast<int>(idx);
    f.path = std::string(c_.expect_string("expected a file name").text);
    while (c_.accept(',')) f.extra += ", " + std::to_string(c_.expect_int("expected a number"));
    m_.files.push_back(std::move(f));
  }

  // A symbol operand names a module variable or a function, wherever in the module it is
  // declared (the decoder resolves the same names; anything else is no operand).
  void check_unresolved() {
    std::set<std::string_view> names(functions_.begin(), functions_.end());
    for (const auto& v : m_.globals) names.insert(v.name);
    for (const auto& u : unresolved_)
      if (!names.count(u.name)) c_.fail(u.at, "undeclared symbol " + u.name);
  }

  TokenCursor c_;
  Module m_;
  std::set<std::string, std::less<>> functions_;
  std::map<std::string, int, std::less<>> defined_;  // functions with a body -> line
  std::vector<SymbolUse> unresolved_;
};

}  // namespace

Module parse_module(std::string_view text, const std::string& path) {
  return ModuleParser(text, path).parse();
}

void check_module_header(std::string_view text, const std::string& path) {
  TokenCursor c(text, path);
  const Token t = c.peek();
  if (t.kind == TokKind::kEnd)
    c.fail(t, "empty PTX: a module must start with a .version directive");
  if (t.text != ".version") c.fail(t, "a PTX module must start with a .version directive");
}

Module load_module_file(const std::string& path) {
  const std::string text = read_input_file(path, "PTX file");
  check_module_header(text, path);
  return parse_module(text, path);
}

}  // namespace simtsync::ptx
