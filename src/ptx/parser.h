// PTX text -> IR. Accepts what nvcc 13 emits (PTX ISA 9.0) and the older syntax of the seeds.
#pragma once

#include <string>
#include <string_view>

#include "ptx/ir.h"

namespace simtsync::ptx {

// IR conventions the parser guarantees (the printer relies on the same ones):
//  - Registers: every declaration, scoped ones included, gets its own indices in
//    Function::regs, numbered in printed order: `.reg` parameters (rets, then params), top-level
//    `.reg` declarations, then each Scope's declarations in scope-opening order. Names resolve
//    through the open `{ }` scopes (inner first), so sibling scopes may reuse a name.
//  - call: always three operands {kList returns, kSymbol callee, kList arguments}; a list that
//    is absent in the source is empty (`call f, (a);` has an empty returns list, `call (r), f;`
//    an empty arguments list). Indirect calls (through a register) are rejected. The callee
//    must have been declared or defined earlier in the module (or be the function itself).
//  - bra/brx targets are kLabel operands; Function::finalize sets Operand::target. Undefined
//    labels are errors.
//  - Addresses: kAddress with reg >= 0 for `[%rd1+8]`, name for `[sym+4]`, neither for the
//    absolute `[0x100]`; offset holds the displacement (`[%rd1+-8]` -> -8).
//  - Symbol operands `sym+4` and initializer values `sym+4` / `generic(sym)+4` keep the offset
//    in Operand::offset / InitValue::i.
//  - Decimal float immediates (`1.5`) become kImmF64 in .f64 instructions and kImmF32
//    otherwise; in initializers they follow the variable's type the same way.
//  - `.loc` applies to every following instruction of the function until the next one;
//    `.pragma "x";` inside a body is stored as (index of the next instruction, "\"x\"").
//  - A `lo`/`hi` modifier of set/setp is the comparison (Mod::kLo/kHi); elsewhere it is the
//    half selector (Mod::kLoHalf/kHiHalf).
//
// Parses a whole module and finalizes it (labels resolved, blocks and PCs assigned).
// Anything malformed or unsupported throws simtsync::Error with ExitCode::kUnsupported and a
// message "PATH:LINE:COL: error: WHAT: `offending text`".
Module parse_module(std::string_view text, const std::string& path = "<input>");

// What a PTX file gets before it is parsed: empty text, or text whose first directive is not
// .version (PTX ISA: it must come first; ptxas rejects a module without it), is malformed
// input (ExitCode::kUnsupported, "PATH:LINE:COL: error: ..."). Inline test modules skip it.
void check_module_header(std::string_view text, const std::string& path);

// Reads, checks (check_module_header) and parses a file; an unreadable file is a usage error
// (exit 2).
Module load_module_file(const std::string& path);

}  // namespace simtsync::ptx
