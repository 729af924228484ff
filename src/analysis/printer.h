// Stable, human-readable text for the analysis results: used by golden tests, by
// `simtsync analyze`, and when debugging. Nodes are named by Cfg::name (PTX label, BB<i>,
// ENTRY, EXIT); PCs are hexadecimal; one fact per line, in node / loop / instruction order.
#pragma once

#include <string>

#include "analysis/cfg.h"
#include "analysis/dominators.h"
#include "analysis/loops.h"
#include "analysis/reconvergence.h"

namespace simtsync::analysis {

// "NAME [first,end) -> S1 S2" per node; virtual edges are marked "EXIT(virtual)".
std::string format_cfg(const Cfg& cfg);
// "NAME idom PARENT" per node of the tree ("-" for the root and for nodes outside the tree).
std::string format_dom_tree(const Cfg& cfg, const DomTree& tree);
// One paragraph per loop: header, depth, parent, blocks, latches, exits, exiting branches.
std::string format_loops(const Cfg& cfg, const LoopInfo& loops);
// "pc 0x.. (inst i, BLOCK) -> NAME pc 0x.." per reconvergence point ("EXIT" for kExitPc).
std::string format_reconvergence(const Cfg& cfg, const ReconvergenceTable& table);

}  // namespace simtsync::analysis
