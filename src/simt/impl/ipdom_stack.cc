#include "simt/impl/ipdom_stack.h"

#include "config/plugin.h"

namespace simtsync::simt {

IpdomStack::IpdomStack(Pc start, LaneMask threads) {
  stack_.reserve(16);
  stack_.push_back({start, kNoRpc, threads, false});
  publish();
}

SplitState IpdomStack::current_state() const {
  SplitState st;
  st.pc = stack_.back().pc;
  st.active = stack_.back().mask;
  st.live = stack_.front().mask;
  return st;
}

void IpdomStack::on_advance(Pc next_pc) {
  stack_.back().pc = next_pc;
  settle();
}

void IpdomStack::on_branch(const BranchOutcome& b) {
  // The stack reconverges at the immediate post-dominator; it has no use for b.safe_rpc.
  LaneMask taken = b.taken;
  const Pc target = b.target, fallthrough = b.fallthrough, rpc = b.rpc;
  ReconvergenceEntry& top = stack_.back();
  LaneMask not_taken = top.mask & ~taken;
  taken &= top.mask;
  if (not_taken == 0 || taken == 0) {
    top.pc = taken ? target : fallthrough;
    settle();
    return;
  }
  if (stack_.size() > 1 && !top.call && top.rpc == rpc) {
    // The entry below already waits at this reconvergence point (a loop whose threads leave
    // one iteration at a time): replace the top instead of stacking a redundant wait entry.
    stack_.pop_back();
  } else {
    // The current entry waits at the reconvergence point for both paths.
    top.pc = rpc;
  }
  if (target != rpc) stack_.push_back({target, rpc, taken, false});
  if (fallthrough != rpc) stack_.push_back({fallthrough, rpc, not_taken, false});
  settle();
}

void IpdomStack::on_call(Pc entry, Pc return_pc) {
  ReconvergenceEntry& top = stack_.back();
  LaneMask mask = top.mask;
  top.pc = return_pc;
  stack_.push_back({entry, kNoRpc, mask, true});
}

bool IpdomStack::on_ret() {
  // Returning threads go to the function's virtual exit; entries waiting there pop, and the
  // call entry pops once it is reached.
  stack_.back().pc = kExitPc;
  return settle();
}

void IpdomStack::on_exit(LaneMask lanes) {
  for (auto& e : stack_) e.mask &= ~lanes;
  settle();
}

bool IpdomStack::settle() {
  bool returned = false;
  while (!stack_.empty()) {
    ReconvergenceEntry& top = stack_.back();
    if (stack_.size() == 1) break;  // the bottom entry stays (finished() checks its mask)
    if (top.lock != ReconvergenceEntry::Lock::kNone) break;  // lock entries: LockStack's rules
    if (top.mask == 0 || top.pc == top.rpc) {
      stack_.pop_back();
      continue;
    }
    if (top.call && top.pc == kExitPc) {
      stack_.pop_back();
      returned = true;
      // The caller resumes; its entry may itself be at its reconvergence point.
      continue;
    }
    break;
  }
  if (stack_.size() == 1 && stack_.front().pc == kExitPc) stack_.front().mask = 0;
  return returned;
}

LaneMask IpdomStack::call_mask() const {
  for (auto it = stack_.rbegin(); it != stack_.rend(); ++it)
    if (it->call) return it->mask;
  return 0;
}

std::vector<ReconvergenceEntry> IpdomStack::entries() const {
  return stack_;
}

}  // namespace simtsync::simt

namespace simtsync::simt {

// Registered in reconvergence.def. The stack has no parameters and no statistics of its own
// (pushes and pops show in the functional counters: branches, divergent_branches, calls).
std::unique_ptr<IReconvergence> make_ipdom_stack(Pc start, LaneMask threads,
                                                 const config::PluginParams&) {
  return std::make_unique<IpdomStack>(start, threads);
}
void declare_ipdom_stack(config::PluginDecl&) {}

}  // namespace simtsync::simt
