// SimpleMemory between a test acting as the SM and a mock perform callback that records when
// each functional effect happens.
#include "timing/mem/simple_memory.h"

#include <gtest/gtest.h>

#include <vector>

namespace simtsync::mem {
namespace {

struct Harness {
  explicit Harness(SimpleMemoryParams p, int sms = 1)
      : mem(p, sms, [this](const MemRequest& r) {
          performed.push_back({now, r});
        }) {}

  // Ticks until `until` (inclusive); returns (cycle, request) of every response popped for `sm`.
  std::vector<std::pair<Cycle, MemRequest>> run(Cycle until, int sm = 0) {
    std::vector<std::pair<Cycle, MemRequest>> got;
    for (; now <= until; ++now) {
      mem.tick(now);
      MemRequest r;
      while (mem.pop_response(sm, now, r)) got.push_back({now, r});
    }
    return got;
  }

  Cycle now = 0;
  std::vector<std::pair<Cycle, MemRequest>> performed;
  SimpleMemory mem;
};

SimpleMemoryParams params() {
  SimpleMemoryParams p;
  p.latency = 100;
  p.atomic_latency = 200;
  p.atomic_occupancy = 4;
  p.bytes_per_cycle = 1e9;  // bandwidth out of the way unless a test sets it
  p.queue_depth = 8;
  p.line_bytes = 128;
  return p;
}

MemRequest req(ReqKind k, int tag, unsigned transactions = 1, Addr addr = 0, unsigned lanes = 1) {
  MemRequest r;
  r.kind = k;
  r.warp_slot = tag;
  r.transactions = transactions;
  r.first_address = addr;
  r.same_address_ops = lanes;
  return r;
}

TEST(SimpleMemory, LoadResponseIsDueOneLatencyAfterIssue) {
  Harness h(params());
  h.run(9);
  ASSERT_TRUE(h.mem.try_send(req(ReqKind::kLoad, 1), h.now));  // issued at 10
  EXPECT_TRUE(h.mem.busy());
  auto got = h.run(300);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].first, 110u);
  EXPECT_EQ(got[0].second.warp_slot, 1);
  EXPECT_FALSE(h.mem.busy());
  EXPECT_EQ(h.mem.stats().loads, 1u);
  EXPECT_EQ(h.mem.stats().transactions, 1u);
}

TEST(SimpleMemory, EffectHappensAtTheServicePointNotAtIssue) {
  Harness h(params());
  ASSERT_TRUE(h.mem.try_send(req(ReqKind::kStore, 1), 0));
  EXPECT_TRUE(h.performed.empty());
  EXPECT_EQ(h.mem.next_event(), 50u);
  h.run(49);
  EXPECT_TRUE(h.performed.empty());
  auto got = h.run(200);
  ASSERT_EQ(h.performed.size(), 1u);
  EXPECT_EQ(h.performed[0].first, 50u);  // latency / 2
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].first, 100u);
  EXPECT_EQ(h.mem.stats().stores, 1u);
}

TEST(SimpleMemory, BackToBackRequestsAreSpacedByTheBandwidth) {
  SimpleMemoryParams p = params();
  p.bytes_per_cycle = 32;  // one 128-byte transaction every 4 cycles
  Harness h(p);
  ASSERT_TRUE(h.mem.try_send(req(ReqKind::kLoad, 1), 0));
  ASSERT_TRUE(h.mem.try_send(req(ReqKind::kLoad, 2), 0));
  ASSERT_TRUE(h.mem.try_send(req(ReqKind::kLoad, 3, /*transactions=*/2), 0));
  ASSERT_TRUE(h.mem.try_send(req(ReqKind::kLoad, 4), 0));
  auto got = h.run(400);
  ASSERT_EQ(got.size(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(got[static_cast<size_t>(i)].second.warp_slot, i + 1);
  EXPECT_EQ(got[0].first, 104u);  // its own transfer, then the latency
  EXPECT_EQ(got[1].first - got[0].first, 4u);
  EXPECT_EQ(got[2].first - got[1].first, 8u);  // two transactions
  EXPECT_EQ(got[3].first - got[2].first, 4u);
  EXPECT_EQ(h.mem.stats().transactions, 5u);
}

TEST(SimpleMemory, IdleBandwidthIsNotBanked) {
  SimpleMemoryParams p = params();
  p.bytes_per_cycle = 32;
  Harness h(p);
  ASSERT_TRUE(h.mem.try_send(req(ReqKind::kLoad, 1), 0));
  h.run(499);
  ASSERT_TRUE(h.mem.try_send(req(ReqKind::kLoad, 2), 500));
  auto got = h.run(1000);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].first, 604u);
}

TEST(SimpleMemory, AtomicsToOneAddressSerialize) {
  Harness h(params());
  ASSERT_TRUE(h.mem.try_send(req(ReqKind::kAtomic, 1, 1, 0x1000, 32), 0));
  ASSERT_TRUE(h.mem.try_send(req(ReqKind::kAtomic, 2, 1, 0x1000, 32), 0));
  auto got = h.run(1000);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[1].first - got[0].first, 4u * 32);  // atomic_occupancy * lanes
  ASSERT_EQ(h.performed.size(), 2u);
  EXPECT_EQ(h.performed[0].first, 100u);  // atomic_latency / 2
  EXPECT_EQ(h.performed[1].first, 100u + 4 * 32);
  EXPECT_EQ(h.performed[0].second.warp_slot, 1);  // applied in arrival order
  EXPECT_EQ(h.mem.stats().atomics, 2u);
  EXPECT_EQ(h.mem.stats().atomic_lane_ops, 64u);
  EXPECT_EQ(h.mem.stats().atomic_wait_cycles, 128u);
}

