// The memory-hierarchy components, each driven between mocks: caches and MSHRs, the crossbar,
// DRAM, the atomic unit, the L2 slice, shared memory and the coalescer.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "func/executor.h"
#include "timing/mem/atomic_unit.h"
#include "timing/mem/coalescer.h"
#include "timing/mem/dram.h"
#include "timing/mem/interconnect.h"
#include "timing/mem/l1_cache.h"
#include "timing/mem/l2_slice.h"
#include "timing/mem/shared_memory.h"

namespace simtsync::mem {
namespace {

Packet load(Addr line, std::uint32_t sectors = 1, std::uint32_t req = 0) {
  Packet p;
  p.kind = PacketKind::kLoad;
  p.line = line;
  p.sectors = sectors;
  p.lanes = 1;
  p.req = req;
  return p;
}

struct RecordPerform : IPerform {
  void perform(const Packet& p) override { order.push_back(p.req); }
  std::vector<std::uint32_t> order;
};

// --- tags and MSHRs ---------------------------------------------------------------------------

TEST(TagArray, EvictsTheLeastRecentlyUsedWayAndReportsDirtyVictims) {
  TagArray t(CacheGeometry{2 * 128, 2, 128, 32});  // one set, two ways
  t.allocate(0);
  t.fill(0, 0xf, true);
  t.allocate(128);
  t.fill(128, 0xf, false);
  EXPECT_EQ(t.probe(0, true), 0xfu);  // line 0 is now the most recent
  Eviction ev = t.allocate(256);      // evicts line 128 (clean)
  EXPECT_FALSE(ev.dirty);
  EXPECT_EQ(t.probe(128, false), 0u);
  ev = t.allocate(384);  // evicts line 0 (dirty)
  EXPECT_TRUE(ev.dirty);
  EXPECT_EQ(ev.line, 0u);
  EXPECT_EQ(ev.dirty_sectors, 0xfu);
}

TEST(TagArray, ItsStateCarriesLinesDirtyBitsAndLruToAnotherArrayOfTheSameGeometry) {
  // What the L2 keeps from one kernel launch to the next (mem.l2.keep_across_launches).
  TagArray t(CacheGeometry{2 * 128, 2, 128, 32});  // one set, two ways
  t.allocate(0);
  t.fill(0, 0xf, true);
  t.allocate(128);
  t.fill(128, 0x3, false);
  t.probe(0, true);  // line 128 is now the least recently used
  TagArray next(CacheGeometry{2 * 128, 2, 128, 32});
  EXPECT_EQ(next.probe(0, false), 0u);
  ASSERT_TRUE(next.restore(t.state()));
  EXPECT_EQ(next.probe(128, false), 0x3u);
  const Eviction ev = next.allocate(256);  // evicts the least recent: 128, clean
  EXPECT_FALSE(ev.dirty);
  EXPECT_EQ(next.allocate(384).dirty_sectors, 0xfu);   // then 0, dirty
  TagArray other(CacheGeometry{4 * 128, 2, 128, 32});  // two sets
  EXPECT_FALSE(other.restore(t.state()));
  EXPECT_EQ(other.probe(0, false), 0u);
}

TEST(TagArray, SetIndexIsTheLineIndexModuloTheSetsForAnyGeometry) {
  // Power-of-two sizes take shifts and masks, others divide: both must give (line / size) %
  // sets.
  struct Geo {
    unsigned sets, line;
  };
  for (const Geo g : {Geo{4, 128}, Geo{64, 32}, Geo{3, 128}, Geo{4, 96}, Geo{6, 48}}) {
    TagArray t(CacheGeometry{g.sets * 2 * g.line, 2, g.line, g.line});
    ASSERT_EQ(t.sets(), g.sets);
    for (Addr i = 0; i < 5000; ++i) {
      const Addr line = (i * 7919 + 13) * g.line;
      ASSERT_EQ(t.set_index(line), (line / g.line) % g.sets) << g.sets << " sets, line " << line;
    }
  }
}

TEST(TagArray, AHighlyAssociativeArrayAgreesWithAReferenceScan) {
  // 64 ways (qv100's L1), and associativities that are not a multiple of the 16 ways a lookup
  // compares at once. A reference scan of the same sets with the same LRU rule must agree on
  // every probe, eviction and dirty victim over a long random mix of allocations, probes,
  // fills and invalidations.
  for (const unsigned kWays : {64u, 24u, 5u}) {
    constexpr unsigned kSets = 4, kLine = 128;
    TagArray t(CacheGeometry{kWays * kSets * kLine, kWays, kLine, 32});
    struct Ref {
      Addr line = 0;
      std::uint32_t valid = 0, dirty = 0;
      std::uint64_t lru = 0;
      bool used = false;
    };
    std::vector<Ref> ref(kWays * kSets);
    std::uint64_t clock = 0;
    auto set_of = [&](Addr line) { return static_cast<unsigned>((line / kLine) % kSets); };
    auto find = [&](Addr line) -> Ref* {
      for (unsigned w = 0; w < kWays; ++w) {
        Ref& r = ref[set_of(line) * kWays + w];
        if (r.used && r.line == line) return &r;
      }
      return nullptr;
    };
    std::uint64_t x = 12345;
    auto rnd = [&x](std::uint64_t n) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      return (x >> 33) % n;
    };
    for (int step = 0; step < 200000; ++step) {
      const Addr line = rnd(1200) * kLine;  // about four lines per way: evictions and re-entries
      switch (rnd(4)) {
        case 0: {  // allocate
          const Eviction ev = t.allocate(line);
          Eviction want;
          if (Ref* r = find(line)) {
            r->lru = ++clock;
          } else {
            Ref* set = &ref[set_of(line) * kWays];
            Ref* victim = &set[0];
            for (unsigned w = 0; w < kWays; ++w) {
              if (!set[w].used) {
                victim = &set[w];
                break;
              }
              if (set[w].lru < victim->lru) victim = &set[w];
            }
            if (victim->used && victim->dirty) want = {true, victim->line, victim->dirty};
            *victim = Ref{line, 0, 0, ++clock, true};
          }
          ASSERT_EQ(ev.dirty, want.dirty) << step;
          ASSERT_EQ(ev.line, want.line) << step;
          ASSERT_EQ(ev.dirty_sectors, want.dirty_sectors) << step;
          break;
        }
        case 1: {  // probe, touching
          const Ref* r = find(line);
          ASSERT_EQ(t.probe(line, true), r ? r->valid : 0u) << step;
          if (Ref* m = find(line)) m->lru = ++clock;
          break;
        }
        case 2: {  // fill some sectors, dirty half the time
          const auto sectors = static_cast<std::uint32_t>(1 + rnd(15));
          const bool dirty = rnd(2) != 0;
          t.fill(line, sectors, dirty);
          if (Ref* r = find(line)) {
            r->valid |= sectors;
            if (dirty) r->dirty |= sectors;
          }
          break;
        }
        default:  // invalidate
          t.invalidate(line);
          if (Ref* r = find(line)) *r = Ref{};
          break;
      }
    }
  }
}

TEST(Mshr, MergesUpToItsLimitAndRefusesWhenFull) {
  MshrTable m(1, 2);
  EXPECT_EQ(m.add(0, load(0, 1, 1), 0xf), MshrResult::kNew);
  EXPECT_EQ(m.add(0, load(0, 2, 2), 0xf), MshrResult::kMerged);
  EXPECT_EQ(m.add(0, load(0, 1, 3), 0xf), MshrResult::kEntryFull);  // merge limit 2
  EXPECT_EQ(m.add(128, load(128), 0x1), MshrResult::kTableFull);    // one entry only
  const auto w = m.release(0);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0].req, 1u);
  EXPECT_EQ(w[1].req, 2u);
  EXPECT_FALSE(m.pending(0));
}

