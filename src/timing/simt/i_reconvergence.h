// The reconvergence unit of one warp: decides which threads run next, and where.
//
// Contract: the core asks pc()/active() for the next instruction, executes it for the active
// threads, and then reports exactly one control outcome: advance() for straight-line code,
// branch() for a (possibly divergent) branch, call()/ret() for function calls, and exit() for
// threads that terminate. After every report the unit is in a state where pc()/active() name the
// next split to run (or finished() is true). Implementations: impl/ (ipdom_stack, ...).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/types.h"
#include "func/lane_mask.h"

namespace simtsync::simt {

using func::LaneMask;

// One row of the unit's state, for watchdog reports and tests.
struct ReconvergenceEntry {
  Pc pc = 0;
  Pc rpc = 0;
  LaneMask mask = 0;
  bool call = false;  // a call entry (seed 004 sec. 2.2.3)
};

class IReconvergence {
 public:
  virtual ~IReconvergence() = default;

  virtual Pc pc() const = 0;
  virtual LaneMask active() const = 0;
  virtual bool finished() const = 0;

  // The active threads executed a non-control instruction and go on at next_pc.
  virtual void advance(Pc next_pc) = 0;
  // The active threads executed a branch: `taken` go to target, the rest to fallthrough; they
  // reconverge at rpc (kExitPc: the function's virtual exit).
  virtual void branch(LaneMask taken, Pc target, Pc fallthrough, Pc rpc) = 0;
  // The active threads call a function starting at entry; they come back at return_pc.
  virtual void call(Pc entry, Pc return_pc) = 0;
  // The active threads return from the current function. Returns true when the whole call
  // (every thread that entered it) has returned and execution resumes in the caller.
  virtual bool ret() = 0;
  // `lanes` terminate for good (exit, or ret from the kernel).
  virtual void exit(LaneMask lanes) = 0;

  // Threads that entered the innermost call still in progress (those whose registers the
  // caller saved); 0 at kernel level.
  virtual LaneMask call_mask() const = 0;
  virtual std::vector<ReconvergenceEntry> entries() const = 0;
  virtual std::string name() const = 0;
};

}  // namespace simtsync::simt
