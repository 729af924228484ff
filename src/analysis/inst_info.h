// Register and memory effects of one PTX instruction, as the data-flow analyses of this folder
// (reaching definitions, slices, alias analysis, SIMT-deadlock detection) need them.
//
// Contract:
//  - defs(): registers the instruction writes: operand 0 of every opcode that has a
//    destination (setp/shfl `%p|%q` pairs give both, vector destinations give each element),
//    the return list of `call`. Stores, reductions, branches, barriers, fences have none.
//  - uses(): every other register operand (addresses, vector elements, call arguments), plus
//    the guard predicate. A register may appear twice.
//  - memory(): ld/ldu read; st/red write; atom reads and writes. The space is the one written
//    on the instruction (kGeneric when none). `addr` is the index of the kAddress operand.
//  - Sync-relevant memory ("shared memory" of seed 003: what can hold a synchronization
//    variable) is global, shared and generic memory; local, param and const are not.
#pragma once

#include <vector>

#include "ptx/ir.h"

namespace simtsync::analysis {

std::vector<int> defs(const ptx::Instruction& in);
std::vector<int> uses(const ptx::Instruction& in);

struct MemAccess {
  bool read = false;
  bool write = false;
  ptx::Space space = ptx::Space::kNone;  // kNone: not a memory access
  int addr = -1;                         // operand index of the address
  unsigned bytes = 0;                    // bytes accessed (vector width included)
  bool is_access() const { return read || write; }
};
MemAccess memory(const ptx::Instruction& in);

// Global, shared or generic (seed 003's "shared memory": may hold a synchronization variable).
bool is_sync_space(ptx::Space s);
bool is_sync_read(const ptx::Instruction& in);
bool is_sync_write(const ptx::Instruction& in);
// bar.sync / barrier.sync / bar.red (not bar.arrive, which does not wait).
bool is_blocking_barrier(const ptx::Instruction& in);

}  // namespace simtsync::analysis