TEST(Mshr, AMergeNeedsTheOutstandingFetchToCoverItsSectors) {
  MshrTable m(4, 8);
  EXPECT_EQ(m.add(0, load(0, 0x1, 1), 0x1), MshrResult::kNew);
  EXPECT_EQ(m.add(0, load(0, 0x2, 2), 0x2), MshrResult::kNotCovered);
}

// --- L1 -----------------------------------------------------------------------------------------

// Two MSHRs of four merged accesses each, a four-deep miss queue.
L1Params merging_l1() {
  L1Params p;
  p.mshrs = 2;
  p.mshr_merge = 4;
  p.miss_queue = 4;
  return p;
}

TEST(L1Cache, HitAfterFillMissMergesAndCompletesEveryWaiter) {
  RecordPerform perf;
  L1Cache c(merging_l1(), CacheGeometry{16384, 4, 128, 32}, 20, perf, 1);
  EXPECT_EQ(c.access(load(0, 1, 1), 0), L1Outcome::kMiss);
  EXPECT_EQ(c.access(load(0, 2, 2), 1), L1Outcome::kMerged);
  ASSERT_TRUE(c.has_miss());
  Packet down = c.front_miss();
  EXPECT_EQ(down.sectors, 0xfu);  // Fermi L1 fetches the whole line
  EXPECT_EQ(down.fill, 1);
  c.pop_miss();
  std::vector<Packet> done;
  c.fill(down, done);
  ASSERT_EQ(done.size(), 2u);
  // The primary read memory at L2; only the merged load performs at the fill.
  EXPECT_EQ(perf.order, (std::vector<std::uint32_t>{2}));
  EXPECT_EQ(c.access(load(0, 4, 3), 50), L1Outcome::kHit);
  EXPECT_FALSE(c.has_hit(69));
  EXPECT_TRUE(c.has_hit(70));  // hit latency 20
  EXPECT_EQ(c.stats().mshr_merges, 1u);
  EXPECT_EQ(c.stats().hits, 1u);
}

TEST(L1Cache, WaitersOfAFillAreServedAtTheFillsLevel) {
  // The loads waiting on a fill were served by the level that answered it (statistics: the
  // average latency by serving level); they left the L1 as level 0.
  RecordPerform perf;
  L1Cache c(merging_l1(), CacheGeometry{16384, 4, 128, 32}, 20, perf, 1);
  EXPECT_EQ(c.access(load(0, 1, 1), 0), L1Outcome::kMiss);
  EXPECT_EQ(c.access(load(0, 2, 2), 1), L1Outcome::kMerged);
  Packet reply = c.front_miss();
  c.pop_miss();
  reply.level = 2;  // the L2 missed: DRAM served it
  std::vector<Packet> done;
  c.fill(reply, done);
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(done[0].level, 2);
  EXPECT_EQ(done[1].level, 2);
}

