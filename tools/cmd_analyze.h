// `simtsync analyze FILE.ptx|FILE.cu`: per kernel, the loops Algorithm 1 flags as potential
// SIMT-induced deadlocks, the reads their exit depends on, the redefining writes and the safe
// post-dominator of Algorithm 2, each named by PTX label and CUDA source line; optionally the
// control-flow facts (loops, reconvergence points, CFG, dominator trees), JSON, or a
// detection-rate table over many files (seed 003 Table IV).
#pragma once

#include <string>
#include <vector>

namespace simtsync::tools {

struct AnalyzeOptions {
  std::vector<std::string> paths;  // one or more .ptx / .cu files
  std::string kernel;              // only this function ("" = all)
  bool dump = false;               // also print loops, reconvergence, CFG, dominator trees
  bool json = false;               // JSON instead of text
  bool table = false;              // detection table over all files (Table IV style)
  bool compat = false;             // reconvergence with the NVIDIA compatibility rule
  bool no_parallel = false;        // ignore parallel blocks (AWARE)
  bool params_may_alias = false;   // drop alias rule 4d (distinct kernel pointer arguments)
};

int cmd_analyze(const AnalyzeOptions& o);

// Loads a .ptx file, or compiles a .cu file with nvcc first (exit 4 when that fails).
std::string load_ptx_text(const std::string& path);

}  // namespace simtsync::tools
