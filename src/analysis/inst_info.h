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
// A sync-space write that can change memory: an atomic that always leaves the location as it
// found it (`atom.add` of 0, `atom.or`/`atom.xor` of 0, `atom.and` of all ones: the
// `atomicAdd(p, 0)` idiom for an uncached read) reads only, so it is no write here.
bool is_sync_write(const ptx::Instruction& in);
// An atomic that always changes its location: `atom.add` of a non-zero immediate, `atom.inc` /
// `atom.dec` with a positive immediate bound. A loop that repeats it advances the value it
// reads by itself (a fetch-and-add "ticket"), so its result is not a wait for another thread.
bool is_self_advancing(const ptx::Instruction& in);
// A warp-synchronous instruction every member of its mask must reach together: shfl.sync,
// vote.sync, match.sync, redux.sync, bar.warp.sync.
bool is_warp_sync(const ptx::Instruction& in);
// bar.sync / barrier.sync / bar.red (not bar.arrive, which does not wait).
bool is_blocking_barrier(const ptx::Instruction& in);

}  // namespace simtsync::analysis
