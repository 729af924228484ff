#include "ptx/printer.h"

#include <fmt/format.h>

#include <set>
#include <tuple>

namespace simtsync::ptx {
namespace {

std::string f32_text(std::uint64_t bits) {
  return fmt::format("0f{:08X}", static_cast<std::uint32_t>(bits));
}
std::string f64_text(std::uint64_t bits) {
  return fmt::format("0d{:016X}", bits);
}

std::string reg_name(const Function& f, int r) {
  if (r < 0 || static_cast<std::size_t>(r) >= f.regs.size())
    return "%<bad:" + std::to_string(r) + ">";
  return f.regs[static_cast<std::size_t>(r)].name;
}

std::string plus_offset(std::int64_t off) {
  return off == 0 ? "" : "+" + std::to_string(off);
}

std::string init_value(const InitValue& v) {
  switch (v.kind) {
    case InitValue::Kind::kInt:
      return std::to_string(v.i);
    case InitValue::Kind::kF32:
      return f32_text(v.fbits);
    case InitValue::Kind::kF64:
      return f64_text(v.fbits);
    case InitValue::Kind::kSymbol:
      return v.symbol + plus_offset(v.i);
    case InitValue::Kind::kGenericSymbol:
      return "generic(" + v.symbol + ")" + plus_offset(v.i);
  }
  return "0";
}

// Braces follow the array dimensions when the initializer fills the array; otherwise flat.
void init_list(std::string& out, const Variable& v, std::size_t dim, std::size_t& next,
               std::size_t stride) {
  out += '{';
  auto n = static_cast<std::size_t>(v.dims[dim]);
  std::size_t inner = stride / n;
  for (std::size_t k = 0; k < n; ++k) {
    if (k) out += ", ";
    if (dim + 1 < v.dims.size()) {
      init_list(out, v, dim + 1, next, inner);
    } else {
      out += init_value(v.init[next++]);
    }
  }
  out += '}';
}

std::string initializer(const Variable& v) {
  if (v.dims.empty() && v.init.size() == 1) return init_value(v.init[0]);
  std::size_t total = 1;
  bool nest = v.dims.size() > 1;
  for (auto d : v.dims) {
    if (d <= 0) nest = false;
    total *= d > 0 ? static_cast<std::size_t>(d) : 1;
  }
  std::string out;
  if (nest && total == v.init.size()) {
    std::size_t next = 0;
    init_list(out, v, 0, next, total);
    return out;
  }
  out = "{";
  for (std::size_t i = 0; i < v.init.size(); ++i) {
    if (i) out += ", ";
    out += init_value(v.init[i]);
  }
  return out + "}";
}

std::string variable(const Variable& v) {
  std::string s = v.linkage.empty() ? "" : "." + v.linkage + " ";
  s += std::string(".") + space_name(v.space);
  if (v.managed) s += " .attribute(.managed)";
  if (v.align) s += " .align " + std::to_string(v.align);
  if (v.vec > 1) s += " .v" + std::to_string(v.vec);
  s += std::string(" .") + dtype_name(v.type);
  if (v.ptr_attr) {
    s += " .ptr";
    if (v.ptr_space != Space::kNone) s += std::string(" .") + space_name(v.ptr_space);
    if (v.ptr_align) s += " .align " + std::to_string(v.ptr_align);
  }
  s += " " + v.name;
  for (auto d : v.dims) s += d < 0 ? std::string("[]") : "[" + std::to_string(d) + "]";
  if (!v.init.empty()) s += " = " + initializer(v);
  return s;
}

std::string reg_decl(const RegDecl& d) {
  std::string s = std::string("\t.reg .") + dtype_name(d.type) + " \t" + d.name;
  if (d.count >= 0) s += "<" + std::to_string(d.count) + ">";
  return s + ";\n";
}

std::string loc_line(const SrcLoc& l) {
  std::string s = fmt::format("\t.loc\t{} {} {}", l.file, l.line, l.column);
  if (l.function_name != nullptr) s += ", function_name " + *l.function_name;
  if (l.inlined_file || l.inlined_line || l.inlined_column)
    s += fmt::format(", inlined_at {} {} {}", l.inlined_file, l.inlined_line, l.inlined_column);
  return s + "\n";
}

void print_scope_open(std::string& out, const Scope& s) {
  out += "\t{\n";
  for (const auto& d : s.regs) out += reg_decl(d);
  for (const auto& v : s.vars) out += "\t" + variable(v) + ";\n";
}

void print_body(std::string& out, const Function& f) {
  out += "{\n";
  for (const auto& d : f.reg_decls) out += reg_decl(d);
  for (const auto& v : f.locals) out += "\t" + variable(v) + ";\n";
  out += "\n";
  std::size_t next_scope = 0, next_label = 0, next_pragma = 0;
  std::vector<std::size_t> open;
  SrcLoc cur;
  std::set<std::tuple<int, int, int>> seen;
  const auto& sc = f.scopes;
  for (std::size_t i = 0; i <= f.insts.size(); ++i) {
    auto at = static_cast<int>(i);
    bool labels_done = false;
    for (;;) {
      bool can_open = next_scope < sc.size() && sc[next_scope].begin == at &&
                      sc[next_scope].depth == static_cast<int>(open.size()) + 1;
      if (!open.empty() && sc[open.back()].end <= at && !can_open) {
        out += "\t}\n";
        open.pop_back();
        continue;
      }
      if (!labels_done) {
        labels_done = true;
        for (; next_label < f.labels.size() && f.labels[next_label].index <= at; ++next_label)
          out += f.labels[next_label].name + ":\n";
        for (; next_pragma < f.pragmas.size() && f.pragmas[next_pragma].first <= at; ++next_pragma)
          out += "\t.pragma " + f.pragmas[next_pragma].second + ";\n";
      }
      if (!can_open) break;
      print_scope_open(out, sc[next_scope]);
      open.push_back(next_scope++);
    }
    if (i == f.insts.size()) break;
    const Instruction& in = f.insts[i];
    if (in.loc != cur) {
      // ptxas wants the inlined_at position introduced by a .loc of its own first.
      std::tuple<int, int, int> at{in.loc.inlined_file, in.loc.inlined_line, in.loc.inlined_column};
      if (in.loc.inlined_file && !seen.count(at)) {
        SrcLoc plain;
        std::tie(plain.file, plain.line, plain.column) = at;
        out += loc_line(plain);
        seen.insert(at);
      }
      out += loc_line(in.loc);
      seen.insert({in.loc.file, in.loc.line, in.loc.column});
      cur = in.loc;
    }
    out += "\t" + print_instruction(f, in) + ";\n";
  }
  for (; !open.empty(); open.pop_back()) out += "\t}\n";
  out += "}\n";
}

void print_function(std::string& out, const Function& f) {
  if (!f.linkage.empty()) out += "." + f.linkage + " ";
  out += f.is_entry ? ".entry " : ".func ";
  if (!f.rets.empty()) {
    out += "(";
    for (std::size_t i = 0; i < f.rets.size(); ++i) out += (i ? ", " : "") + variable(f.rets[i]);
    out += ") ";
  }
  out += f.name + "(";
  for (std::size_t i = 0; i < f.params.size(); ++i)
    out += (i ? ",\n\t" : "\n\t") + variable(f.params[i]);
  out += f.params.empty() ? ")\n" : "\n)\n";
  for (const auto& d : f.perf_directives) out += d + "\n";
  if (f.is_declaration) {
    out += ";\n\n";
    return;
  }
  print_body(out, f);
  out += "\n";
}

}  // namespace

std::string print_operand(const Function& f, const Operand& op) {
  using K = Operand::Kind;
  auto join = [&](char open, char close) {
    std::string s(1, open);
    for (std::size_t i = 0; i < op.elems.size(); ++i)
      s += (i ? ", " : "") + print_operand(f, op.elems[i]);
    return s + close;
  };
  switch (op.kind) {
    case K::kReg: {
      std::string s = (op.negate ? "!" : "") + reg_name(f, op.reg);
      if (op.reg2 >= 0) s += "|" + reg_name(f, op.reg2);
      return s;
    }
    case K::kSpecial: {
      std::string s = std::string("%") + special_reg_name(op.sreg);
      if (op.component >= 0 && op.component <= 2) s += std::string(".") + "xyz"[op.component];
      return s;
    }
    case K::kImmInt:
      return std::to_string(op.imm);
    case K::kImmF32:
      return f32_text(op.fbits);
    case K::kImmF64:
      return f64_text(op.fbits);
    case K::kSymbol:
      return op.name + plus_offset(op.offset);
    case K::kLabel:
      return op.name;
    case K::kAddress: {
      if (op.reg < 0 && op.name.empty()) return "[" + std::to_string(op.offset) + "]";
      return "[" + (op.reg >= 0 ? reg_name(f, op.reg) : op.name) + plus_offset(op.offset) + "]";
    }
    case K::kVector:
      return join('{', '}');
    case K::kList:
      return join('(', ')');
    case K::kSink:
      return "_";
  }
  return "_";
}

std::string print_instruction(const Function& f, const Instruction& in) {
  std::string s;
  if (in.guard.reg >= 0) s += (in.guard.negate ? "@!" : "@") + reg_name(f, in.guard.reg) + " ";
  s += opcode_name(in.opcode);
  for (Mod m : in.mods) s += std::string(".") + mod_name(m);
  bool first = true;
  for (const auto& op : in.operands) {
    // call keeps empty return/argument lists in the IR but does not print them.
    if (in.opcode == Opcode::kCall && op.kind == Operand::Kind::kList && op.elems.empty()) continue;
    s += first ? " " : ", ";
    first = false;
    s += print_operand(f, op);
  }
  return s;
}

std::string print_module(const Module& m) {
  std::string out = "//\n// Printed by simtsync\n//\n\n";
  if (m.version_major || m.version_minor)
    out += fmt::format(".version {}.{}\n", m.version_major, m.version_minor);
  if (!m.target.empty()) {
    out += ".target ";
    for (std::size_t i = 0; i < m.target.size(); ++i) out += (i ? ", " : "") + m.target[i];
    out += "\n";
  }
  bool has_address_size = m.version_major > 2 || (m.version_major == 2 && m.version_minor >= 3);
  if (has_address_size || m.address_size != 64)
    out += fmt::format(".address_size {}\n", m.address_size);
  out += "\n";
  for (const auto& v : m.globals) out += variable(v) + ";\n";
  if (!m.globals.empty()) out += "\n";
  for (const auto& f : m.functions) print_function(out, f);
  for (const auto& file : m.files)
    out += fmt::format("\t.file\t{} \"{}\"{}\n", file.index, file.path, file.extra);
  for (const auto& s : m.sections) out += "\t.section\t" + s.name + "\n\t{" + s.body + "}\n";
  return out;
}

}  // namespace simtsync::ptx
