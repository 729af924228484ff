// `simtsync transform FILE.ptx -o OUT.ptx`: applies SSDE (seed 003 Algorithm 3) and writes PTX
// that ptxas accepts. Prints what it changed on stderr.
#pragma once

#include <string>

namespace simtsync::tools {

struct TransformOptions {
  std::string path;
  std::string output;  // "" = stdout
  bool compat = false;
  bool no_parallel = false;
  bool params_may_alias = false;
};

int cmd_transform(const TransformOptions& o);

}  // namespace simtsync::tools
