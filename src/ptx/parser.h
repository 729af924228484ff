// PTX text -> IR. Accepts what nvcc 13 emits (PTX ISA 9.0) and the older syntax of the seeds.
#pragma once

#include <string>
#include <string_view>

#include "ptx/ir.h"

namespace simtsync::ptx {

// Parses a whole module and finalizes it (labels resolved, blocks and PCs assigned).
// Anything malformed or unsupported throws simtsync::Error with ExitCode::kUnsupported and a
// message "PATH:LINE:COL: error: WHAT: `offending text`".
Module parse_module(std::string_view text, const std::string& path = "<input>");

// Reads and parses a file; an unreadable file is a usage error (exit 2).
Module load_module_file(const std::string& path);

}  // namespace simtsync::ptx
