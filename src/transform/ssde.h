// Static SIMT-deadlock elimination (seed 003 Algorithm 3) on PTX.
//
// For every loop Algorithm 1 flags, the back edge is replaced by two edges: a forward edge to a
// switch block placed right before the loop's safe post-dominator (Algorithm 2), and a backward
// edge from the switch block to the loop header. A b32 register per switch block records which
// edge entered it (the PHI node of the algorithm lowered to moves): 0 on every original path,
// a value unique to the loop on its latch edge (`@%p mov.u32 %c, k` beside the latch branch).
// The switch tests the value, resets it to 0 and branches to the loop header; the default path
// falls through to the code that followed the safe post-dominator. Threads that left the loop
// and threads that iterate therefore meet at the switch block before the next iteration.
// Loops that share a switch block are served in rounds: their latches go to a join point after
// the tests, which sends every thread still iterating back to the tests together.
//
// Contract:
//  - Output is a module that parses (it is printed and re-parsed, so the IR is canonical) and
//    assembles with ptxas; functions without flagged loops are unchanged.
//  - Preserved: every original instruction and its order within its block, memory operations
//    and their order, all registers (new ones are added: %ssde_c<N>, %ssde_p<N>_<K>).
//    Not preserved: block boundaries, instruction indices/PCs, reconvergence points.
//  - A safe post-dominator at EXIT first merges the function's ret/exit instructions into one
//    `ret` at the end (the single-exit form the algorithm assumes).
//  - An indirect (brx) latch is unsupported input: simtsync::Error with ExitCode 4 naming
//    file:line:col.
//  - warnings: new loops that are not single-entry (the header does not dominate the switch
//    block), which the NVIDIA compatibility rule of seed 003 sec. IV-A-1 asks for.
//  - Fixed point (issue 13): only loops that can SIMT-deadlock are transformed (warp-uniform
//    busy-waits are left alone), one per header (the outermost flagged loop of a split header;
//    its back edges include the inner loop's). Input that is itself SSDE output keeps its
//    switch registers; new ones are numbered after them. The output is re-analysed with the
//    full analysis (calls inlined); while some loop is still flagged the transform is applied
//    again to the output, at most kMaxRounds times. Every loop still flagged after that is
//    listed in `unfixed` with the reason, so the result is either clean under re-analysis or
//    says exactly what is not.
//  - Refusals (issue 50): a flagged loop whose transform would park lanes at the switch block
//    with work their warp-mates wait for is left unchanged and listed in `unfixed` with the
//    reason: the safe post-dominator lies after an enclosing loop whose exit reads what the
//    parked lanes may still write in it (a lock held across the loop), or a warp-synchronous
//    instruction lies between the loop's exits and the switch block. A function whose transform
//    would leave a loop that reads memory entered other than through its header (the
//    re-analysis and these checks see natural loops only) is left unchanged, its flagged loops
//    listed.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "analysis/simt_deadlock.h"
#include "ptx/ir.h"

namespace simtsync::transform {

struct SsdeOptions {
  analysis::DeadlockOptions detect;
  bool split_loops = true;   // see analysis::AnalysisOptions
  bool inline_calls = true;  // for the re-analysis (the transform itself is per function)
};

inline constexpr int kMaxRounds = 3;

struct SsdeChange {
  std::string function;
  std::string loop_header;   // PTX label
  std::string switch_label;  // label of the switch block
  int case_value = 0;
};

struct SsdeResult {
  ptx::Module module;
  std::vector<SsdeChange> changes;
  std::vector<std::string> warnings;
  std::vector<std::string> unfixed;  // "FUNCTION: loop LABEL (SOURCE) ...: why"
  // Loops left untransformed because the transform would livelock, "FUNCTION\nLABEL" -> why.
  std::map<std::string, std::string> refused;
  int switch_blocks = 0;
  int first_switch_id = 0;  // %ssde_c<N>/$L__ssde_sw<N> numbering starts after the input's own
  int rounds = 0;
  bool changed() const { return !changes.empty(); }
};

SsdeResult ssde(const ptx::Module& m, const SsdeOptions& o = {});

}  // namespace simtsync::transform
