// The memory hierarchy's next_event() (issue 48): the main loop skips the cycles before it, so it
// must never name a cycle later than the next one at which the hierarchy changes state. Two
// identical hierarchies get the same requests at the same cycles; one ticks every cycle, the
// other only at the cycles next_event() names, as the main loop does. Every response must come
// back at the same cycle and every statistic must agree.
#include "timing/mem/memory_hierarchy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

namespace simtsync::mem {
namespace {

struct Send {
  Cycle at;
  MemRequest r;
};

struct Outcome {
  std::vector<std::tuple<Cycle, int, Addr>> pops;  // cycle, SM, address
  HierarchyStats stats;
  std::uint64_t ticks = 0;
};

Outcome drive(const HierarchyParams& p, const std::vector<Send>& sends, bool skip) {
  MemoryHierarchy h(p, [](const MemRequest&, std::uint64_t lanes, bool) { return lanes; });
  Outcome o;
  Cycle now = 0;
  std::size_t k = 0;
  while ((k < sends.size() || h.busy()) && now < 1000000) {
    h.tick(now);
    ++o.ticks;
    MemRequest out;
    for (unsigned sm = 0; sm < p.num_sms; ++sm)
      while (h.pop_response(static_cast<int>(sm), now, out))
        o.pops.emplace_back(now, static_cast<int>(sm), out.first_address);
    for (; k < sends.size() && sends[k].at == now; ++k)
      EXPECT_TRUE(h.try_send(sends[k].r, now)) << "send " << k;
    h.commit();
    Cycle next = now + 1;
    if (skip) {
      Cycle t = h.next_event();
      if (k < sends.size()) t = std::min(t, sends[k].at);
      if (t != kNever) next = std::max(next, t);
    }
    now = next;
  }
  o.stats = h.stats();
  return o;
}

MemRequest fill(int sm, Addr a) {  // an instruction-cache fill: one line, straight to L2
  MemRequest r;
  r.sm = sm;
  r.space = ReqSpace::kInst;
  r.first_address = a;
  return r;
}

MemRequest spill(int sm, Addr a, bool store) {  // a reconvergence unit's table spill or fill
  MemRequest r = fill(sm, a);
  r.space = ReqSpace::kUnit;
  r.kind = store ? ReqKind::kStore : ReqKind::kLoad;
  r.unit_bytes = 64;
  return r;
}

void expect_skipping_changes_nothing(const ClockParams& clock) {
  HierarchyParams p;
  p.num_sms = 4;
  p.map.partitions = 2;
  p.clock = clock;
  std::vector<Send> sends;
  // Misses to DRAM, a second touch of the same lines (L2 hits) long after, stores that dirty
  // lines, and a burst from every SM at once.
  for (int i = 0; i < 4; ++i) sends.push_back({Cycle(10 + 3 * i), fill(i, 0x10000 + 0x1000 * i)});
  for (int i = 0; i < 4; ++i) sends.push_back({Cycle(2000 + 5 * i), fill(i, 0x10000 + 0x1000 * i)});
  for (int i = 0; i < 4; ++i) sends.push_back({Cycle(2500), spill(i, 0x80000 + 0x80 * i, true)});
  for (int i = 0; i < 4; ++i) sends.push_back({Cycle(4000), spill(i, 0x80000 + 0x80 * i, false)});
  for (int i = 0; i < 4; ++i) sends.push_back({Cycle(6000 + i), fill(i, 0x200000 + 0x40 * i)});
  std::sort(sends.begin(), sends.end(), [](const Send& a, const Send& b) { return a.at < b.at; });

  const Outcome every = drive(p, sends, false), skipping = drive(p, sends, true);
  EXPECT_EQ(skipping.pops, every.pops);
  ASSERT_EQ(every.pops.size(), sends.size());
  EXPECT_LT(skipping.ticks, every.ticks / 2);  // the waits for L2 and DRAM were skipped
  const HierarchyStats &a = every.stats, &b = skipping.stats;
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(a.latency_sum[i], b.latency_sum[i]);
    EXPECT_EQ(a.transactions_served[i], b.transactions_served[i]);
  }
  for (int i = 1; i < 4; ++i) EXPECT_EQ(a.clock_cycles[i], b.clock_cycles[i]);
  EXPECT_EQ(a.l2.hits, b.l2.hits);
  EXPECT_EQ(a.l2.misses, b.l2.misses);
  EXPECT_EQ(a.dram.reads, b.dram.reads);
  EXPECT_EQ(a.dram.writes, b.dram.writes);
  EXPECT_EQ(a.dram.latency_sum, b.dram.latency_sum);
  EXPECT_EQ(a.dram.bus_busy_cycles, b.dram.bus_busy_cycles);
  EXPECT_EQ(a.icnt_request.latency_sum, b.icnt_request.latency_sum);
  EXPECT_EQ(a.icnt_reply.latency_sum, b.icnt_reply.latency_sum);
}

TEST(MemoryHierarchy, SkippingToNextEventChangesNothing) {
  // Core, interconnect, L2 and DRAM clocks (MHz): one clock for all; the defaults; clocks that
  // do not divide each other, with the interconnect faster and slower than L2.
  for (const ClockParams& c :
       {ClockParams{1000, 1000, 1000, 1000}, ClockParams{}, ClockParams{1132, 1000, 900, 850},
        ClockParams{1132, 700, 900, 1700}}) {
    SCOPED_TRACE(testing::Message()
                 << c.core_mhz << " " << c.icnt_mhz << " " << c.l2_mhz << " " << c.dram_mhz);
    expect_skipping_changes_nothing(c);
  }
}

}  // namespace
}  // namespace simtsync::mem
