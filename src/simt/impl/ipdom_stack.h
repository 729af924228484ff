// The immediate-post-dominator reconvergence stack (seed 004 sec. 1.3.2; seed 003 sec. II):
// each entry holds PC, reconvergence PC and active mask; only the top entry runs. A divergent
// branch turns the top entry into a wait at the reconvergence point and pushes one entry per
// path, the not-taken path on top (it runs first, as on NVIDIA hardware; seed 003 sec. IV-A).
// Calls push a call entry whose RPC matches nothing, so threads at different recursion depths
// never reconverge (seed 004 sec. 2.2.3, Example 2).
#pragma once

#include <vector>

#include "simt/i_reconvergence.h"

namespace simtsync::simt {

class IpdomStack : public IReconvergence {
 public:
  IpdomStack(Pc start, LaneMask threads);

  LaneMask call_mask() const override;
  std::vector<ReconvergenceEntry> entries() const override;
  std::string name() const override { return "ipdom_stack"; }
  bool state_is_entries() const override { return true; }
  std::size_t depth() const { return stack_.size(); }

 protected:
  void on_advance(Pc next_pc) override;
  void on_branch(const BranchOutcome& b) override;
  void on_call(Pc entry, Pc return_pc) override;
  bool on_ret() override;
  void on_exit(LaneMask lanes) override;
  // The top entry runs; the bottom entry's mask is every live thread.
  SplitState current_state() const override;

  // Pops entries that reached their reconvergence point or lost all threads. Returns true when
  // a call entry was popped because its threads returned.
  virtual bool settle();

  std::vector<ReconvergenceEntry> stack_;
};

}  // namespace simtsync::simt
