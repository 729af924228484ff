#include "analysis/inst_info.h"

namespace simtsync::analysis {
namespace {

using ptx::Opcode;
using ptx::Operand;

bool has_dest(Opcode op) {
  switch (op) {
    case Opcode::kSt: case Opcode::kRed: case Opcode::kBar: case Opcode::kBarrier:
    case Opcode::kMembar: case Opcode::kFence: case Opcode::kBra: case Opcode::kBrx:
    case Opcode::kCall: case Opcode::kRet: case Opcode::kExit: case Opcode::kTrap:
    case Opcode::kBrkpt: case Opcode::kNanosleep: case Opcode::kPmevent: case Opcode::kNop:
    case Opcode::kPrefetch: case Opcode::kPrefetchu:
      return false;
    default:
      return true;
  }
}

void collect(const Operand& o, std::vector<int>& out) {
  switch (o.kind) {
    case Operand::Kind::kReg:
      out.push_back(o.reg);
      if (o.reg2 >= 0) out.push_back(o.reg2);
      break;
    case Operand::Kind::kAddress:
      if (o.reg >= 0) out.push_back(o.reg);
      break;
    case Operand::Kind::kVector:
    case Operand::Kind::kList:
      for (const auto& e : o.elems) collect(e, out);
      break;
    default:
      break;
  }
}

}  // namespace

std::vector<int> defs(const ptx::Instruction& in) {
  std::vector<int> out;
  if (in.opcode == Opcode::kCall) {
    if (!in.operands.empty()) collect(in.operands[0], out);
    return out;
  }
  if (has_dest(in.opcode) && !in.operands.empty()) collect(in.operands[0], out);
  return out;
}

std::vector<int> uses(const ptx::Instruction& in) {
  std::vector<int> out;
  if (in.guard.reg >= 0) out.push_back(in.guard.reg);
  const bool skip_first = in.opcode == Opcode::kCall || has_dest(in.opcode);
  for (size_t i = skip_first ? 1 : 0; i < in.operands.size(); ++i) collect(in.operands[i], out);
  return out;
}

MemAccess memory(const ptx::Instruction& in) {
  MemAccess m;
  switch (in.opcode) {
    case Opcode::kLd: case Opcode::kLdu: m.read = true; m.addr = 1; break;
    case Opcode::kSt: m.write = true; m.addr = 0; break;
    case Opcode::kAtom: m.read = m.write = true; m.addr = 1; break;
    case Opcode::kRed: m.write = true; m.addr = 0; break;
    default: return m;
  }
  const ptx::InstAttrs a = in.attrs();
  m.space = a.space == ptx::Space::kNone ? ptx::Space::kGeneric : a.space;
  m.bytes = ptx::dtype_bytes(a.type) * (a.vec == 0 ? 1 : a.vec);
  if (m.addr >= static_cast<int>(in.operands.size()) ||
      in.operands[static_cast<size_t>(m.addr)].kind != Operand::Kind::kAddress)
    m.addr = -1;
  return m;
}

bool is_sync_space(ptx::Space s) {
  return s == ptx::Space::kGlobal || s == ptx::Space::kShared || s == ptx::Space::kGeneric;
}

bool is_sync_read(const ptx::Instruction& in) {
  const MemAccess m = memory(in);
  return m.read && is_sync_space(m.space);
}

bool is_sync_write(const ptx::Instruction& in) {
  const MemAccess m = memory(in);
  return m.write && is_sync_space(m.space);
}

bool is_blocking_barrier(const ptx::Instruction& in) {
  if (in.opcode != Opcode::kBar && in.opcode != Opcode::kBarrier) return false;
  return !in.attrs().arrive;
}

}  // namespace simtsync::analysis