TEST(L1Cache, AWriteReadsTheLoadsMergedIntoAnOutstandingFillFirst) {
  // A load merged into a fill reads memory when the fill arrives. A write to the line that
  // leaves the SM meanwhile must not be visible to it (the load came first in program order:
  // ld a; st a, r with r not the loaded value): it reads before the write goes down.
  RecordPerform perf;
  L1Cache c(merging_l1(), CacheGeometry{16384, 4, 128, 32}, 20, perf, 1);
  EXPECT_EQ(c.access(load(0, 1, 1), 0), L1Outcome::kMiss);
  EXPECT_EQ(c.access(load(0, 2, 2), 1), L1Outcome::kMerged);
  Packet st = load(0, 2, 3);
  st.kind = PacketKind::kStore;
  EXPECT_EQ(c.access(st, 2), L1Outcome::kBypass);
  EXPECT_EQ(perf.order, (std::vector<std::uint32_t>{2}));  // before the store is performed
  EXPECT_EQ(c.stats().early_reads, 1u);
  Packet down = c.front_miss();
  c.pop_miss();
  std::vector<Packet> done;
  c.fill(down, done);
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(perf.order, (std::vector<std::uint32_t>{2}));    // not read twice
  EXPECT_EQ(c.access(load(0, 2, 4), 50), L1Outcome::kMiss);  // the stale fill did not install
}

TEST(L1Cache, FullMshrsAreAReservationFailure) {
  RecordPerform perf;
  L1Params p;
  p.mshrs = 1;
  L1Cache c(p, CacheGeometry{16384, 4, 128, 32}, 20, perf, 1);
  EXPECT_EQ(c.access(load(0), 0), L1Outcome::kMiss);
  EXPECT_EQ(c.access(load(128), 1), L1Outcome::kRetry);
  EXPECT_EQ(c.stats().reservation_failures, 1u);
}

// A refusal is remembered (L1Cache::refuses_again): the same packet is refused again without
// a look at the tags while nothing that decides it changed, and taken as soon as something did.
// A full table waits for a fill, not for a miss to leave; a full miss queue for a miss to leave;
// a full hit pipeline for a hit to complete.
TEST(L1Cache, ARefusalHoldsUntilWhatRefusedItChanges) {
  RecordPerform perf;
  L1Params p;
  p.mshrs = 1;
  p.miss_queue = 2;
  L1Cache c(p, CacheGeometry{16384, 4, 128, 32}, 1, perf, 1);
  EXPECT_EQ(c.access(load(0), 0), L1Outcome::kMiss);
  for (Cycle t = 1; t <= 3; ++t) EXPECT_EQ(c.access(load(128), t), L1Outcome::kRetry);
  EXPECT_TRUE(c.refuses_again(load(128)));
  EXPECT_FALSE(c.refuses_again(load(256, 2)));  // another packet: not remembered
  Packet down = c.front_miss();
  c.pop_miss();  // the table is still full
  EXPECT_TRUE(c.refuses_again(load(128)));
  EXPECT_EQ(c.access(load(128), 4), L1Outcome::kRetry);
  std::vector<Packet> done;
  c.fill(down, done);  // frees the entry
  EXPECT_FALSE(c.refuses_again(load(128)));
  EXPECT_EQ(c.access(load(128), 5), L1Outcome::kMiss);
  EXPECT_EQ(c.stats().reservation_failures, 4u);

  // The miss queue (two entries) full of fills, MSHRs to spare.
  p.mshrs = 8;
  L1Cache q(p, CacheGeometry{16384, 4, 128, 32}, 1, perf, 1);
  EXPECT_EQ(q.access(load(0), 0), L1Outcome::kMiss);
  EXPECT_EQ(q.access(load(128), 1), L1Outcome::kMiss);
  EXPECT_EQ(q.access(load(256), 2), L1Outcome::kRetry);
  EXPECT_EQ(q.access(load(256), 3), L1Outcome::kRetry);
  EXPECT_TRUE(q.refuses_again(load(256)));
  q.pop_miss();
  EXPECT_FALSE(q.refuses_again(load(256)));
  EXPECT_EQ(q.access(load(256), 4), L1Outcome::kMiss);

  // The hit pipeline (four entries at latency 1) full of hits on line 0.
  L1Cache h(L1Params{}, CacheGeometry{16384, 4, 128, 32}, 1, perf, 1);
  EXPECT_EQ(h.access(load(0), 0), L1Outcome::kMiss);
  Packet fill = h.front_miss();
  h.pop_miss();
  h.fill(fill, done);
  unsigned hits = 0;
  while (h.access(load(0), 1) == L1Outcome::kHit) ++hits;
  EXPECT_EQ(hits, 4u);
  EXPECT_TRUE(h.refuses_again(load(0)));
  ASSERT_TRUE(h.has_hit(2));
  h.pop_hit();
  EXPECT_FALSE(h.refuses_again(load(0)));
  EXPECT_EQ(h.access(load(0), 2), L1Outcome::kHit);
}

TEST(L1Cache, StoresAtomicsAndVolatileLoadsBypass) {
  RecordPerform perf;
  L1Cache c(L1Params{}, CacheGeometry{16384, 4, 128, 32}, 20, perf, 1);
  Packet st = load(0);
  st.kind = PacketKind::kStore;
  Packet at = load(0);
  at.kind = PacketKind::kAtomic;
  Packet vol = load(0);
  vol.bypass_l1 = true;
  for (const Packet& p : {st, at, vol}) EXPECT_EQ(c.access(p, 0), L1Outcome::kBypass);
  EXPECT_EQ(c.stats().misses, 0u);
  EXPECT_TRUE(perf.order.empty());  // nothing performed at L1
}

