#include "analysis/inst_info.h"

#include <algorithm>
#include <cstdint>
#include <optional>

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

namespace {

// The immediate value operand of an atom (operand 2; cas has two) masked to the operation's
// width, with the mask; nullopt when the value is not an immediate or the type is a float.
struct AtomImmediate {
  std::uint64_t value, ones;
  ptx::Mod op;
};
std::optional<AtomImmediate> atom_immediate(const ptx::Instruction& in) {
  if (in.opcode != Opcode::kAtom || in.operands.size() != 3) return std::nullopt;
  const Operand& v = in.operands[2];
  const ptx::InstAttrs a = in.attrs();
  if (v.kind != Operand::Kind::kImmInt || !a.op || ptx::dtype_is_float(a.type)) return std::nullopt;
  const unsigned bits = 8 * ptx::dtype_bytes(a.type);
  const std::uint64_t ones = bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  return AtomImmediate{static_cast<std::uint64_t>(v.imm) & ones, ones, *a.op};
}

}  // namespace

bool is_sync_write(const ptx::Instruction& in) {
  const MemAccess m = memory(in);
  if (!m.write || !is_sync_space(m.space)) return false;
  if (const auto k = atom_immediate(in)) {
    if ((k->op == ptx::Mod::kAddOp || k->op == ptx::Mod::kOrOp || k->op == ptx::Mod::kXorOp) &&
        k->value == 0)
      return false;
    if (k->op == ptx::Mod::kAndOp && k->value == k->ones) return false;
  }
  return true;
}

bool is_self_advancing(const ptx::Instruction& in) {
  const auto k = atom_immediate(in);
  if (!k || !is_sync_space(memory(in).space)) return false;
  // add: any non-zero constant. inc: old >= b ? 0 : old + 1; dec: old == 0 || old > b ? b :
  // old - 1: both change the location whenever b > 0.
  return (k->op == ptx::Mod::kAddOp || k->op == ptx::Mod::kIncOp || k->op == ptx::Mod::kDecOp) &&
         k->value != 0;
}

bool is_warp_sync(const ptx::Instruction& in) {
  switch (in.opcode) {
    case Opcode::kShfl:
    case Opcode::kVote:
    case Opcode::kMatch:
    case Opcode::kRedux:
      return in.attrs().sync;
    case Opcode::kBar:  // bar.warp.sync
      return std::find(in.mods.begin(), in.mods.end(), ptx::Mod::kWarp) != in.mods.end();
    default:
      return false;
  }
}

bool is_blocking_barrier(const ptx::Instruction& in) {
  if (in.opcode != Opcode::kBar && in.opcode != Opcode::kBarrier) return false;
  return !in.attrs().arrive;
}

}  // namespace simtsync::analysis
