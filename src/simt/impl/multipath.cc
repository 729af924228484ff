// Multi-Path (ElTantawy et al., HPCA 2014, as seed 003 sec. IV-B summarizes it): the split and
// reconvergence tables with reconvergence at immediate post-dominators, splits of parallel
// paths interleaved at branch granularity in FIFO order. No keys: AWARE (aware.cc) is the same
// tables with its additions switched on. Statistics: the tables' (SplitTable::declare_stats).
#include "config/plugin.h"
#include "simt/impl/split_table.h"

namespace simtsync::simt {

std::unique_ptr<IReconvergence> make_multipath(Pc start, LaneMask threads,
                                               const config::PluginParams&) {
  SplitTableOptions o;
  o.name = "multipath";
  return std::make_unique<SplitTable>(start, threads, o);
}

void declare_multipath(config::PluginDecl& d) {
  SplitTable::declare_stats(d);
}

}  // namespace simtsync::simt