// A sectored L1 (qv100): a load wanting sectors that the line's fill in flight does not bring
// goes down at once on its own (no fill, read at L2) instead of blocking the L1 port.
TEST(L1Cache, ASectorMissOnALineBeingFilledGoesDownOnItsOwn) {
  RecordPerform perf;
  L1Params lp = merging_l1();
  lp.fill_whole_line = false;
  L1Cache c(lp, CacheGeometry{16384, 4, 128, 32}, 20, perf, 1);
  EXPECT_EQ(c.access(load(0, 0x1, 1), 0), L1Outcome::kMiss);
  EXPECT_EQ(c.access(load(0, 0x2, 2), 1), L1Outcome::kBypass);
  ASSERT_TRUE(c.has_miss());
  EXPECT_EQ(c.front_miss().fill, 1);  // the first: a fill of sector 0
  c.pop_miss();
  ASSERT_TRUE(c.has_miss());
  EXPECT_EQ(c.front_miss().fill, 0);  // the second: a plain read of sector 1
  EXPECT_EQ(c.front_miss().sectors, 0x2u);
  EXPECT_EQ(c.stats().misses, 2u);
  EXPECT_EQ(c.stats().reservation_failures, 0u);
  EXPECT_TRUE(perf.order.empty());  // both read at L2
}

// mem.l1.write_policy: through (Volta): a store that hits the line keeps it and is performed
// when the L1 takes it, so the SM's next load of the line hits and reads it; it goes on to L2
// marked performed (L2 does not write it again).
TEST(L1Cache, AWriteThroughHitKeepsTheLineAndIsVisibleAtOnce) {
  RecordPerform perf;
  L1Params lp;
  lp.write_through = true;
  L1Cache c(lp, CacheGeometry{16384, 4, 128, 32}, 20, perf, 1);
  EXPECT_EQ(c.access(load(0, 1, 1), 0), L1Outcome::kMiss);
  Packet down = c.front_miss();
  c.pop_miss();
  std::vector<Packet> done;
  c.fill(down, done);
  Packet st = load(0, 2, 2);
  st.kind = PacketKind::kStore;
  EXPECT_EQ(c.access(st, 10), L1Outcome::kBypass);
  EXPECT_EQ(perf.order, (std::vector<std::uint32_t>{2}));  // performed at the L1
  ASSERT_TRUE(c.has_miss());
  EXPECT_TRUE(c.front_miss().performed);
  c.pop_miss();
  EXPECT_EQ(c.access(load(0, 2, 3), 11), L1Outcome::kHit);  // the line stayed
  EXPECT_EQ(perf.order, (std::vector<std::uint32_t>{2, 3}));
}

// A write-through store that misses, or whose line has a fill in flight, is a Fermi store: it
// evicts the line and is performed at L2, after the loads that came first.
TEST(L1Cache, AWriteThroughMissOrPendingFillEvictsAsFermiDoes) {
  RecordPerform perf;
  L1Params lp;
  lp.write_through = true;
  L1Cache c(lp, CacheGeometry{16384, 4, 128, 32}, 20, perf, 1);
  Packet st = load(256, 1, 1);
  st.kind = PacketKind::kStore;
  EXPECT_EQ(c.access(st, 0), L1Outcome::kBypass);
  EXPECT_TRUE(perf.order.empty());  // absent line: performed at L2
  EXPECT_FALSE(c.front_miss().performed);
  c.pop_miss();
  EXPECT_EQ(c.access(load(0, 1, 2), 1), L1Outcome::kMiss);
  Packet st2 = load(0, 1, 3);
  st2.kind = PacketKind::kStore;
  EXPECT_EQ(c.access(st2, 2), L1Outcome::kBypass);
  EXPECT_TRUE(perf.order.empty());  // the fill's load reads at L2, before the store
  Packet fill = c.front_miss();
  c.pop_miss();
  std::vector<Packet> done;
  c.fill(fill, done);
  EXPECT_EQ(c.access(load(0, 1, 4), 50),
            L1Outcome::kMiss);  // evicted: the stale fill did not install
}

// --- interconnect -------------------------------------------------------------------------------

TEST(Crossbar, LatencyIsFlitsPlusWireAndFullOutputsPushBack) {
  IcntParams p;
  p.latency = 5;
  p.flit_bytes = 32;
  p.input_buffer = 2;
  p.output_buffer = 1;
  Crossbar x(2, 1, p);
  ASSERT_TRUE(x.inject(0, 0, load(0, 1, 1), 136));  // 5 flits
  std::uint64_t arrived = 0;
  for (std::uint64_t t = 0; t < 40 && !arrived; ++t) {
    x.tick(t);
    if (x.ready(0)) arrived = t;
  }
  // Sent at cycle 0; the last of 5 flits leaves at 4 and arrives 5 cycles later.
  EXPECT_EQ(arrived, 9u);
  // The ejection buffer (one packet) is not drained: later packets wait at the inputs and
  // finally the input buffer refuses.
  EXPECT_TRUE(x.inject(1, 0, load(0, 1, 2), 8));
  EXPECT_TRUE(x.inject(1, 0, load(0, 1, 3), 8));
  for (std::uint64_t t = 10; t < 40; ++t) x.tick(t);
  EXPECT_FALSE(x.inject(1, 0, load(0, 1, 4), 8));
  EXPECT_GT(x.stats().output_stalls, 0u);
  x.pop(0);
  for (std::uint64_t t = 40; t < 60; ++t) x.tick(t);
  ASSERT_TRUE(x.ready(0));
  EXPECT_EQ(x.front(0).req, 2u);
}

