// Alias analysis for PTX memory addresses. Its precision decides the false-detection rate of
// the SIMT-deadlock analysis, so the rules are spelled out (docs/ssde.md repeats them):
//
//  1. Every address is described by (space, base, offset). The space is the instruction's
//     (ld.global, st.shared, ...); a generic access takes the space its pointer was converted
//     from or to (cvta.to.global %rd -> global, cvta.shared -> shared), else stays generic.
//  2. The base is the pointer's provenance, found by following reaching definitions of the
//     address register through mov, cvt, cvta, add/sub (with any operand) and or/and of an
//     immediate: a kernel parameter (`ld.param [P]`), a named variable (`mov %rd, sym`,
//     `[sym+4]`, a module or function .shared/.global/.const variable), or unknown (a pointer
//     loaded from memory, a function argument, a value merged from different bases).
//  3. The offset is a constant when every path adds the same constants to the base; adding a
//     register (an index) or going round a loop makes it unknown.
//  4. Two accesses MAY alias unless one of these proves otherwise:
//     a. their spaces are known, not generic, and different (global vs shared vs local);
//     b. their bases are two different named variables;
//     c. their bases are the same and both offsets are known and the byte ranges
//        [offset, offset + size) do not overlap.
//     d. (only with distinct_params, the default) their bases are two different kernel
//        parameters, or a kernel parameter and a named variable: each pointer argument is
//        assumed to point into its own allocation. CUDA does not promise this without
//        __restrict__, so `distinct_params = false` (`--params-may-alias`) drops the rule;
//        docs/ssde.md reports the detection rates both ways.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/cfg.h"
#include "analysis/reaching_defs.h"

namespace simtsync::analysis {

struct AddressInfo {
  enum class Base { kUnknown, kParam, kVariable, kAbsolute };
  ptx::Space space = ptx::Space::kGeneric;  // effective space (see rule 1)
  Base base = Base::kUnknown;
  std::string name;                         // parameter or variable name
  bool offset_known = false;
  std::int64_t offset = 0;
  unsigned bytes = 0;
  // "global param:lock+0 (4 bytes)" style, for reports.
  std::string describe() const;
};

class AliasAnalysis {
 public:
  // `module` (may be null) resolves module-scope variables; the function's own are always used.
  static AliasAnalysis compute(const Cfg& cfg, const ReachingDefs& rd,
                               const ptx::Module* module = nullptr, bool distinct_params = true);

  // Address of a memory instruction (analysis::memory(in).is_access()); unknown otherwise.
  const AddressInfo& address(int inst) const {
    const int k = slot_[static_cast<size_t>(inst)];
    return k < 0 ? unknown_ : addr_[static_cast<size_t>(k)];
  }
  bool may_alias(int inst_a, int inst_b) const;
  static bool may_alias(const AddressInfo& a, const AddressInfo& b, bool distinct_params);

 private:
  bool distinct_params_ = true;
  // A record per memory access (slot_: instruction -> its record, -1 for the others): most
  // instructions are not accesses, and a record is 64 bytes.
  std::vector<int> slot_;
  std::vector<AddressInfo> addr_;
  AddressInfo unknown_;
};

}  // namespace simtsync::analysis
