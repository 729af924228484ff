// CACP (mem/cacp.h), CAWA's cache part: the predictors' training and prediction traced by hand
// on a small cache, then inside an L1 beside plain LRU.
#include "timing/mem/cacp.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "timing/mem/l1_cache.h"

namespace simtsync::mem {
namespace {

// 4 sets of 4 ways, 128-byte lines: lines 0, 512, 1024, ... share set 0.
const CacheGeometry kGeo{2048, 4, 128, 32};
constexpr Addr kSet0 = 512;  // distance between two lines of one set

// Packets name their requester by `req`: the warp slot; the PC comes from `pcs`.
struct Rig {
  explicit Rig(CacpParams p = pc_only()) : tags(kGeo), cacp(p, kGeo, tags, &board, who()) {
    board.set(0, true);   // slot 0: a critical warp
    board.set(1, false);  // slot 1: not critical
  }
  static CacpParams pc_only() {
    CacpParams p;
    p.signature_line = false;  // signature = PC / 8, so a hand trace knows it
    return p;
  }
  Cacp::RequesterFn who() {
    return [this](const Packet& p) {
      return Cacp::Requester{static_cast<int>(p.req), pcs.count(p.req) ? pcs.at(p.req) : 0};
    };
  }
  Packet load(Addr line, int slot, Pc pc) {
    pcs[static_cast<std::uint32_t>(slot)] = pc;
    Packet p;
    p.line = line;
    p.sectors = 1;
    p.req = static_cast<std::uint32_t>(slot);
    return p;
  }
  // A load that misses, sends its fill and gets it back.
  void miss_and_fill(Addr line, int slot, Pc pc) {
    cacp.miss(load(line, slot, pc), true);
    cacp.fill(line, 0xf);
  }
  std::uint64_t stat(CacpStat s) const { return cacp.counters()[s]; }

