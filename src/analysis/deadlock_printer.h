// Text and JSON reports of the SIMT-deadlock analyses (Algorithm 1 and 2), shared by golden
// tests and `simtsync analyze`. Instructions are named by PTX text, block (PTX label or BB<i>)
// and source line: the innermost `.loc` outside the CUDA toolkit's headers, followed by the
// chain of call sites it was inlined at ("a.cu:1 (inlined at a.cu:9)"), else "PTXFILE:LINE".
// The chain is rebuilt from the `inlined_at` positions of the function's other .loc entries
// (nvcc states each level once), the nearest one to the instruction winning.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/safe_pdom.h"
#include "analysis/simt_deadlock.h"

namespace simtsync::analysis {

// Without the function: the outermost call site of inlined code (no chain).
std::string source_line(const ptx::Module* m, const ptx::Instruction& in);
// With the inline chain; `inst` indexes f.insts.
std::string source_line(const ptx::Module* m, const ptx::Function& f, int inst);

struct DeadlockReport {
  const ptx::Module* module = nullptr;  // for file names; may be null
  const Cfg* cfg = nullptr;
  const LoopInfo* loops = nullptr;
  const SimtDeadlock* dl = nullptr;
  const SafePdom* safe = nullptr;
  const std::vector<std::string>* calls_not_analysed = nullptr;  // may be null
  int inlined_calls = 0;
};

// One paragraph per loop; flagged loops list reads, redefining writes and SafePDom.
std::string format_deadlock(const DeadlockReport& r);
nlohmann::json deadlock_json(const DeadlockReport& r);

}  // namespace simtsync::analysis
