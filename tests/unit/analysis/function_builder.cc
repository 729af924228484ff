#include "function_builder.h"

#include <sstream>
#include <stdexcept>

namespace simtsync::analysis::test {

using ptx::Opcode;
using ptx::Operand;

ptx::Function build_function(const std::vector<std::string>& stmts, Pc base) {
  ptx::Function f;
  f.name = "test";
  f.is_entry = true;
  f.regs.push_back({"%p0", ptx::DType::kPred});
  for (const std::string& s : stmts) {
    if (!s.empty() && s.back() == ':') {
      f.labels.push_back({s.substr(0, s.size() - 1), static_cast<int>(f.insts.size())});
      continue;
    }
    std::istringstream in(s);
    std::string word;
    in >> word;
    ptx::Instruction inst;
    if (word == "@p" || word == "@!p") {
      inst.guard = {0, word == "@!p"};
      in >> word;
    }
    if (word == "bra") {
      inst.opcode = Opcode::kBra;
    } else if (word == "brx") {
      inst.opcode = Opcode::kBrx;
    } else if (word == "ret") {
      inst.opcode = Opcode::kRet;
    } else if (word == "exit") {
      inst.opcode = Opcode::kExit;
    } else if (word == "trap") {
      inst.opcode = Opcode::kTrap;
    } else if (word == "call") {
      inst.opcode = Opcode::kCall;
    } else {
      inst.opcode = Opcode::kNop;
    }
    for (std::string target; in >> target;) {
      Operand op;
      op.kind = Operand::Kind::kLabel;
      op.name = target;
      inst.operands.push_back(op);
    }
    f.insts.push_back(inst);
  }
  f.finalize(base);
  return f;
}

int label_inst(const ptx::Function& f, const std::string& name) {
  const int i = f.label_index(name);
  if (i < 0) throw std::runtime_error("no label " + name);
  return i;
}

std::vector<std::string> random_program(std::mt19937& rng) {
  const int labels = 1 + static_cast<int>(rng() % 6);
  const int len = 1 + static_cast<int>(rng() % 14);
  std::vector<std::string> s;
  auto label = [&] { return "L" + std::to_string(rng() % static_cast<unsigned>(labels)); };
  std::vector<int> at(static_cast<size_t>(labels));
  for (auto& a : at) a = static_cast<int>(rng() % static_cast<unsigned>(len + 1));
  for (int i = 0; i <= len; ++i) {
    for (int l = 0; l < labels; ++l)
      if (at[static_cast<size_t>(l)] == i) s.push_back("L" + std::to_string(l) + ":");
    if (i == len) break;
    switch (rng() % 8) {
      case 0:
        s.push_back("@p bra " + label());
        break;
      case 1:
        s.push_back("bra " + label());
        break;
      case 2:
        s.push_back("@p ret");
        break;
      case 3:
        s.push_back("ret");
        break;
      case 4:
        s.push_back("@p bra " + label());
        break;
      default:
        s.push_back("nop");
        break;
    }
  }
  return s;
}

}  // namespace simtsync::analysis::test
