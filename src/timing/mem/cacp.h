// CACP: the cache part of CAWA (Lee, Arunkumar and Wu, "CAWA: Coordinated Warp Scheduling and
// Cache Prioritization for Critical Warp Acceleration of GPGPU Workloads", ISCA 2015), the L1
// data cache managed so that lines critical warps reuse stay. When an L1 runs it, this object
// replaces the L1's LRU tag array (L1Cache keeps the MSHRs, queues and hit pipe):
//  - the ways of every set are split in two: a critical partition (ways [0, critical_ways)) and
//    a non-critical one (the rest); replacement inside each is SRRIP with 2-bit re-reference
//    prediction values (RRPV: 0 on a hit, the victim is a way at 3, the partition ages until
//    one is);
//  - each line remembers its signature (the PC of the load that brought it, XOR its line
//    number unless mem.l1.cacp_signature is pc, cut to signature_bits) and whether a critical
//    (c_reuse) or a non-critical (nc_reuse) warp hit it;
//  - the critical cache block predictor (CCBP), 2-bit counters by signature, learns which
//    signatures critical warps reuse: +1 when a critical warp hits a line, -1 when a line it
//    predicted critical leaves with no critical hit. A fill whose signature counts >= 2 goes to
//    the critical partition, any other to the non-critical one. A fill takes a free way of its
//    own partition first, then a free way of the other one (an empty way costs nothing), and
//    only then evicts, always from its own partition;
//  - a SHiP table of 2-bit counters by signature (+1 on any hit, -1 when a line leaves without
//    one) sets the insertion RRPV in the non-critical partition: 2 (long) when the counter is
//    above 0, 3 (distant: the next victim, a low-priority insert) when it is 0; with
//    mem.l1.cacp_bypass such a fill is not installed at all. Critical fills go in at 2.
// A warp is critical while its SM's issue policy says so (critical_warps.h: the bit gCAWS
// publishes); the L1 reads the bit of the requesting warp when its load enters the cache.
// Training happens only on final outcomes (a hit that is served, a fill that is installed): a
// lookup refused and retried trains nothing. Stores and atomics do not train; a write-evict
// drops the line without training. docs/policies.md says which of these numbers the paper
// publishes and which are this model's choices.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "common/types.h"
#include "timing/mem/mem_params.h"
#include "timing/mem/packet.h"
#include "timing/mem/tag_array.h"
#include "timing/sched/critical_warps.h"

namespace simtsync::mem {

// The board and its statistics' order are the issue policy's (timing/sched/critical_warps.h).
using sched::CriticalWarps;
using sched::CacpStat;
using enum sched::CacpStat;

class Cacp {
 public:
  // Who sent a packet: its SM warp slot and the PC of its instruction (0: none).
  struct Requester {
    int slot = -1;
    Pc pc = 0;
  };
  using RequesterFn = std::function<Requester(const Packet&)>;

  // `index` maps lines to sets (the L1's own tag array, for its set-index function).
  Cacp(const CacpParams& p, const CacheGeometry& geo, const TagArray& index,
       const CriticalWarps* board, RequesterFn who);

  // Sectors of `line` present (0 when absent); no side effect.
  std::uint32_t probe(Addr line) const {
    const int w = find(line);
    return w < 0 ? 0 : valid_[static_cast<std::size_t>(w)];
  }
  // Load `p` is served by a hit: the line's RRPV goes to 0, the predictors learn.
  void hit(const Packet& p);
  // Load `p` missed; `fill_sent`: its fill request went down (the fill will install the line
  // with the signature remembered now).
  void miss(const Packet& p, bool fill_sent);
  // The fill of `line` came back with `sectors`: installs it (or bypasses it).
  void fill(Addr line, std::uint32_t sectors);
  // The fill of `line` will not be installed (a write evicted it while in flight).
  void forget(Addr line) { pending_.erase(line); }
  void invalidate(Addr line);

  unsigned critical_ways() const { return crit_ways_; }
  std::uint8_t ccbp(unsigned sig) const { return ccbp_[sig]; }
  std::uint8_t ship(unsigned sig) const { return ship_[sig]; }
  unsigned signature(const Packet& p) const { return signature(p.line, who_(p).pc); }
  unsigned signature(Addr line, Pc pc) const;
  // The way (0..assoc-1) within its set that holds `line`, or -1; its RRPV and reuse bits.
  int way_of(Addr line) const;
  unsigned rrpv(Addr line) const;
  const std::uint64_t* counters() const { return cnt_; }

 private:
  static constexpr Addr kUnused = ~Addr{0};
  static constexpr std::uint8_t kMaxRrpv = 3, kMaxCounter = 3, kCriticalAt = 2;
  int find(Addr line) const;  // index into the way arrays, or -1
  bool critical(const Packet& p, Requester* who = nullptr) const;
  // The victim among ways [first, last) of the set starting at `base` (SRRIP).
  std::size_t victim(std::size_t base, unsigned first, unsigned last);

  CacpParams p_;
  const TagArray& index_;
  const CriticalWarps* board_;
  RequesterFn who_;
  unsigned assoc_, line_, crit_ways_, mask_;
  std::vector<Addr> lines_;
  std::vector<std::uint32_t> valid_;
  std::vector<std::uint16_t> sig_;
  std::vector<std::uint8_t> rrpv_;
  // Per way: kCReuse (a critical warp hit it), kNcReuse (a non-critical one did), kPredicted
  // (the CCBP predicted it critical when it was installed).
  static constexpr std::uint8_t kCReuse = 1, kNcReuse = 2, kPredicted = 4;
  std::vector<std::uint8_t> reuse_;
  std::vector<std::uint8_t> ccbp_, ship_;
  std::unordered_map<Addr, std::uint16_t> pending_;  // line -> signature of its miss
  std::array<std::uint64_t, kCacpStatCount> own_{};
  std::uint64_t* cnt_;
};

}  // namespace simtsync::mem