// --- DRAM ---------------------------------------------------------------------------------------

std::uint64_t dram_latency(DramChannel& d, Addr local, std::uint64_t& t) {
  const std::uint64_t start = t;
  d.push(load(local), local, 32, false);
  for (;; ++t) {
    d.tick(t);
    if (d.has_return()) {
      d.pop_return();
      return t - start;
    }
  }
}

TEST(Dram, RowHitIsFasterThanRowMiss) {
  DramParams p;  // tRCD 12, tCL 12, tRP 12, tRAS 28
  DramChannel d(p);
  std::uint64_t t = 0;
  const std::uint64_t first = dram_latency(d, 0, t);  // closed bank: activate + column
  t += 100;
  const std::uint64_t hit = dram_latency(d, 64, t);  // same row
  t += 100;
  // Same bank, another row: precharge + activate + column.
  Addr other_row = Addr{p.row_bytes} * p.banks;
  while (d.bank_of(other_row) != d.bank_of(0)) other_row += p.row_bytes;
  ASSERT_NE(d.row_of(other_row), d.row_of(0));
  const std::uint64_t miss = dram_latency(d, other_row, t);
  EXPECT_LT(hit, first);
  EXPECT_LT(first, miss);
  EXPECT_EQ(miss - hit, p.tRP + p.tRCD);
  EXPECT_EQ(d.stats().row_hits, 1u);
  EXPECT_EQ(d.stats().row_misses, 2u);
}

TEST(Dram, FrFcfsServesAYoungerRowHitFirst) {
  for (bool frfcfs : {true, false}) {
    DramParams p;
    p.fr_fcfs = frfcfs;
    DramChannel d(p);
    std::uint64_t t = 0;
    dram_latency(d, 0, t);  // opens row 0 of bank 0
    Addr other_row = Addr{p.row_bytes} * p.banks;
    while (d.bank_of(other_row) != d.bank_of(0)) other_row += p.row_bytes;
    d.push(load(other_row, 1, 1), other_row, 32, false);  // older, row miss
    d.push(load(64, 1, 2), 64, 32, false);                // younger, row hit
    std::vector<std::uint32_t> order;
    for (; order.size() < 2; ++t) {
      d.tick(t);
      while (d.has_return()) {
        order.push_back(d.front_return().req);
        d.pop_return();
      }
    }
    EXPECT_EQ(order.front(), frfcfs ? 2u : 1u) << (frfcfs ? "fr_fcfs" : "fcfs");
  }
}

TEST(Dram, AFullQueueRefuses) {
  DramParams p;
  p.queue = 2;
  DramChannel d(p);
  EXPECT_TRUE(d.push(load(0), 0, 32, false));
  EXPECT_TRUE(d.push(load(128), 128, 32, false));
  EXPECT_FALSE(d.push(load(256), 256, 32, false));
  EXPECT_EQ(d.stats().queue_refusals, 1u);
}

// --- atomic unit --------------------------------------------------------------------------------

struct AtomicLanes : IAtomicLanes {
  Addr lane_address(const Packet& p, unsigned lane) const override {
    return same ? 0x100 : 0x100 + 4 * lane + 0x1000 * p.req;
  }
  bool perform_lane(const Packet& p, unsigned lane) override {
    done.push_back({now, p.req * 100 + lane});
    return true;
  }
  bool same = true;
  std::uint64_t now = 0;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> done;
};

TEST(AtomicUnit, SameAddressOperationsSerializeInArrivalOrder) {
  for (bool same : {true, false}) {
    AtomicLanes lanes;
    lanes.same = same;
    AtomicParams p;
    p.same_address_interval = 8;
    p.ops_per_cycle = 1;
    AtomicUnit u(p, lanes);
    Packet a = load(0, 1, 1);
    a.kind = PacketKind::kAtomic;
    a.lanes = 0xf;  // four lanes
    Packet b = a;
    b.req = 2;
    u.push(a, 0);
    u.push(b, 0);
    for (std::uint64_t t = 0; t < 200; ++t) {
      lanes.now = t;
      u.tick(t);
    }
    ASSERT_EQ(lanes.done.size(), 8u);
    EXPECT_EQ(lanes.done.front().second, 100u);  // packet 1 lane 0 first
    EXPECT_EQ(lanes.done.back().second, 203u);   // packet 2 lane 3 last
    // One address: one operation every 8 cycles; distinct addresses: one per cycle.
    EXPECT_EQ(lanes.done.back().first - lanes.done.front().first, same ? 7u * 8 : 7u);
  }
}

// --- L2 slice -----------------------------------------------------------------------------------

// One L2 slice (latency 10) of a one-partition map, with its DRAM channel and atomic unit.
struct L2Rig {
  explicit L2Rig(const L2Params& p) : map(one_partition()), l2(p, map, perf, atom, dram) {}
  static AddressMapParams one_partition() {
    AddressMapParams mp;
    mp.partitions = 1;
    return mp;
  }
  RecordPerform perf;
  AtomicLanes lanes;
  AddressMap map;
  AtomicUnit atom{AtomicParams{}, lanes};
  DramChannel dram{DramParams{}};
  L2Slice l2;
};

