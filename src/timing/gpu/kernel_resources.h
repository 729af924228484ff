// Registers per thread of a kernel, as ptxas allocates them (`ptxas -v` on the module's PTX),
// for CTA occupancy. Where ptxas is absent the value falls back to a documented default, and
// the source is reported beside the statistics.
#pragma once

#include <map>
#include <string>

#include "ptx/ir.h"

namespace simtsync::gpu {

struct KernelResources {
  unsigned registers = 32;
  std::string source = "default";  // "ptxas", "config", "default"
};

class ResourceOracle {
 public:
  explicit ResourceOracle(unsigned override_registers) : override_(override_registers) {}
  KernelResources of(const ptx::Module& m, const std::string& kernel);

 private:
  unsigned override_;
  // ptxas runs once per module; its register counts for every kernel are kept.
  std::map<const ptx::Module*, std::map<std::string, unsigned>> ptxas_;
  std::map<std::pair<const ptx::Module*, std::string>, KernelResources> cache_;
};

}  // namespace simtsync::gpu
