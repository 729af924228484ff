// AWARE (seed 003 sec. IV-B): the split-table unit with delayed reconvergence, timed-out
// reconvergence, one-cycle insertion and lookup latencies and virtualized tables, each a key.
#include "config/plugin.h"
#include "simt/impl/split_table.h"

namespace simtsync::simt {

std::unique_ptr<IReconvergence> make_aware(Pc start, LaneMask threads,
                                           const config::PluginParams& p) {
  SplitTableOptions o;
  o.name = "aware";
  o.delayed = p.get_bool("delayed");
  o.timeout = static_cast<Cycle>(p.get_int("timeout"));
  o.insert_latency = static_cast<unsigned>(p.get_int("insert_latency"));
  o.lookup_latency = static_cast<unsigned>(p.get_int("lookup_latency"));
  o.st_entries = static_cast<unsigned>(p.get_int("st_entries"));
  o.rt_entries = static_cast<unsigned>(p.get_int("rt_entries"));
  return std::make_unique<SplitTable>(start, threads, o);
}

void declare_aware(config::PluginDecl& d) {
  const std::string src = "seed 003 sec. IV-B";
  d.add_bool("delayed", true,
             "aware: reconverge the exits of loops the SIMT-deadlock analysis flags at their safe "
             "post-dominator (Algorithm 2 without lines 10-14), enclosing branches recomputed",
             src + ", Fig. 6a")
      .add_int("timeout", 0, 0, 1'000'000'000,
               "aware: cycles threads may wait at a reconvergence point before they go on as a "
               "new split (0: off, as in the seed's Fig. 10 evaluation)",
               src + ", Fig. 6b and 11")
      .add_int("insert_latency", 1, 0, 1000,
               "aware: cycles before a new split-table entry is eligible for fetch",
               src + " (basic implementation)")
      .add_int("lookup_latency", 1, 0, 1000,
               "aware: cycles to read a split-table entry when the FIFO output changes, and a "
               "reconvergence-table entry before its reconverged split is inserted",
               src + " (basic implementation)")
      .add_int("st_entries", 32, 1, 64,
               "aware: physical split-table entries per warp; more splits spill to memory",
               src + ", Fig. 7 and 12")
      .add_int("rt_entries", 32, 1, 64,
               "aware: physical reconvergence-table entries per warp; more spill to memory",
               src + ", Fig. 7 and 12");
  SplitTable::declare_stats(d);
}

}  // namespace simtsync::simt