TEST(L2Slice, MissFetchesFromDramStoresAreVisibleAtOnceAndDirtyLinesWriteBack) {
  L2Params p;
  p.geo = CacheGeometry{128, 1, 128, 32};  // a single line: every new line evicts
  p.latency = 10;
  L2Rig rig(p);
  RecordPerform& perf = rig.perf;
  DramChannel& dram = rig.dram;
  L2Slice& l2 = rig.l2;
  auto run = [&](std::uint64_t from, std::uint64_t to, std::vector<std::uint64_t>* replies) {
    for (std::uint64_t t = from; t < to; ++t) {
      dram.tick(t);
      l2.tick(t);
      while (l2.has_reply(t)) {
        if (replies) replies->push_back(t);
        l2.pop_reply();
      }
    }
  };
  Packet st = load(0, 1, 7);
  st.kind = PacketKind::kStore;
  l2.push(st);
  run(0, 1, nullptr);
  EXPECT_EQ(perf.order, (std::vector<std::uint32_t>{7}));  // visible when accepted
  std::vector<std::uint64_t> r;
  run(1, 30, &r);
  EXPECT_EQ(r.size(), 1u);
  l2.push(load(0, 1, 8));  // hit (the store allocated the sector)
  r.clear();
  run(30, 60, &r);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0], 40u);      // L2 latency 10
  l2.push(load(128, 1, 9));  // miss: evicts dirty line 0 (write-back), fetches from DRAM
  r.clear();
  run(60, 400, &r);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_GT(r[0], 60u + 10 + DramParams{}.tCL);
  EXPECT_EQ(l2.stats().writebacks, 1u);
  EXPECT_EQ(dram.stats().writes, 1u);
  EXPECT_EQ(dram.stats().reads, 1u);
}

TEST(L2Slice, AStoreDoesNotPassALoadWaitingForItsLinesFill) {
  // ld a (misses to DRAM); st a (hits the MSHR'd line, visible at once): the load read first.
  L2Params p;
  p.latency = 10;
  L2Rig rig(p);
  RecordPerform& perf = rig.perf;
  DramChannel& dram = rig.dram;
  L2Slice& l2 = rig.l2;
  std::uint64_t t = 0, replies = 0;
  auto run = [&](std::uint64_t cycles) {
    for (const std::uint64_t end = t + cycles; t < end; ++t) {
      dram.tick(t);
      l2.tick(t);
      while (l2.has_reply(t)) {
        ++replies;
        l2.pop_reply();
      }
    }
  };
  l2.push(load(0, 1, 1));
  run(2);
  EXPECT_TRUE(perf.order.empty());  // waiting for DRAM
  Packet st = load(0, 1, 2);
  st.kind = PacketKind::kStore;
  l2.push(st);
  run(2);
  EXPECT_EQ(perf.order, (std::vector<std::uint32_t>{1, 2}));
  EXPECT_EQ(l2.stats().early_reads, 1u);
  run(400);
  EXPECT_EQ(replies, 2u);  // the load's reply and the store's acknowledgement
  EXPECT_EQ(perf.order, (std::vector<std::uint32_t>{1, 2}));  // the fill did not read again
}

// --- L2 slices sharing a channel (mem.l2.slices_per_partition) ---------------------------------

TEST(AddressMap, AChannelsChunksGoToItsSlicesInTurnAndStayDenseInTheChannel) {
  AddressMapParams mp;
  mp.partitions = 2;
  mp.interleave = 256;
  const AddressMap one(mp);  // one slice per channel: the slice is the channel
  EXPECT_EQ(one.slices(), 2u);
  for (Addr chunk = 0; chunk < 8; ++chunk) EXPECT_EQ(one.slice_of(chunk * 256), chunk % 2);
  mp.slices_per_partition = 2;
  const AddressMap two(mp);
  EXPECT_EQ(two.slices(), 4u);
  // Chunks 0..3: channel 0 slice 0, channel 1 slice 0, channel 0 slice 1, channel 1 slice 1.
  EXPECT_EQ(two.slice_of(0), 0u);
  EXPECT_EQ(two.slice_of(256), 2u);
  EXPECT_EQ(two.slice_of(512 + 17), 1u);
  EXPECT_EQ(two.slice_of(768), 3u);
  EXPECT_EQ(two.slice_of(1024), 0u);
  EXPECT_EQ(two.partition_of_slice(1), 0u);
  EXPECT_EQ(two.partition_of_slice(2), 1u);
  // The channel address does not depend on the slices: chunk 2 is channel 0's second chunk.
  EXPECT_EQ(two.local_of(512 + 17), 256u + 17);
  EXPECT_EQ(one.local_of(512 + 17), two.local_of(512 + 17));
}

