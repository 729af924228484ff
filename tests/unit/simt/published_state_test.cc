// The state every reconvergence unit publishes for the SM (SplitState: pc, active, live, ready,
// branch_ready, read every cycle without a virtual call) is always what the unit computes: each
// unit of reconvergence.def is driven through random sequences of every report and hook the
// core makes (advance, branch, call, ret, exit, barriers, warp syncs, ticks, its own memory
// traffic, lock instructions), and after each one the published state is compared with
// current_state(). Debug builds check the same on every executed instruction (Executor::step).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "config/config.h"
#include "config/schema.h"
#include "simt/registry.h"
#include "test_pcs.h"

namespace simtsync::simt {
namespace {

using test_pcs::P;

UnitChoice choice(const std::vector<std::pair<std::string, std::string>>& sets) {
  return reconvergence_choice(config::Config::load(config::gpu_schema(), "gtx480", sets));
}

// One warp of `threads` driven like the executor drives it, with random outcomes. Returns the
// number of checks made; stops at the first mismatch (a test failure naming the report).
class Driver {
 public:
  Driver(IReconvergence& u, std::uint64_t seed) : u_(u), rng_(seed) {}

  unsigned run(unsigned steps) {
    for (unsigned step = 0; step < steps && !failed_; ++step) {
      pump();
      ++now_;
      if (u_.finished() || failed_) break;
      if (bar_ != 0 && u_.barrier_complete()) release();
      if (!u_.ready()) continue;
      const LaneMask a = u_.active();
      if (a == 0) {
        if (bar_ == 0) break;  // nothing can run (a unit that names no split): done
        release();
        continue;
      }
      one_instruction(u_.pc(), a);
    }
    return checks_;
  }

 private:
  std::uint64_t pick(std::uint64_t n) { return n == 0 ? 0 : rng_() % n; }
  LaneMask subset(LaneMask m) { return m & rng_(); }
  void check(const char* what) {
    ++checks_;
    if (u_.state_is_current()) return;
    ADD_FAILURE() << u_.name() << ": published state differs from current_state() after " << what
                  << " (cycle " << now_ << ")";
    failed_ = true;
  }

