// Text and JSON reports of the SIMT-deadlock analyses (Algorithm 1 and 2), shared by golden
// tests and `simtsync analyze`. Instructions are named by PTX text, block (PTX label or BB<i>)
// and source line: the CUDA line of the .loc, preferring the `inlined_at` line for code inlined
// from CUDA headers, else "PTXFILE:LINE".
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "analysis/safe_pdom.h"
#include "analysis/simt_deadlock.h"

namespace simtsync::analysis {

std::string source_line(const ptx::Module* m, const ptx::Instruction& in);

struct DeadlockReport {
  const ptx::Module* module = nullptr;  // for file names; may be null
  const Cfg* cfg = nullptr;
  const LoopInfo* loops = nullptr;
  const SimtDeadlock* dl = nullptr;
  const SafePdom* safe = nullptr;
};

// One paragraph per loop; flagged loops list reads, redefining writes and SafePDom.
std::string format_deadlock(const DeadlockReport& r);
nlohmann::json deadlock_json(const DeadlockReport& r);

}  // namespace simtsync::analysis
