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
//
// Uniformity (issue 13, on by default): Algorithm 1 as published flags every busy-wait whose
// exit reads memory a later write may change. A write can only be held back by the SIMT
// constraints when some lanes of the warp wait while others loop, so with the uniformity
// analysis (uniformity.h) a redefining write counts only when
//  - it is reachable and some exit branch of L is divergent (lanes leave in different
//    iterations and wait at R(L)), or it is reachable from the reconvergence point of a
//    divergent branch whose region holds all of L (lanes that did not enter L wait there);
//  - it is parallel through a divergent branch of its ParaBrSet.
// A loop the published algorithm flags but that keeps no write is a "busy-wait, warp-uniform":
// reported (seed_flagged, busy_wait), not flagged, not transformed. uniformity = false gives
// the published algorithm (flagged == seed_flagged).
//
// Self-advancing reads (issue 50, `tickets`, on by default, applied before the uniformity
// filter): a read that is an atomic which always changes its location (a fetch-and-add of a
// non-zero constant, inc, dec: inst_info.h) gives the lane a new value every time the loop
// repeats it, whatever other threads do; the loop does not wait for a write there (the
// cell-allocation loop of a tree build: `c = atomicAdd(&ncells, 1)` until the cells separate).
// A redefining write counts only through the reads it may redefine that are not such tickets; a
// loop left with none is `self_advancing`, not flagged, not a busy-wait. And an atomic that never
// changes its location (`atomicAdd(p, 0)`) is a read only, never a redefining write, in the
// published algorithm too (inst_info.h is_sync_write).
//
// Cost (issue 46): a loop whose body holds no shared read has no SharedReads, so its slice is
// not taken; SharedWrites(L) is not listed: the writes that may alias a read are found by
// address (base, then offset) and tested for reachability (loop_regions.h); the uniformity
// analysis runs only when some loop is flagged by the published algorithm (uniformity() builds
// it on first use otherwise).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "analysis/alias.h"
#include "analysis/cfg.h"
#include "analysis/dominators.h"
#include "analysis/loop_regions.h"
#include "analysis/loops.h"
#include "analysis/reconvergence.h"
#include "analysis/uniformity.h"

namespace simtsync::analysis {

struct DeadlockOptions {
  Convention convention = Convention::kIpdom;
  bool parallel = true;  // count writes in blocks parallel to the loop (stack units need them)
  bool distinct_params = true;  // alias.h rule 4d: kernel pointer arguments do not overlap
  bool uniformity = true;       // drop writes no lane of the warp can hold back (see above)
  bool tickets = true;          // self-advancing reads are no wait (see above)
};

struct RedefWrite {
  int inst = -1;
  bool reachable = false;  // BB(I_W) reachable from L
  bool parallel = false;   // BB(I_W) parallel to L
  std::vector<int> reads;  // the SharedReads it may redefine
};

struct LoopVerdict {
  int loop = -1;
  bool flagged = false;         // can SIMT-deadlock (the published verdict without uniformity)
  bool seed_flagged = false;    // Algorithm 1 as published
  bool busy_wait = false;       // seed_flagged, but warp-uniform: not a SIMT deadlock
  bool self_advancing = false;  // seed_flagged, but its writes only redefine `tickets`
  bool divergent_exit = false;  // some exit branch may split the warp
  std::vector<int> enclosing_divergent;  // divergent branches whose region holds the loop
  std::vector<int> exit_branches;        // ExitConds(L)
  std::vector<int> reads;                // SharedReads(L)
  std::vector<int> tickets;              // the reads of SharedReads(L) that advance by themselves
  std::vector<RedefWrite> redefs;        // RedefWrites(L) (after the uniformity filter)
  std::vector<RedefWrite> seed_redefs;   // RedefWrites(L) of the published algorithm
  bool spin_marked = false;  // the loop holds `pmevent 7` (SIMTSYNC_SPIN_LOOP ground truth)
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
    AnalysisBudget* budget = nullptr;  // may be null: no limit
  };
  static SimtDeadlock compute(const Inputs& in, const DeadlockOptions& o = {});

  const DeadlockOptions& options() const { return opts_; }
  const ReconvergenceTable& reconvergence() const { return rec_; }
  const AliasAnalysis& alias() const { return alias_; }
  const LoopRegions& regions() const { return regions_; }
  const std::vector<LoopVerdict>& verdicts() const { return verdicts_; }
  const Uniformity& uniformity() const;
  int num_flagged() const;
  int num_busy_waits() const;

 private:
  DeadlockOptions opts_;
  ReconvergenceTable rec_;
  AliasAnalysis alias_;
  const Cfg* cfg_ = nullptr;
  std::shared_ptr<const ReachingDefs> rd_;        // heap-held: uniformity_ points into it
  mutable std::optional<Uniformity> uniformity_;  // built when a verdict or a client needs it
  LoopRegions regions_;
  std::vector<LoopVerdict> verdicts_;
};

}  // namespace simtsync::analysis
