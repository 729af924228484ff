// Call inlining for the SIMT-deadlock analyses (interprocedural by inlining, issue 13). PTX
// from `nvcc -O0` or `-G` keeps device functions as `.func` bodies and turns atomics and fences
// into calls to ptxas builtins, so an intra-procedural Algorithm 1 sees neither the spin loop
// of an `acquire()` helper together with its caller's release, nor any memory access in it.
//
// Contract:
//  - The result is an analysis-only copy of `f` (not meant to be printed or assembled): every
//    `call` of a `.func` with a body in the module is replaced by the callee's body, with its
//    registers and labels renamed (suffix `$iN`), its `ld.param` of an argument turned into a
//    `mov` from the value the caller stored (`st.param [paramK]`), its `st.param` to the return
//    variable and the caller's `ld.param` of it turned into moves through a fresh register, and
//    its `ret` into a branch to the end of the inlined body. Instructions keep their `.loc`.
//  - Calls of the ptxas builtins nvcc -G emits (`__iAtomicCAS`, `__uAtomicAdd`,
//    `__ullAtomicExch`, ... and `__threadfence[_block|_system]`) become the generic `atom` /
//    `membar` they stand for.
//  - A call is left in place, and named in `not_analysed` with the reason, when its callee has
//    no body (an external declaration), has a body that traps unconditionally (the simulator's
//    lock-bit intrinsics), is already being inlined (recursion), lies deeper than
//    `max_depth`, would grow the body past `max_insts`, is indirect, guarded, or passes an
//    argument the inliner cannot follow (an aggregate or an address-taken parameter).
//  - Functions without calls come back unchanged (inlined_calls == 0, equal bodies).
#pragma once

#include <string>
#include <vector>

#include "ptx/ir.h"

namespace simtsync::analysis {

struct InlineOptions {
  int max_depth = 8;
  int max_insts = 100000;
};

struct InlineResult {
  ptx::Function function;
  int inlined_calls = 0;                  // calls replaced by a body or a builtin
  std::vector<std::string> not_analysed;  // "CALLEE (reason) at FILE:LINE", in order
};

// `f` makes at least one call: there is something to inline (else the result is a copy of f,
// which callers that can use f itself should not pay for).
bool makes_calls(const ptx::Function& f);

InlineResult inline_calls(const ptx::Module& m, const ptx::Function& f,
                          const InlineOptions& o = {});

}  // namespace simtsync::analysis
