// The parallel memory phase (issue 48): a hierarchy whose L2 slices and DRAM channels tick one
// memory partition per host thread must do exactly what a serial one does. Two identical
// hierarchies get the same global loads, stores and atomics (each request spread over several
// partitions, so packets of one request are performed by different threads in the same L2
// cycle); one ticks serially, the other on 2 or 4 threads. Every response must come back at the
// same cycle, every statistic must agree, each request's lanes must be performed the same way,
// and its instruction must count exactly once.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <vector>

#include "common/error.h"
#include "func/executor.h"
#include "timing/gpu/phase_pool.h"
#include "timing/mem/address_map.h"
#include "timing/mem/memory_hierarchy.h"
#include "timing/mem/tick_order.h"

// Its own namespace: the unity build puts this file beside others with the same helper names.
namespace simtsync::mem::parallel_phase_test {
namespace {

// Requests whose first address has this bit fault when performed (a kernel fault's Error).
constexpr Addr kFaulty = Addr{1} << 40;

void fault_if_faulty(const MemRequest& r) {
  if (r.first_address & kFaulty)
    throw Error(ExitCode::kKernelFault, "fault of the request from SM " + std::to_string(r.sm));
}

// One request's functional side as the test sees it: the lanes performed (in each
// partition's own order) and how often its instruction counted.
struct Performed {
  std::multiset<std::uint64_t> lanes;
  unsigned first = 0;
};

class TestPhase final : public IMemPhase {
 public:
  TestPhase(unsigned threads, unsigned partitions, std::map<Addr, Performed>& out)
      : pool_(threads), logs_(partitions), out_(out) {}
  unsigned threads() const override { return pool_.threads(); }
  void run(const std::function<void(unsigned)>& f) override { pool_.run_parts(f); }
  std::uint64_t perform(unsigned part, std::uint64_t, const MemRequest& r,
                        std::uint64_t lanes) override {
    // Only this partition's log: a perform that ran on another thread than its partition's
    // would race here (TSan sees it).
    fault_if_faulty(r);
    logs_[part].emplace_back(r.first_address, lanes);
    return lanes;
  }
  void count_first(const MemRequest& r) override { ++out_[r.first_address].first; }
  void merge() override {
    for (auto& log : logs_) {
      for (const auto& [a, lanes] : log) out_[a].lanes.insert(lanes);
      log.clear();
    }
  }

