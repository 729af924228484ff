// Seed 003 Algorithm 1: loops that may cause a SIMT-induced deadlock on a stack-based SIMT unit.
//
// For each loop L: SharedReads = global/shared/generic reads inside L that L's exit branches
// depend on (backward slice, slices.h); SharedWrites = global/shared/generic writes in blocks
// reachable from L's reconvergence point or parallel to L (loop_regions.h); RedefWrites = the
// writes that may alias a read (alias.h). L is flagged when RedefWrites is not empty.
//
// Contract: one LoopVerdict per loop, in LoopInfo order; instruction lists ascending. The
// result owns the alias analysis and loop regions it used, so clients (Algorithm 2, reports)
// see the same facts. Options pick the reconvergence convention and whether parallel blocks
// count (AWARE needs only reachable ones, seed 003 sec. IV-B).
#pragma once

#include <vector>

#include "analysis/alias.h"
#include "analysis/cfg.h"
#include "analysis/dominators.h"
#include "analysis/loop_regions.h"
#include "analysis/loops.h"
#include "analysis/reconvergence.h"

namespace simtsync::analysis {

struct DeadlockOptions {
  Convention convention = Convention::kIpdom;
  bool parallel = true;  // count writes in blocks parallel to the loop (stack units need them)
  bool distinct_params = true;  // alias.h rule 4d: kernel pointer arguments do not overlap
};

struct RedefWrite {
  int inst = -1;
  bool reachable = false;           // BB(I_W) reachable from L
  bool parallel = false;            // BB(I_W) parallel to L
  std::vector<int> reads;           // the SharedReads it may redefine
};

struct LoopVerdict {
  int loop = -1;
  bool flagged = false;
  std::vector<int> exit_branches;   // ExitConds(L)
  std::vector<int> reads;           // SharedReads(L)
  std::vector<int> writes;          // SharedWrites(L)
  std::vector<RedefWrite> redefs;   // RedefWrites(L)
  bool spin_marked = false;         // the loop holds `pmevent 7` (SIMTSYNC_SPIN_LOOP ground truth)
};

class SimtDeadlock {
 public:
  // All analyses the verdicts depend on; `module` may be null (see AliasAnalysis).
  struct Inputs {
    const Cfg* cfg;
    const DomTree* dom;
    const DomTree* pdom;
    const LoopInfo* loops;
    const ptx::Module* module;
  };
  static SimtDeadlock compute(const Inputs& in, const DeadlockOptions& o = {});

  const DeadlockOptions& options() const { return opts_; }
  const ReconvergenceTable& reconvergence() const { return rec_; }
  const AliasAnalysis& alias() const { return alias_; }
  const std::vector<LoopRegion>& regions() const { return regions_; }
  const std::vector<LoopVerdict>& verdicts() const { return verdicts_; }
  int num_flagged() const;

 private:
  DeadlockOptions opts_;
  ReconvergenceTable rec_;
  AliasAnalysis alias_;
  std::vector<LoopRegion> regions_;
  std::vector<LoopVerdict> verdicts_;
};

}  // namespace simtsync::analysis
