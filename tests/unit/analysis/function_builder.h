// Test helper: builds a finalized ptx::Function from a terse statement list, so the analyses
// can be tested without the parser. Statements:
//   "L:"          a label
//   "bra L"       unguarded branch;  "@p bra L" / "@!p bra L" guarded (predicate %p0)
//   "brx"         indirect branch with no visible targets; "brx L1 L2" with label operands
//   "ret" "exit" "trap" (optionally guarded with "@p ")
//   "call" "nop"  or any other word: a plain instruction (`call` falls through)
#pragma once

#include <random>
#include <string>
#include <vector>

#include "ptx/ir.h"

namespace simtsync::analysis::test {

ptx::Function build_function(const std::vector<std::string>& stmts, Pc base = 0);

// Instruction index of the first instruction after label `name` (ASSERTs it exists).
int label_inst(const ptx::Function& f, const std::string& name);

// A random statement list (labels, conditional and unconditional branches, returns, nops) for
// property tests; every label is placed, some at the very end of the body.
std::vector<std::string> random_program(std::mt19937& rng);

}  // namespace simtsync::analysis::test
