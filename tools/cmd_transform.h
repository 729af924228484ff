// `simtsync transform FILE.ptx|FILE.cu -o OUT.ptx`: applies SSDE (seed 003 Algorithm 3) to the
// loops that can SIMT-deadlock and writes PTX that ptxas accepts. Prints what it changed, and
// every loop it could not fix with the reason, on stderr; stdout (without -o) is the PTX alone.
#pragma once

#include <string>

#include "cmd_analyze.h"

namespace simtsync::tools {

struct TransformOptions {
  std::string path;
  std::string output;  // "" = stdout
  bool compat = false;
  bool no_parallel = false;
  bool params_may_alias = false;
  AnalysisFlags flags;
  NvccOptions nvcc;
};

int cmd_transform(const TransformOptions& o);

// The options main.cc does not declare itself (nvcc pass-through, analysis switches).
void add_transform_extras(CLI::App* cmd, TransformOptions& o);

}  // namespace simtsync::tools