  CriticalWarps board;
  std::map<std::uint32_t, Pc> pcs;
  TagArray tags;
  Cacp cacp;
};

constexpr Pc kPcA = 0x100;  // signature 0x20
constexpr Pc kPcB = 0x200;  // signature 0x40
constexpr unsigned kSigA = 0x20, kSigB = 0x40;

TEST(Cacp, SignaturesArePcIndexOptionallyXorLineNumber) {
  Rig r;
  EXPECT_EQ(r.cacp.signature(kSet0 * 3, kPcA), kSigA);
  CacpParams p;  // pc_line, 8 bits
  Rig x(p);
  EXPECT_EQ(x.cacp.signature(kSet0 * 3, kPcA), (0x20u ^ 12u));  // line 1536 is line number 12
  EXPECT_EQ(x.cacp.signature(Addr{128} * 0x123, 0), 0x23u);     // cut to 8 bits
  EXPECT_EQ(r.cacp.critical_ways(), 2u);                        // half of 4 ways
}

// The example traced by hand: a critical warp's reuse trains CCBP until its signature's next
// line goes to the critical partition.
TEST(Cacp, CriticalHitsTrainTheCcbpUntilFillsGoToTheCriticalPartition) {
  Rig r;
  EXPECT_EQ(r.cacp.ccbp(kSigA), 0);
  EXPECT_EQ(r.cacp.ship(kSigA), 1);
  // Line 0 by the critical warp: CCBP 0 < 2, so the non-critical partition (ways 2, 3), first
  // free way; SHiP 1 > 0, so the long interval (RRPV 2).
  r.miss_and_fill(0, 0, kPcA);
  EXPECT_EQ(r.cacp.way_of(0), 2);
  EXPECT_EQ(r.cacp.rrpv(0), 2u);
  EXPECT_EQ(r.stat(kCacpPredNormal), 1u);
  EXPECT_EQ(r.stat(kCacpCriticalLookups), 1u);
  // Two critical hits: CCBP 0 -> 1 -> 2, SHiP 1 -> 2 -> 3, RRPV 0.
  r.cacp.hit(r.load(0, 0, kPcA));
  EXPECT_EQ(r.cacp.ccbp(kSigA), 1);
  EXPECT_EQ(r.cacp.rrpv(0), 0u);
  r.cacp.hit(r.load(0, 0, kPcA));
  EXPECT_EQ(r.cacp.ccbp(kSigA), 2);
  EXPECT_EQ(r.cacp.ship(kSigA), 3);
  EXPECT_EQ(r.stat(kCacpCriticalHits), 2u);
  EXPECT_EQ(r.stat(kCacpCriticalLookups), 3u);
  // The next line of that signature is predicted critical: way 0, RRPV 2.
  r.miss_and_fill(kSet0, 1, kPcA);  // whoever loads it: the prediction is the signature's
  EXPECT_EQ(r.cacp.way_of(kSet0), 0);
  EXPECT_EQ(r.cacp.rrpv(kSet0), 2u);
  EXPECT_EQ(r.stat(kCacpPredCritical), 1u);
}

TEST(Cacp, NonCriticalHitsTrainShipButNotTheCcbp) {
  Rig r;
  r.miss_and_fill(0, 1, kPcA);
  r.cacp.hit(r.load(0, 1, kPcA));
  r.cacp.hit(r.load(0, 1, kPcA));
  EXPECT_EQ(r.cacp.ccbp(kSigA), 0);
  EXPECT_EQ(r.cacp.ship(kSigA), 3);
  EXPECT_EQ(r.stat(kCacpNoncriticalHits), 2u);
  EXPECT_EQ(r.stat(kCacpCriticalHits), 0u);
  EXPECT_EQ(r.stat(kCacpCriticalLookups), 0u);
}

// Lines that leave unused teach SHiP "no reuse": the signature's next fills go in distant (the
// partition's next victim) or, with bypass, not at all.
TEST(Cacp, LinesLeavingUnusedMakeTheirSignaturesNextFillsLowPriority) {
  Rig r;
  // Four non-critical lines: ways 2 and 3 of their partition, then the free critical ways.
  for (Addr k = 0; k < 4; ++k) r.miss_and_fill(k * kSet0, 1, kPcB);
  EXPECT_EQ(r.cacp.way_of(0), 2);
  EXPECT_EQ(r.cacp.way_of(kSet0), 3);
  EXPECT_EQ(r.cacp.way_of(2 * kSet0), 0);
  EXPECT_EQ(r.cacp.way_of(3 * kSet0), 1);
  EXPECT_EQ(r.cacp.ship(kSigB), 1);
  // The fifth evicts from its own partition: ways 2, 3 both at RRPV 2 age to 3, way 2 (line 0)
  // leaves without a hit and SHiP drops to 0. Line 4 was predicted before that: RRPV 2.
  r.miss_and_fill(4 * kSet0, 1, kPcB);
  EXPECT_EQ(r.cacp.way_of(0), -1);
  EXPECT_EQ(r.cacp.way_of(4 * kSet0), 2);
  EXPECT_EQ(r.cacp.rrpv(4 * kSet0), 2u);
  EXPECT_EQ(r.cacp.rrpv(kSet0), 3u);  // aged
  EXPECT_EQ(r.cacp.ship(kSigB), 0);
  EXPECT_EQ(r.stat(kCacpPredNormal), 5u);
  // The sixth is predicted unused: it replaces the distant way 3 and goes in distant itself.
  r.miss_and_fill(5 * kSet0, 1, kPcB);
  EXPECT_EQ(r.cacp.way_of(kSet0), -1);
  EXPECT_EQ(r.cacp.way_of(5 * kSet0), 3);
  EXPECT_EQ(r.cacp.rrpv(5 * kSet0), 3u);
  EXPECT_EQ(r.stat(kCacpLowPriority), 1u);
  // The lines in the critical ways stay: a non-critical fill never evicts there.
  EXPECT_EQ(r.cacp.way_of(2 * kSet0), 0);
  EXPECT_EQ(r.cacp.way_of(3 * kSet0), 1);

  CacpParams p = Rig::pc_only();
  p.bypass = true;
  Rig b(p);
  for (Addr k = 0; k < 5; ++k) b.miss_and_fill(k * kSet0, 1, kPcB);  // SHiP -> 0
  b.miss_and_fill(5 * kSet0, 1, kPcB);  // predicted unused: not installed
  EXPECT_EQ(b.cacp.way_of(5 * kSet0), -1);
  EXPECT_EQ(b.cacp.way_of(kSet0), 3);  // nothing left for it
  EXPECT_EQ(b.stat(kCacpBypasses), 1u);
}

TEST(Cacp, ALinePredictedCriticalLeavingWithoutACriticalHitDemotesItsSignature) {
  Rig r;
  // Line 0 (kPcA, the critical warp) in way 2, line 4 x kSet0 (kPcB) in way 3; three critical
  // hits on line 0 train kPcA's CCBP counter to 3.
  r.miss_and_fill(0, 0, kPcA);
  r.miss_and_fill(4 * kSet0, 1, kPcB);
  for (int i = 0; i < 3; ++i) r.cacp.hit(r.load(0, 0, kPcA));
  ASSERT_EQ(r.cacp.ccbp(kSigA), 3);
  // Lines of kPcA now go to the critical partition (ways 0, 1); kSet0 is hit by the
  // non-critical warp only.
  r.miss_and_fill(kSet0, 1, kPcA);
  r.cacp.hit(r.load(kSet0, 1, kPcA));
  r.miss_and_fill(2 * kSet0, 1, kPcA);
  EXPECT_EQ(r.cacp.way_of(kSet0), 0);
  EXPECT_EQ(r.cacp.way_of(2 * kSet0), 1);
  EXPECT_EQ(r.stat(kCacpPredCritical), 2u);
  // A third: kSet0 has RRPV 0 (hit), 2 x kSet0 RRPV 2; ageing by 1 makes way 1 distant first.
  // It leaves with no critical hit: CCBP 3 -> 2.
  r.miss_and_fill(3 * kSet0, 1, kPcA);
  EXPECT_EQ(r.cacp.way_of(2 * kSet0), -1);
  EXPECT_EQ(r.cacp.way_of(3 * kSet0), 1);
  EXPECT_EQ(r.cacp.ccbp(kSigA), 2);
  EXPECT_EQ(r.stat(kCacpCcbpDemotions), 1u);
  EXPECT_EQ(r.cacp.way_of(0), 2);  // the non-critical partition kept its lines
  EXPECT_EQ(r.cacp.way_of(4 * kSet0), 3);
}

TEST(Cacp, AWriteEvictDropsTheLineAndAStaleFillIsForgotten) {
  Rig r;
  r.miss_and_fill(0, 0, kPcA);
  EXPECT_NE(r.cacp.probe(0), 0u);
  r.cacp.invalidate(0);
  EXPECT_EQ(r.cacp.probe(0), 0u);
  r.cacp.miss(r.load(kSet0, 0, kPcB), true);
  r.cacp.forget(kSet0);
  r.cacp.fill(kSet0, 0xf);  // no pending signature left: signature 0
  EXPECT_EQ(r.cacp.way_of(kSet0), 2);
}

// --- inside an L1 -----------------------------------------------------------------------------

struct NoPerform : IPerform {
  void perform(const Packet&) override {}
};

Packet l1_load(Addr line, int slot) {
  Packet p;
  p.kind = PacketKind::kLoad;
  p.line = line;
  p.sectors = 1;
  p.lanes = 1;
  p.req = static_cast<std::uint32_t>(slot);
  return p;
}

// Loads `line` for warp `slot`: a miss and its fill, or a hit. Returns the outcome.
L1Outcome run_load(L1Cache& c, Addr line, int slot, Cycle& now) {
  const L1Outcome o = c.access(l1_load(line, slot), now++);
  if (o == L1Outcome::kMiss) {
    Packet down = c.front_miss();
    c.pop_miss();
    std::vector<Packet> done;
    c.fill(down, done);
  }
  return o;
}

// A critical warp loads line 0 three times, then once a round while a non-critical warp streams
// four new lines a round through the same 4-way set. LRU loses line 0 to every round's stream;
// CACP (traced in the comments) keeps it.
int critical_hits_under_streaming(bool cacp) {
  NoPerform perf;
  L1Params lp;
  lp.cacp.signature_line = false;
  L1Cache c(lp, kGeo, 20, perf, 1);
  CriticalWarps board;
  board.set(0, true);
  // Slot 0 loads at PC 0x100, slot 1 at 0x200.
  if (cacp)
    c.enable_cacp(&board, [](const Packet& p) {
      return Cacp::Requester{static_cast<int>(p.req), p.req == 0 ? Pc{0x100} : Pc{0x200}};
    });
  Cycle now = 0;
  int hits = 0;
  Addr next = kSet0;
  for (int round = 0; round < 8; ++round) {
    for (int k = 0; k < (round == 0 ? 3 : 1); ++k)
      hits += run_load(c, 0, 0, now) == L1Outcome::kHit;
    for (int k = 0; k < 4; ++k, next += kSet0) run_load(c, next, 1, now);
  }
  return hits;
}

TEST(Cacp, InAnL1ItKeepsTheLineACriticalWarpReusesWhereLruLosesIt) {
  // LRU: the two immediate reuses of round 0 only.
  EXPECT_EQ(critical_hits_under_streaming(false), 2);
  // CACP: round 0 puts line 0 in way 2 (RRPV 0 after its hits); the stream takes way 3 and the
  // free ways 0, 1, then evicts way 3 (SHiP of the stream's PC drops to 0). From round 1 on each
  // stream line goes in distant and replaces the previous one in way 3, and line 0 hits every
  // round: 2 + 7.
  EXPECT_EQ(critical_hits_under_streaming(true), 9);
}

}  // namespace
}  // namespace simtsync::mem
