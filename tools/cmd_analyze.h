// `simtsync analyze FILE.ptx|FILE.cu`: control-flow facts per function (loops with their source
// lines, reconvergence points). The SIMT-deadlock report joins it with the analysis issue.
#pragma once

#include <string>

namespace simtsync::tools {

struct AnalyzeOptions {
  std::string path;
  std::string kernel;     // only this function ("" = all)
  bool dump = false;      // also print CFG, dominator trees
};

int cmd_analyze(const AnalyzeOptions& o);

// Loads a .ptx file, or compiles a .cu file with nvcc first (exit 4 when that fails).
std::string load_ptx_text(const std::string& path);

}  // namespace simtsync::tools
