// Declarations shared by module and function scope: variables in every state space, register
// declarations and `.loc` directives.
#pragma once

#include <string>
#include <vector>

#include "ptx/ir.h"
#include "ptx/parser_cursor.h"

namespace simtsync::ptx {

// State space named by a directive component ("global", "param", "reg", ...); kNone if none.
Space space_from_name(std::string_view s);

// Parses a variable declaration whose first token `head` (".global", ".param.align", ...) has
// been consumed. Stops before ';', ',' or ')'. Initializers only where allow_init.
Variable parse_variable(TokenCursor& c, const Token& head, std::string linkage, bool allow_init);

// Parses `.reg .b32 %r<9>, x;` after the `.reg` token `head`, through the ';'.
std::vector<RegDecl> parse_reg_decl(TokenCursor& c, const Token& head);

// Parses the operands of `.loc` (the directive itself consumed).
SrcLoc parse_loc(TokenCursor& c);

}  // namespace simtsync::ptx