TEST(SimpleMemory, AtomicsToDifferentAddressesOverlap) {
  Harness h(params());
  ASSERT_TRUE(h.mem.try_send(req(ReqKind::kAtomic, 1, 1, 0x1000, 32), 0));
  ASSERT_TRUE(h.mem.try_send(req(ReqKind::kAtomic, 2, 1, 0x2000, 32), 0));
  auto got = h.run(1000);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].first, got[1].first);
  EXPECT_EQ(got[0].first, 200u + 4 * 32);  // round trip plus its own lane operations
  EXPECT_EQ(h.mem.stats().atomic_wait_cycles, 0u);
}

TEST(SimpleMemory, LoadsDoNotWaitForTheAtomicUnit) {
  Harness h(params());
  ASSERT_TRUE(h.mem.try_send(req(ReqKind::kAtomic, 1, 1, 0x1000, 32), 0));
  ASSERT_TRUE(h.mem.try_send(req(ReqKind::kLoad, 2, 1, 0x1000), 0));
  auto got = h.run(1000);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].second.warp_slot, 2);
  EXPECT_EQ(got[0].first, 100u);
}

TEST(SimpleMemory, QueueDepthRefusesAndRecoversPerSm) {
  SimpleMemoryParams p = params();
  p.queue_depth = 2;
  Harness h(p, /*sms=*/2);
  ASSERT_TRUE(h.mem.try_send(req(ReqKind::kLoad, 1), 0));
  ASSERT_TRUE(h.mem.try_send(req(ReqKind::kLoad, 2), 0));
  EXPECT_FALSE(h.mem.try_send(req(ReqKind::kLoad, 3), 0));
  EXPECT_FALSE(h.mem.try_send(req(ReqKind::kStore, 3), 1));
  EXPECT_EQ(h.mem.stats().refused, 2u);
  EXPECT_EQ(h.mem.stats().loads, 2u);  // refused requests are not counted as sent
  MemRequest other = req(ReqKind::kLoad, 9);
  other.sm = 1;
  EXPECT_TRUE(h.mem.try_send(other, 1));  // the other SM has its own queue
  // A slot frees only when the response is taken.
  h.run(99);
  EXPECT_FALSE(h.mem.try_send(req(ReqKind::kLoad, 3), h.now));
  MemRequest r;
  h.mem.tick(100);
  ASSERT_TRUE(h.mem.pop_response(0, 100, r));
  EXPECT_TRUE(h.mem.try_send(req(ReqKind::kLoad, 3), 100));
  EXPECT_EQ(h.mem.stats().refused, 3u);
}

TEST(SimpleMemory, ResponsesGoToTheirOwnSm) {
  Harness h(params(), 2);
  MemRequest a = req(ReqKind::kLoad, 1);
  a.sm = 1;
  ASSERT_TRUE(h.mem.try_send(a, 0));
  auto got0 = h.run(300, 0);
  EXPECT_TRUE(got0.empty());
  MemRequest r;
  ASSERT_TRUE(h.mem.pop_response(1, h.now, r));
  EXPECT_EQ(r.warp_slot, 1);
  EXPECT_FALSE(h.mem.busy());
  EXPECT_EQ(h.mem.next_event(), kNever);
}

// The parallel SM phase (issue 20): sends kept back while deferred and committed afterwards
// behave as immediate sends in SM order, whatever order the SMs sent them in.
TEST(SimpleMemory, DeferredSendsCommitInSmOrder) {
  SimpleMemoryParams p = params();
  p.bytes_per_cycle = 64;  // two 128-byte transactions: the order decides who waits
  p.queue_depth = 1;
  Harness now(p, 2), later(p, 2);
  now.run(9);
  later.run(9);
  ASSERT_TRUE(now.mem.try_send(req(ReqKind::kLoad, 0, 1), 10));
  MemRequest b = req(ReqKind::kLoad, 1, 1);
  b.sm = 1;
  ASSERT_TRUE(now.mem.try_send(b, 10));
  later.mem.set_deferred(true);
  ASSERT_TRUE(later.mem.try_send(b, 10));  // SM 1 ticked first
  ASSERT_TRUE(later.mem.try_send(req(ReqKind::kLoad, 0, 1), 10));
  EXPECT_FALSE(later.mem.try_send(req(ReqKind::kLoad, 2, 1), 10));  // SM 0's queue is full
  EXPECT_TRUE(later.performed.empty());
  later.mem.commit();
  std::vector<Cycle> a, c;
  for (; now.now <= 400; ++now.now, ++later.now) {
    now.mem.tick(now.now);
    later.mem.tick(later.now);
    MemRequest r;
    for (int sm = 0; sm < 2; ++sm) {
      while (now.mem.pop_response(sm, now.now, r)) a.push_back(now.now * 2 + sm);
      while (later.mem.pop_response(sm, later.now, r)) c.push_back(later.now * 2 + sm);
    }
  }
  ASSERT_EQ(a.size(), 2u);
  EXPECT_NE(a[0] / 2, a[1] / 2);  // the bandwidth made one wait
  EXPECT_EQ(a, c);
  EXPECT_EQ(later.mem.stats().refused, 1u);
}

}  // namespace
}  // namespace simtsync::mem