 private:
  gpu::PhasePool pool_;
  std::vector<std::vector<std::pair<Addr, std::uint64_t>>> logs_;
  std::map<Addr, Performed>& out_;
};

struct Send {
  Cycle at;
  MemRequest r;
};

struct Outcome {
  std::vector<std::tuple<Cycle, int, Addr>> pops;  // cycle, SM, address
  HierarchyStats stats;
  std::map<Addr, Performed> performed;  // by request (its first address)
  std::uint64_t phases = 0;
  std::string fault;  // the message of the fault the ticks threw (empty: none)
};

Outcome drive(const HierarchyParams& p, const std::vector<Send>& sends, unsigned threads) {
  Outcome o;
  MemoryHierarchy h(p, [&o](const MemRequest& r, std::uint64_t lanes, bool first) {
    fault_if_faulty(r);
    Performed& f = o.performed[r.first_address];
    f.lanes.insert(lanes);
    f.first += first;
    return lanes;
  });
  std::unique_ptr<TestPhase> phase;
  if (threads > 1) {
    phase = std::make_unique<TestPhase>(threads, h.partitions(), o.performed);
    h.set_phase(phase.get());
  }
  h.set_deferred(true);
  Cycle now = 0;
  std::size_t k = 0;
  while ((k < sends.size() || h.busy()) && now < 1000000) {
    try {
      h.tick(now);
    } catch (const Error& e) {
      o.fault = e.what();
      break;
    }
    MemRequest out;
    for (unsigned sm = 0; sm < p.num_sms; ++sm)
      while (h.pop_response(static_cast<int>(sm), now, out))
        o.pops.emplace_back(now, static_cast<int>(sm), out.first_address);
    for (; k < sends.size() && sends[k].at <= now; ++k)
      if (!h.try_send(sends[k].r, now)) break;  // retried next cycle
    h.commit();
    Cycle next = now + 1;
    Cycle t = h.next_event();
    if (k < sends.size()) t = std::min(t, std::max(now + 1, sends[k].at));
    if (t != kNever) next = std::max(next, t);
    now = next;
  }
  if (o.fault.empty()) {
    EXPECT_EQ(k, sends.size());
  }
  o.stats = h.stats();
  o.phases = h.parallel_phases();
  return o;
}

void expect_same(const Outcome& a, const Outcome& b) {
  EXPECT_EQ(a.pops, b.pops);
  ASSERT_EQ(a.performed.size(), b.performed.size());
  for (const auto& [addr, f] : a.performed) {
    SCOPED_TRACE(testing::Message() << "request at " << addr);
    const auto it = b.performed.find(addr);
    ASSERT_NE(it, b.performed.end());
    EXPECT_EQ(f.lanes, it->second.lanes);
    EXPECT_EQ(f.first, 1u);
    EXPECT_EQ(it->second.first, 1u);
  }
  const HierarchyStats &x = a.stats, &y = b.stats;
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(x.latency_sum[i], y.latency_sum[i]);
    EXPECT_EQ(x.transactions_served[i], y.transactions_served[i]);
    EXPECT_EQ(x.requests[i], y.requests[i]);
  }
  for (int i = 0; i < 4; ++i) EXPECT_EQ(x.clock_cycles[i], y.clock_cycles[i]);
  EXPECT_EQ(x.transactions, y.transactions);
  EXPECT_EQ(x.atomic_lane_ops, y.atomic_lane_ops);
  EXPECT_EQ(x.refused, y.refused);
  EXPECT_EQ(x.coalescer_busy_cycles, y.coalescer_busy_cycles);
  EXPECT_EQ(x.l1.hits, y.l1.hits);
  EXPECT_EQ(x.l1.misses, y.l1.misses);
  EXPECT_EQ(x.l2.accesses, y.l2.accesses);
  EXPECT_EQ(x.l2.hits, y.l2.hits);
  EXPECT_EQ(x.l2.misses, y.l2.misses);
  EXPECT_EQ(x.l2.mshr_merges, y.l2.mshr_merges);
  EXPECT_EQ(x.l2.reservation_failures, y.l2.reservation_failures);
  EXPECT_EQ(x.l2.writebacks, y.l2.writebacks);
  EXPECT_EQ(x.l2.early_reads, y.l2.early_reads);
  EXPECT_EQ(x.dram.reads, y.dram.reads);
  EXPECT_EQ(x.dram.writes, y.dram.writes);
  EXPECT_EQ(x.dram.latency_sum, y.dram.latency_sum);
  EXPECT_EQ(x.dram.bus_busy_cycles, y.dram.bus_busy_cycles);
  EXPECT_EQ(x.icnt_request.latency_sum, y.icnt_request.latency_sum);
  EXPECT_EQ(x.icnt_reply.latency_sum, y.icnt_reply.latency_sum);
  ASSERT_EQ(x.units.size(), y.units.size());
  for (std::size_t u = 0; u < x.units.size(); ++u) EXPECT_EQ(x.units[u].values, y.units[u].values);
}

// Warp requests of 32 lanes, 4 bytes each, `stride` bytes apart from `base`: with a stride of a
// line or more, one packet per lane's line, spread over the partitions.
struct Traffic {
  std::vector<std::unique_ptr<func::ExecInst>> insts;
  std::vector<std::unique_ptr<func::MemAccess>> accesses;
  std::vector<Send> sends;
  void add(Cycle at, int sm, ReqKind kind, Addr base, Addr stride) {
    auto in = std::make_unique<func::ExecInst>();
    in->op = kind == ReqKind::kLoad    ? ptx::Opcode::kLd
             : kind == ReqKind::kStore ? ptx::Opcode::kSt
                                       : ptx::Opcode::kAtom;
    auto a = std::make_unique<func::MemAccess>();
    a->inst = in.get();
    a->mask = 0xffffffffu;
    a->bytes = 4;
    for (unsigned l = 0; l < 32; ++l) {
      a->addr[l] = base + l * stride;
      a->space[l] = static_cast<std::uint8_t>(ptx::Space::kGlobal);
    }
    MemRequest r;
    r.kind = kind;
    r.sm = sm;
    r.access = a.get();
    r.first_address = base;  // unique per request: names it in the outcome
    sends.push_back({at, r});
    insts.push_back(std::move(in));
    accesses.push_back(std::move(a));
  }
};

TEST(MemoryHierarchy, ParallelPhaseMatchesSerial) {
  // Core, interconnect, L2 and DRAM clocks (MHz): one clock for all; L2 twice as fast as the
  // core (two L2 cycles in some phases); clocks that do not divide each other.
  for (const ClockParams& c :
       {ClockParams{1000, 1000, 1000, 1000}, ClockParams{700, 700, 1400, 924},
        ClockParams{1132, 1000, 900, 850}}) {
    SCOPED_TRACE(testing::Message()
                 << c.core_mhz << " " << c.icnt_mhz << " " << c.l2_mhz << " " << c.dram_mhz);
    HierarchyParams p;
    p.num_sms = 8;
    p.map.partitions = 8;
    p.clock = c;
    Traffic t;
    // Every SM: a strided load over many lines (misses to DRAM), stores to the same lines
    // (hits, dirty lines), atomics on scattered words, a second load (hits), and a burst.
    for (int sm = 0; sm < 8; ++sm) {
      const Addr base = 0x100000 + Addr(sm) * 0x10000;
      t.add(Cycle(5 + sm), sm, ReqKind::kLoad, base, 256);
      t.add(Cycle(400 + sm), sm, ReqKind::kStore, base + 4, 256);
      t.add(Cycle(800), sm, ReqKind::kAtomic, 0x900000 + Addr(sm) * 4, 128);
      t.add(Cycle(1200 + 2 * sm), sm, ReqKind::kLoad, base + 8, 256);
      t.add(Cycle(1600), sm, ReqKind::kAtomic, 0xa00000 + Addr(sm) * 8, 512);
      t.add(Cycle(1601), sm, ReqKind::kStore, 0xb00000 + Addr(sm) * 0x1000, 128);
      // Kernel-parameter loads through the constant cache (their lines stay in the partition
      // of the global line: 8 partitions).
      t.add(Cycle(3 + sm), sm, ReqKind::kLoad, 0xc00000 + Addr(sm) * 0x100, 4);
      t.sends.back().r.space = ReqSpace::kConst;
    }
    std::stable_sort(t.sends.begin(), t.sends.end(),
                     [](const Send& a, const Send& b) { return a.at < b.at; });
    const Outcome serial = drive(p, t.sends, 1);
    EXPECT_EQ(serial.phases, 0u);
    EXPECT_EQ(serial.performed.size(), t.sends.size());
    for (unsigned threads : {2u, 4u}) {
      SCOPED_TRACE(testing::Message() << threads << " threads");
      const Outcome par = drive(p, t.sends, threads);
      EXPECT_GT(par.phases, 100u);  // the phase ran
      expect_same(serial, par);
    }
  }
}

TEST(MemoryHierarchy, FirstFaultInSerialOrderIsRethrown) {
  // At one cycle SM k stores to a line of partition 7 - k; every store faults when its slice
  // takes it, all at the same L2 cycle (8 busy slices: the phase runs). A serial tick meets
  // partition 0's first (SM 7's).
  HierarchyParams p;
  p.num_sms = 8;
  p.map.partitions = 8;
  const AddressMap map(p.map);
  Traffic t;
  for (int sm = 0; sm < 8; ++sm) {
    Addr line = 0x100000;
    while (map.partition_of_slice(map.slice_of(line)) != static_cast<unsigned>(7 - sm)) line += 128;
    t.add(Cycle(40), sm, ReqKind::kStore, line | kFaulty, 0);
    t.accesses.back()->mask = 1;
    t.accesses.back()->addr[0] = line;
  }
  std::stable_sort(t.sends.begin(), t.sends.end(),
                   [](const Send& a, const Send& b) { return a.at < b.at; });
  const Outcome serial = drive(p, t.sends, 1);
  ASSERT_EQ(serial.fault, "fault of the request from SM 7");
  for (unsigned threads : {2u, 4u}) {
    SCOPED_TRACE(testing::Message() << threads << " threads");
    const Outcome par = drive(p, t.sends, threads);
    EXPECT_GT(par.phases, 0u);
    EXPECT_EQ(par.fault, serial.fault);
  }
}

TEST(MemoryHierarchy, TickOrderIsCycleThenPartition) {
  // (L2 cycle, name) per partition, each in its own order.
  const std::vector<std::vector<std::pair<int, char>>> logs = {
      {{5, 'a'}, {6, 'b'}}, {{5, 'c'}}, {}, {{4, 'd'}, {6, 'e'}, {6, 'f'}}};
  std::string order;
  std::vector<std::size_t> at;
  for_each_in_tick_order(
      logs.size(), [&](std::size_t k) -> const auto& { return logs[k]; },
      [](const std::pair<int, char>& e) { return e.first; },
      [&](const std::pair<int, char>& e) { order += e.second; }, at);
  EXPECT_EQ(order, "dacbef");
}

}  // namespace
}  // namespace simtsync::mem::parallel_phase_test