// A slice's lines all share their channel and slice digits; indexed with the whole address
// they would fall into a few sets (GTX480: 6 channels x 2 slices, 64 sets of 8 ways: 16 of the
// 64 sets). Indexed with the address inside the slice, consecutive lines of a slice fill every
// set before any set needs a second way, as GPGPU-Sim's l2_cache_config::set_index does.
TEST(TagArray, AnL2SliceIndexesItsSetsWithTheAddressInsideTheSlice) {
  AddressMapParams mp;
  mp.partitions = 6;
  mp.slices_per_partition = 2;
  mp.interleave = 256;
  const AddressMap map(mp);
  EXPECT_EQ(map.slice_local_of(0), 0u);
  EXPECT_EQ(map.slice_local_of(12 * 256 + 5), 256u + 5);  // slice 0's second chunk
  EXPECT_EQ(map.slice_local_of(3 * 256 + 7), 7u);         // slice 6's first chunk
  const CacheGeometry geo{64 * 1024, 8, 128, 32};         // 64 sets
  // The first 64 KB of slice 0 (chunks 0, 12, 24, ..., two lines each): the sliced index
  // holds all of it, the global one only what its camped sets hold.
  TagArray sliced(geo, &map), global(geo);
  std::vector<Addr> many;
  for (Addr chunk = 0; many.size() < 8 * 64; chunk += 12) {
    ASSERT_EQ(map.slice_of(chunk * 256), 0u);
    many.push_back(chunk * 256);
    many.push_back(chunk * 256 + 128);
  }
  for (Addr l : many) {
    sliced.allocate(l);
    sliced.fill(l, 0xf, false);
    global.allocate(l);
    global.fill(l, 0xf, false);
  }
  unsigned sliced_hits = 0, global_hits = 0;
  for (Addr l : many) {
    sliced_hits += sliced.probe(l, false) != 0;
    global_hits += global.probe(l, false) != 0;
  }
  EXPECT_EQ(sliced_hits, 8u * 64);
  EXPECT_EQ(global_hits, 8u * 16);  // 16 sets camped on: a quarter of the capacity
}

// Fermi's L1 hash (Nugteren et al., HPCA 2014; GPGPU-Sim's FERMI_HASH_SET_FUNCTION): with 32
// sets of 128-byte lines, lines 4 KB apart share a set when indexed linearly but are spread by
// the XOR of address bits 13-15, 17 and 19, which also folds lines of different linear sets
// into one hashed set.
TEST(TagArray, TheFermiHashSpreadsFourKilobyteStridesAndFoldsHighBitsIn) {
  const CacheGeometry geo{16 * 1024, 4, 128, 32};  // 32 sets of 4 ways
  TagArray linear(geo), hashed(geo, nullptr, true);
  auto fill = [](TagArray& t, Addr l) {
    t.allocate(l);
    t.fill(l, 0xf, false);
  };
  // Five lines 4 KB apart: bits 12-14 differ, so the hash puts them in sets 0, 0, 1, 1, 2.
  for (Addr i = 0; i < 5; ++i) {
    fill(linear, i * 4096);
    fill(hashed, i * 4096);
  }
  EXPECT_EQ(linear.probe(0, false), 0u);  // one set, four ways: the first line left
  for (Addr i = 0; i < 5; ++i) EXPECT_NE(hashed.probe(i * 4096, false), 0u) << i;
  // Lines 0, 0x1000, 0x2080, 0x3080 and 0x4100 all hash to set 0 (linearly: sets 0, 0, 1, 1,
  // 2), so the fifth evicts line 0 from the hashed cache only.
  TagArray h2(geo, nullptr, true), l2(geo);
  for (Addr l : {Addr{0}, Addr{0x1000}, Addr{0x2080}, Addr{0x3080}, Addr{0x4100}}) {
    fill(h2, l);
    fill(l2, l);
  }
  EXPECT_EQ(h2.probe(0, false), 0u);
  EXPECT_NE(l2.probe(0, false), 0u);
}

TEST(L2Slice, TwoSlicesShareOneDramChannelAndEachGetsItsOwnFills) {
  AddressMapParams mp;
  mp.partitions = 1;
  mp.slices_per_partition = 2;
  const AddressMap map(mp);
  L2Params p;
  p.latency = 10;
  RecordPerform perf;
  AtomicLanes lanes;
  AtomicUnit atom0{AtomicParams{}, lanes}, atom1{AtomicParams{}, lanes};
  DramChannel dram{DramParams{}, 2};
  L2Slice s0(p, map, perf, atom0, dram, 0), s1(p, map, perf, atom1, dram, 1);
  Packet a = load(0, 1, 1), b = load(256, 1, 2);  // chunk 0 -> slice 0, chunk 1 -> slice 1
  a.slice = static_cast<int>(map.slice_of(a.line));
  b.slice = static_cast<int>(map.slice_of(b.line));
  ASSERT_EQ(a.slice, 0);
  ASSERT_EQ(b.slice, 1);
  s1.push(b);
  s0.push(a);
  std::vector<std::uint32_t> got0, got1;
  for (std::uint64_t t = 0; t < 400; ++t) {
    dram.tick(t);
    s0.tick(t);
    s1.tick(t);
    for (auto [s, got] : {std::pair{&s0, &got0}, std::pair{&s1, &got1}})
      while (s->has_reply(t)) {
        got->push_back(s->front_reply().req);
        s->pop_reply();
      }
  }
  EXPECT_EQ(got0, (std::vector<std::uint32_t>{1}));
  EXPECT_EQ(got1, (std::vector<std::uint32_t>{2}));
  EXPECT_EQ(dram.stats().reads, 2u);  // both misses went to the one channel
  EXPECT_FALSE(dram.busy());
}

// --- shared memory ------------------------------------------------------------------------------

func::MemAccess shared_access(unsigned stride_words, std::uint64_t mask = 0xffffffffu) {
  func::MemAccess a;
  a.mask = mask;
  a.bytes = 4;
  a.vec = 1;
  for (unsigned l = 0; l < 64; ++l) a.addr[l] = Addr{l} * stride_words * 4;
  return a;
}