  // The unit's own memory traffic and time (TimedHooks), as the SM runs it.
  void pump() {
    TimedHooks* t = u_.timed();
    if (!t) return;
    t->tick(now_);
    check("tick");
    (void)t->next_event(now_);
    UnitRequest q;
    while (t->pop_request(q)) {
      check("pop_request");
      t->request_sent(q.tag);
      check("request_sent");
      if (!q.write) replies_.push_back({now_ + 1 + pick(6), q.tag});
    }
    for (std::size_t i = 0; i < replies_.size();) {
      if (replies_[i].first > now_) {
        ++i;
        continue;
      }
      t->memory_reply(MemoryReply{0, 0, 0, true, replies_[i].second});
      check("memory_reply (unit)");
      replies_.erase(replies_.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }

  void release() {
    u_.barrier_release();
    check("barrier_release");
    bar_ = 0;
  }

  void one_instruction(Pc pc, LaneMask a) {
    if (pc == kExitPc) {  // fell off the end: a return, or the threads end
      if ((u_.call_mask() & a) == a && depth_ > 0) {
        if (u_.ret()) --depth_;
        check("ret");
      } else {
        u_.exit(a);
        check("exit");
      }
      return;
    }
    const std::uint64_t r = pick(100);
    LockHooks* locks = u_.locks();
    if (r < 40) {
      u_.advance(pc + kInstSize);
      check("advance");
    } else if (r < 65) {
      BranchOutcome b;
      b.taken = subset(a);
      b.target = P(static_cast<int>(pick(40)));
      b.fallthrough = pc + kInstSize;
      const Pc after = std::max(b.target, b.fallthrough) + kInstSize * (1 + pick(5));
      b.rpc = pick(4) == 0 ? kExitPc : after;
      b.safe_rpc = b.rpc == kExitPc || pick(2) ? b.rpc : b.rpc + kInstSize * (1 + pick(3));
      u_.branch(b);
      check("branch");
    } else if (r < 70 && depth_ < 4) {
      u_.call(P(100 + 50 * static_cast<int>(depth_)), pc + kInstSize);
      ++depth_;
      check("call");
    } else if (r < 75 && depth_ > 0) {
      if (u_.ret()) --depth_;
      check("ret");
    } else if (r < 77) {
      u_.exit(subset(a));
      check("exit");
    } else if (r < 83) {
      bar_ |= a;
      const LaneMask waiting = u_.barrier_arrive(a);
      check("barrier_arrive");
      if (waiting == u_.live()) release();
    } else if (r < 88) {
      if (u_.warp_sync(subset(u_.live()) | a)) {
        check("warp_sync");
        u_.advance(pc + kInstSize);
        check("advance after warp_sync");
      } else {
        check("warp_sync (held)");
      }
    } else if (r < 92 && u_.timed()) {
      u_.timed()->memory_reply(MemoryReply{a, subset(a), pc, false, 0});
      check("memory_reply (instruction)");
      u_.advance(pc + kInstSize);
      check("advance");
    } else if (r < 96 && locks) {
      const LockHooks::LockSend s = locks->lock_sent(pc);
      check("lock_sent");
      if (s == LockHooks::kLockNestedQueued) return;
      if (pick(2)) {
        locks->lock_replied(subset(a), pc + kInstSize);
        check("lock_replied");
      } else {
        const LaneMask replied = subset(a) | (a & (~a + 1));
        locks->lock_granted(replied, subset(replied), pc + kInstSize);
        check("lock_granted");
        if (replied != a) {
          locks->lock_granted(a & ~replied, subset(a & ~replied), pc + kInstSize);
          check("lock_granted (rest)");
        }
      }
    } else if (locks) {
      const bool held = locks->unlock_sent();
      check("unlock_sent");
      if (held) {
        locks->unlock(pc + kInstSize);
        check("unlock");
      } else {
        u_.advance(pc + kInstSize);
        check("advance");
      }
    } else {
      u_.advance(pc + kInstSize);
      check("advance");
    }
  }

  IReconvergence& u_;
  std::mt19937_64 rng_;
  Cycle now_ = 0;
  unsigned depth_ = 0;
  LaneMask bar_ = 0;
  std::vector<std::pair<Cycle, std::uint64_t>> replies_;
  unsigned checks_ = 0;
  bool failed_ = false;
};

struct Case {
  const char* label;
  std::vector<std::pair<std::string, std::string>> sets;
};

std::vector<Case> cases() {
  const std::string u = "sm.reconvergence.impl";
  return {
      {"ipdom_stack", {{u, "ipdom_stack"}}},
      {"lock_stack", {{u, "lock_stack"}}},
      {"example_depth", {{u, "example_depth"}}},
      {"multipath", {{u, "multipath"}}},
      {"aware", {{u, "aware"}}},
      {"aware, small tables, timeout",
       {{u, "aware"},
        {"sm.reconvergence.st_entries", "2"},
        {"sm.reconvergence.rt_entries", "2"},
        {"sm.reconvergence.timeout", "20"},
        {"sm.reconvergence.lookup_latency", "3"}}},
      {"its", {{u, "its"}}},
      {"its, starvation_limit 2", {{u, "its"}, {"sm.reconvergence.starvation_limit", "2"}}},
  };
}

TEST(PublishedState, EqualsWhatEveryUnitComputesAfterEveryReport) {
  for (const Case& c : cases()) {
    const UnitChoice unit = choice(c.sets);
    unsigned checks = 0;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
      const LaneMask threads = seed % 3 == 0 ? 0xffffffffu : seed % 3 == 1 ? 0xffu : 0x5u;
      auto u = unit.create(P(0), threads);
      ASSERT_TRUE(u->state_is_current()) << c.label << ": after construction";
      EXPECT_EQ(u->pc(), P(0)) << c.label;
      EXPECT_EQ(u->active(), threads) << c.label;
      EXPECT_EQ(u->live(), threads) << c.label;
      checks += Driver(*u, seed).run(400);
      if (::testing::Test::HasFailure()) return;
    }
    EXPECT_GT(checks, 5000u) << c.label;
  }
}

// The hooks a unit opts into: the split tables keep time and memory, the lock stack has lock
// instructions; the stack and ITS have neither (the SM does nothing for them per cycle).
TEST(PublishedState, UnitsOptIntoTheirHooks) {
  const std::string u = "sm.reconvergence.impl";
  for (const char* impl : {"ipdom_stack", "example_depth", "its"}) {
    auto unit = choice({{u, impl}}).create(P(0), 0x3);
    EXPECT_EQ(unit->timed(), nullptr) << impl;
    EXPECT_EQ(unit->locks(), nullptr) << impl;
  }
  for (const char* impl : {"multipath", "aware"}) {
    auto unit = choice({{u, impl}}).create(P(0), 0x3);
    EXPECT_NE(unit->timed(), nullptr) << impl;
    EXPECT_EQ(unit->locks(), nullptr) << impl;
  }
  // The lock stack keeps time and memory when finite (the default: 32 entries that spill).
  auto lock = choice({{u, "lock_stack"}}).create(P(0), 0x3);
  EXPECT_NE(lock->timed(), nullptr);
  EXPECT_NE(lock->locks(), nullptr);
  auto unbounded =
      choice({{u, "lock_stack"}, {"sm.reconvergence.stack_entries", "0"}}).create(P(0), 0x3);
  EXPECT_EQ(unbounded->timed(), nullptr);
  EXPECT_NE(unbounded->locks(), nullptr);
}

}  // namespace
}  // namespace simtsync::simt
