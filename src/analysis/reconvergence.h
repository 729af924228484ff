// Reconvergence points of the divergence points of one function, as a stack-based SIMT unit
// (seed 003 sec. II) needs them: for each branch, the PC at which its threads meet again.
//
// Contract:
//  - Entries exist for every `bra`/`brx` (guarded or not) and for every guarded `ret`/`exit`/
//    `trap` (threads that leave diverge from those that fall through). Other instructions have
//    no entry (lookups return std::nullopt).
//  - Convention kIpdom: the reconvergence PC is the first PC of the immediate post-dominator of
//    the branch's block, or kExitPc when that is the virtual EXIT node (e.g. an if whose arms
//    both return, or a loop that only leaves by returning). Blocks in infinite loops use the
//    Cfg's virtual exit edges, so every branch has an answer.
//  - Unreachable branches get entries too (post-dominators are total).
//  - Lookup by PC accepts any PC of the function (base_pc + 8 * index).
//
//  - Convention kIpdomCompat (the NVIDIA compatibility rule of seed 003 sec. IV-A-1): a branch
//    whose block dominates its immediate post-dominator reconverges there, as with kIpdom.
//    Otherwise it reconverges where its nearest dominating branch that dominates that
//    post-dominator reconverges (applied recursively); with no such branch, at EXIT.
#pragma once

#include <optional>
#include <vector>

#include "analysis/cfg.h"
#include "analysis/dominators.h"
#include "common/types.h"

namespace simtsync::analysis {

enum class Convention {
  kIpdom,        // immediate post-dominator (GPGPU-Sim's convention for PTX)
  kIpdomCompat,  // immediate post-dominator restricted by the compatibility rule
};
const char* convention_name(Convention c);  // "ipdom", "ipdom-compat"


// One divergence point and where it reconverges.
struct ReconvergencePoint {
  int inst = -1;                     // instruction index of the branch
  Pc pc = 0;                         // its PC
  NodeId block = kNoNode;            // its block
  NodeId reconverge_node = kNoNode;  // IPDOM block, or cfg.exit()
  Pc reconverge_pc = kExitPc;        // first PC of reconverge_node; kExitPc for EXIT
};

class ReconvergenceTable {
 public:
  // `pdom` must be DomTree::post_dominators(cfg).
  static ReconvergenceTable compute(const Cfg& cfg, const DomTree& pdom,
                                    Convention c = Convention::kIpdom);
  // Convenience: builds the Cfg and post-dominator tree itself.
  static ReconvergenceTable compute(const ptx::Function& f, Convention c = Convention::kIpdom);

  Convention convention() const { return convention_; }
  // All points in instruction order.
  const std::vector<ReconvergencePoint>& points() const { return points_; }
  const ReconvergencePoint* find_by_inst(int inst) const;
  const ReconvergencePoint* find_by_pc(Pc pc) const;
  std::optional<Pc> rpc_by_inst(int inst) const;
  std::optional<Pc> rpc_by_pc(Pc pc) const;

 private:
  Convention convention_ = Convention::kIpdom;
  Pc base_pc_ = 0;
  std::vector<ReconvergencePoint> points_;
  std::vector<int> slot_;  // instruction index -> position in points_, -1 when none
};

}  // namespace simtsync::analysis