TEST(SharedMemory, BankConflictsSerializeOneCyclePerWay) {
  SharedMemoryUnit u(SharedMemParams{});
  EXPECT_EQ(u.cost(shared_access(1), false).cycles, 1u);  // conflict-free
  EXPECT_EQ(u.cost(shared_access(2), false).cycles, 2u);  // 2-way
  EXPECT_EQ(u.cost(shared_access(8), false).cycles, 8u);
  EXPECT_EQ(u.cost(shared_access(32), false).cycles, 32u);  // every lane in bank 0
  EXPECT_EQ(u.cost(shared_access(0), false).cycles, 1u);    // broadcast of one word
}

TEST(SharedMemory, AtomicsCostLockUnitRoundsPerAliasedLockBit) {
  SharedMemoryUnit u(SharedMemParams{});
  // Distinct words, distinct banks and lock bits: one attempt (load-lock, modify, store-unlock).
  const SharedCost free = u.cost(shared_access(1), true);
  EXPECT_EQ(free.attempts, 1u);
  EXPECT_EQ(free.cycles, 3u);
  // Every lane on one word: one winner per attempt, 32 attempts.
  const SharedCost same = u.cost(shared_access(0), true);
  EXPECT_EQ(same.attempts, 32u);
  EXPECT_EQ(same.retries, 31u * 32 / 2);
  // Words 1024 apart alias one lock bit (seed 001 sec. 3.2) although they are distinct words.
  const SharedCost alias = u.cost(shared_access(1024, 0x3), true);
  EXPECT_EQ(alias.attempts, 2u);
  const SharedCost apart = u.cost(shared_access(1023, 0x3), true);
  EXPECT_EQ(apart.attempts, 1u);
}

// --- coalescer ----------------------------------------------------------------------------------

TEST(Coalescer, ContiguousWordsMakeOneLineStridedWordsOneLineEach) {
  std::vector<Packet> out;
  func::MemAccess a = shared_access(1);
  for (unsigned l = 0; l < 32; ++l) a.addr[l] += 0x1000;
  coalesce(a, PacketKind::kLoad, false, 0, 128, 32, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].sectors, 0xfu);
  EXPECT_EQ(out[0].lanes, 0xffffffffu);
  coalesce(shared_access(32), PacketKind::kLoad, false, 0, 128, 32, out);
  EXPECT_EQ(out.size(), 32u);
  EXPECT_EQ(out[5].sectors, 0x1u);
  // Local memory: the same offset in every lane is one contiguous line.
  coalesce(shared_access(0), PacketKind::kLoad, true, 3, 128, 32, out);
  EXPECT_EQ(out.size(), 1u);
  // Atomics count their lane operations.
  coalesce(shared_access(0), PacketKind::kAtomic, false, 0, 128, 32, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].ops, 32u);
}

// The coalescer against a byte-by-byte reference (every byte a lane touches names its line and
// sector), on random accesses that straddle lines, for power-of-two geometries (shifts) and
// others (divisions), plain and local, loads and atomics.
TEST(Coalescer, MatchesAByteByByteReference) {
  std::mt19937_64 rng(7);
  struct Geo {
    unsigned line, sector;
  };
  for (const Geo g : {Geo{128, 32}, Geo{64, 16}, Geo{96, 32}, Geo{160, 20}}) {
    for (int round = 0; round < 200; ++round) {
      func::MemAccess a{};
      a.mask = rng();
      a.bytes = 1u << (rng() % 4);
      a.vec = 1u << (rng() % 3);
      const Addr base = (rng() % 64) * 1024;
      const unsigned stride = static_cast<unsigned>(rng() % 40);
      for (unsigned l = 0; l < 64; ++l) a.addr[l] = base + l * stride + rng() % 3 * a.bytes;
      const bool local = round % 5 == 0;
      const PacketKind kind = round % 3 == 0 ? PacketKind::kAtomic : PacketKind::kLoad;
      std::vector<Packet> got, want;
      coalesce(a, kind, local, 9, g.line, g.sector, got);
      auto touch = [&](Addr byte, unsigned lane) {
        const Addr line = byte / g.line * g.line;
        auto it =
            std::find_if(want.begin(), want.end(), [&](const Packet& p) { return p.line == line; });
        if (it == want.end()) {
          want.push_back(Packet{});
          it = want.end() - 1;
          it->kind = kind;
          it->line = line;
          it->local = local;
        }
        const unsigned s = static_cast<unsigned>((byte - line) / g.sector);
        if (s < 32) it->sectors |= 1u << s;
        if (!(it->lanes >> lane & 1) && kind == PacketKind::kAtomic) ++it->ops;
        it->lanes |= std::uint64_t{1} << lane;
      };
      const unsigned span = a.bytes * a.vec;
      for (unsigned l = 0; l < 64; ++l) {
        if (!(a.mask >> l & 1)) continue;
        if (!local) {
          for (Addr b = a.addr[l]; b < a.addr[l] + span; ++b) touch(b, l);
          continue;
        }
        for (Addr off = a.addr[l] / 4 * 4; off < a.addr[l] + span; off += 4)
          for (Addr b = 0; b < 4; ++b) touch(local_address(9, l, off) + b, l);
      }
      ASSERT_EQ(got.size(), want.size()) << g.line << "/" << g.sector << " round " << round;
      for (std::size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(got[i].line, want[i].line) << i;
        EXPECT_EQ(got[i].sectors, want[i].sectors) << i;
        EXPECT_EQ(got[i].lanes, want[i].lanes) << i;
        EXPECT_EQ(got[i].ops, want[i].ops) << i;
        EXPECT_EQ(got[i].local, want[i].local) << i;
      }
    }
  }
}

}  // namespace
}  // namespace simtsync::mem
