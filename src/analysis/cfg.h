// Control-flow graph of one PTX function, the common input of every analysis in this folder.
//
// Contract:
//  - Node ids: basic block i of Function::blocks is node i (so node ids of real blocks equal
//    block indices); then one virtual ENTRY node (num_blocks()) and one virtual EXIT node
//    (num_blocks() + 1). ENTRY has a single edge to block 0 (or to EXIT for an empty body).
//  - Edges per terminator (the last instruction of a block):
//      bra (unguarded)         -> its target
//      bra (guarded)           -> its target, then the fall-through block
//      brx                     -> every label operand it names, in operand order; when it names
//                                 none it is treated conservatively as reaching every labelled
//                                 block (then the fall-through when guarded)
//      ret / exit / trap       -> EXIT (guarded: EXIT, then the fall-through block)
//      anything else           -> the fall-through block (`call` is not an edge), or EXIT when
//                                 the block is the last of the function (falls off the end)
//    An unresolved branch target (-1) is an edge to EXIT. Duplicate edges are merged, keeping the
//    first position, so successor order is deterministic (taken target first).
//  - Every node reaches EXIT: each set of blocks that cannot (an infinite loop such as
//    `L: bra L;`, or a sink SCC of such blocks) gets one *virtual* edge to EXIT from its
//    textually last block (highest block index, normally the loop's bottom/latch). Exactly one
//    virtual edge is added per sink strongly connected component of the blocks that cannot
//    reach EXIT. Virtual edges are listed in succs/preds like real ones (so post-dominators are
//    total) and are reported by is_virtual_edge() so that loop exits can ignore them.
//  - Blocks unreachable from ENTRY stay in the graph; reachable() tells them apart.
//
// The Cfg keeps a pointer to the function; the function must outlive it and must not be
// modified (re-finalized) while the Cfg is in use.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "common/types.h"
#include "ptx/ir.h"

namespace simtsync::analysis {

using NodeId = int;
inline constexpr NodeId kNoNode = -1;

// Which way a graph is walked: kForward for dominators, kBackward for post-dominators.
enum class Direction { kForward, kBackward };

// A read-only view of a graph in one direction: the dominator engine's only input.
struct GraphView {
  NodeId root = kNoNode;
  const std::vector<std::vector<NodeId>>* succs = nullptr;  // edges in walking direction
  const std::vector<std::vector<NodeId>>* preds = nullptr;  // edges against it
  int size() const { return static_cast<int>(succs->size()); }
};

class Cfg {
 public:
  explicit Cfg(const ptx::Function& f);

  const ptx::Function& function() const { return *func_; }
  int size() const { return static_cast<int>(succs_.size()); }  // blocks + 2
  int num_blocks() const { return size() - 2; }
  NodeId entry() const { return num_blocks(); }
  NodeId exit() const { return num_blocks() + 1; }
  bool is_block(NodeId n) const { return n >= 0 && n < num_blocks(); }

  const std::vector<NodeId>& succs(NodeId n) const { return succs_[static_cast<size_t>(n)]; }
  const std::vector<NodeId>& preds(NodeId n) const { return preds_[static_cast<size_t>(n)]; }
  // True for the edges added so that infinite loops reach EXIT (not real control flow).
  bool is_virtual_edge(NodeId from, NodeId to) const;
  // Sources of the virtual edges to EXIT, ascending.
  const std::vector<NodeId>& virtual_exit_sources() const { return virtual_sources_; }
  // Reachable from ENTRY through real edges.
  bool reachable(NodeId n) const { return reachable_[static_cast<size_t>(n)] != 0; }

  const ptx::BasicBlock& block(NodeId n) const;  // n must be a block
  NodeId node_of_inst(int inst) const;           // block containing instruction `inst`
  int terminator(NodeId n) const;                // index of the block's last instruction
  // PC of the node's first instruction; kExitPc for EXIT (and for ENTRY of an empty function).
  Pc first_pc(NodeId n) const;
  // Label of the block, "ENTRY"/"EXIT" for the virtual nodes, "BB<i>" for unlabelled blocks.
  std::string name(NodeId n) const;

  GraphView view(Direction d) const;

 private:
  void add_edge(NodeId from, NodeId to);
  void add_terminator_edges(NodeId b);
  void connect_exitless_components();
  void compute_reachable();

  const ptx::Function* func_;
  std::vector<std::vector<NodeId>> succs_;
  std::vector<std::vector<NodeId>> preds_;
  std::vector<NodeId> virtual_sources_;
  std::vector<char> reachable_;
};

}  // namespace simtsync::analysis
