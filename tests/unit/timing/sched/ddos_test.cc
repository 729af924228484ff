// DDOS (seed 000 sec. IV) on hand-built issue events: the Fig. 7b busy-wait and Fig. 7c for
// loop walk-throughs, SIB-PT confirmation, decay and replacement, hashing aliasing, history
// length, time sharing, the per-branch records and the TSDR/FSDR/DPR summary. No SM involved.
#include "timing/sched/ddos.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "func/program.h"

namespace simtsync::spin {
namespace {

// Feeds one Ddos with the events of a few warps.
class Feed {
 public:
  explicit Feed(const DdosParams& p, unsigned slots = 4)
      : counters(ddos_stat_count(), 0), ddos(p, slots, counters.data(), &records) {}

  void launch(std::vector<int> slots, Cycle now = 0) {
    sm::CtaEvent e;
    e.now = now;
    e.slots = std::move(slots);
    ddos.on_cta_launch(e);
  }
  void exit(int slot, Cycle now = 0) {
    sm::WarpExitEvent e;
    e.now = now;
    e.slot = slot;
    ddos.on_warp_exit(e);
  }
  // A setp whose profiled thread compares a with b.
  void setp(int slot, Pc pc, std::uint64_t a, std::uint64_t b, Cycle now = 0) {
    sm::IssueEvent e;
    e.now = now;
    e.slot = slot;
    e.pc = pc;
    e.active = e.guard = 1;
    e.setp = true;
    e.setp_a = a;
    e.setp_b = b;
    ddos.on_issue(e);
  }
  // A branch from pc to target taken by `taken` lanes.
  void branch(int slot, Pc pc, Pc target, LaneMask taken = 1, Cycle now = 0,
              const func::ExecInst* inst = nullptr) {
    sm::IssueEvent e;
    e.now = now;
    e.slot = slot;
    e.pc = pc;
    e.inst = inst;
    e.active = 1;
    e.guard = taken;
    e.branch = true;
    e.taken = taken;
    e.target = target;
    e.backward = target <= pc;
    ddos.on_issue(e);
  }
  std::uint64_t stat(DdosStat s) const { return counters[s]; }

  std::vector<std::uint64_t> counters;
  std::vector<sched::PolicyRecord> records;
  Ddos ddos;
};

// Fig. 7b's parameters: MODULO hashing, m = k = 4, l = 8, t = 4.
DdosParams fig7_params() {
  DdosParams p;
  p.hash = DdosHash::kModulo;
  p.path_bits = p.value_bits = 4;
  return p;
}

// Fig. 7a: setp at 0x038 compares the CAS result %r15 with 0; setp at 0x090 compares %r21 (0
// until the lock is taken) with 0; the backward branch at 0x098 goes to BB2 (0x030).
constexpr Pc kCasSetp = 0x038, kDoneSetp = 0x090, kSpinBranch = 0x098, kLoopHead = 0x030;

// One failed lock attempt of the Fig. 7a busy-wait loop.
void failed_attempt(Feed& f, int slot, Cycle now = 0) {
  f.setp(slot, kCasSetp, 1, 0, now);
  f.setp(slot, kDoneSetp, 0, 0, now);
  f.branch(slot, kSpinBranch, kLoopHead, 1, now);
}

TEST(DdosHashTest, Fig7bValuesAndXorFold) {
  // ((PC - 0) / 8) % 2^4: 0x038 -> 0x7, 0x090 -> 0x2 (Fig. 7b 1a, 2a).
  EXPECT_EQ(ddos_path_hash(DdosHash::kModulo, 4, kCasSetp), 0x7u);
  EXPECT_EQ(ddos_path_hash(DdosHash::kModulo, 4, kDoneSetp), 0x2u);
  EXPECT_EQ(ddos_value_hash(DdosHash::kModulo, 4, 0x1231), 0x1u);
  // XOR: PC[3:0] ^ PC[7:4] ^ ...
  EXPECT_EQ(ddos_path_hash(DdosHash::kXor, 4, 0x038), 0x8u ^ 0x3u);
  EXPECT_EQ(ddos_value_hash(DdosHash::kXor, 8, 0x12345678), 0x12u ^ 0x34u ^ 0x56u ^ 0x78u);
  // m = 3 over a 32-bit word: the top chunk PC[31:30] zero-padded.
  EXPECT_EQ(ddos_value_hash(DdosHash::kXor, 3, 0xC0000000u), 0x3u);
}

TEST(DdosTest, Fig7bBusyWaitSpinsAfterFourthInsertionAndLosesItOnValueMismatch) {
  Feed f(fig7_params());
  f.launch({0});
  f.setp(0, kCasSetp, 1, 0);  // 1: the CAS failed, %r15 = 1
  EXPECT_FALSE(f.ddos.spinning(0));
  f.setp(0, kDoneSetp, 0, 0);  // 2: no match with 0x7
  EXPECT_FALSE(f.ddos.spinning(0));
  EXPECT_EQ(f.stat(kDdosLoopDetections), 0u);
  f.setp(0, kCasSetp, 1, 0);  // 3: match two back: pointer fixed, one match remaining
  EXPECT_EQ(f.stat(kDdosLoopDetections), 1u);
  EXPECT_FALSE(f.ddos.spinning(0));
  f.setp(0, kDoneSetp, 0, 0);  // 4: remaining matches 0: spinning
  EXPECT_TRUE(f.ddos.spinning(0));
  // The backward branch at 0x098 executed while spinning enters the SIB-PT with confidence 1.
  f.branch(0, kSpinBranch, kLoopHead);
  EXPECT_EQ(f.ddos.confidence(kSpinBranch), 1u);
  EXPECT_EQ(f.stat(kDdosSibPtInsertions), 1u);
  failed_attempt(f, 0);
  EXPECT_TRUE(f.ddos.spinning(0));
  EXPECT_EQ(f.ddos.confidence(kSpinBranch), 2u);
  // The CAS succeeds: %r15 = 0, same path, different value (5b).
  f.setp(0, kCasSetp, 0, 0);
  EXPECT_FALSE(f.ddos.spinning(0));
  EXPECT_EQ(f.stat(kDdosSpinningEntries), 1u);
  EXPECT_EQ(f.stat(kDdosSpinningExits), 1u);
  EXPECT_EQ(f.stat(kDdosSetpUpdates), 7u);
}

TEST(DdosTest, Fig7cForLoopNeverSpins) {
  for (DdosHash h : {DdosHash::kModulo, DdosHash::kXor}) {
    DdosParams p = fig7_params();
    p.hash = h;
    Feed f(p);
    f.launch({0});
    // 0x058: setp.lt.s32 %p4, %r20, %r15 with %r20 = 0, 1, 2, ...; 0x060: @%p4 bra BB2.
    for (std::uint64_t i = 0; i < 40; ++i) {
      f.setp(0, 0x058, i, 40);
      EXPECT_FALSE(f.ddos.spinning(0)) << "iteration " << i;
      f.branch(0, 0x060, 0x030, i + 1 < 40 ? 1 : 0);
    }
    EXPECT_EQ(f.stat(kDdosLoopDetections), 0u);
    EXPECT_EQ(f.stat(kDdosSibPtInsertions), 0u);
    EXPECT_FALSE(f.ddos.is_sib(0x060));
  }
}

// Slot `slot` spinning in a one-setp loop at 0x100 (a match one back: spinning at once).
void spin_one_setp(Feed& f, int slot) {
  f.setp(slot, 0x100, 7, 0);
  f.setp(slot, 0x100, 7, 0);
  ASSERT_TRUE(f.ddos.spinning(slot));
}

TEST(DdosTest, SibPtConfirmsAtThresholdAndDecaysOnNonSpinningWarp) {
  Feed f(DdosParams{});
  f.launch({0, 1});
  spin_one_setp(f, 0);
  for (int i = 0; i < 3; ++i) f.branch(0, 0x108, 0x100);
  EXPECT_FALSE(f.ddos.is_sib(0x108));
  f.branch(0, 0x108, 0x100);
  EXPECT_TRUE(f.ddos.is_sib(0x108));
  EXPECT_EQ(f.stat(kDdosSibConfirmations), 1u);
  // Slot 1 has no history (not spinning): its taken branch decrements, a not-taken one doesn't.
  f.branch(1, 0x108, 0x100, 0);
  EXPECT_TRUE(f.ddos.is_sib(0x108));
  f.branch(1, 0x108, 0x100, 1);
  EXPECT_EQ(f.ddos.confidence(0x108), 3u);
  EXPECT_FALSE(f.ddos.is_sib(0x108));
  EXPECT_EQ(f.stat(kDdosConfidenceDecrements), 1u);
  f.branch(0, 0x108, 0x100);
  EXPECT_TRUE(f.ddos.is_sib(0x108));
  EXPECT_EQ(f.stat(kDdosSibConfirmations), 2u);
  // The confidence saturates at 2^bit_width(4) - 1 = 7 (3 bits, Table III's 560-bit SIB-PT).
  for (int i = 0; i < 10; ++i) f.branch(0, 0x108, 0x100);
  EXPECT_EQ(f.ddos.confidence(0x108), 7u);
  EXPECT_EQ(f.stat(kDdosSpinningBranches), 15u);
  // Decayed to 0 it leaves the table.
  for (int i = 0; i < 7; ++i) f.branch(1, 0x108, 0x100);
  EXPECT_EQ(f.ddos.confidence(0x108), 0u);
  f.branch(1, 0x108, 0x100);
  EXPECT_EQ(f.stat(kDdosConfidenceDecrements), 8u);
}

TEST(DdosTest, FullSibPtReplacesLowestConfidenceThenLeastRecentlyUpdated) {
  DdosParams p;
  p.table_entries = 2;
  Feed f(p);
  f.launch({0});
  spin_one_setp(f, 0);
  for (int i = 0; i < 3; ++i) f.branch(0, 0x180, 0x100);
  f.branch(0, 0x1a0, 0x100);
  f.branch(0, 0x1c0, 0x100);  // replaces 0x1a0 (confidence 1 < 3)
  EXPECT_EQ(f.stat(kDdosSibPtEvictions), 1u);
  EXPECT_EQ(f.ddos.confidence(0x180), 3u);
  EXPECT_EQ(f.ddos.confidence(0x1a0), 0u);
  EXPECT_EQ(f.ddos.confidence(0x1c0), 1u);
  f.branch(0, 0x1c0, 0x100);
  f.branch(0, 0x1c0, 0x100);  // 0x1c0 at 3, updated after 0x180
  f.branch(0, 0x1e0, 0x100);  // equal confidences: the least recently updated (0x180) goes
  EXPECT_EQ(f.ddos.confidence(0x180), 0u);
  EXPECT_EQ(f.ddos.confidence(0x1c0), 3u);
  EXPECT_EQ(f.ddos.confidence(0x1e0), 1u);
  EXPECT_EQ(f.stat(kDdosSibPtInsertions), 4u);
}

// A for loop whose induction variable grows by 256 = 2^k: MODULO keeps the low 8 bits (always
// 0) and sees the same entry every iteration; XOR folds the upper bits in.
TEST(DdosTest, ModuloAliasesPowerOfTwoInductionLargerThanTwoToTheKXorDoesNot) {
  for (DdosHash h : {DdosHash::kModulo, DdosHash::kXor}) {
    DdosParams p;
    p.hash = h;
    Feed f(p);
    f.launch({0});
    bool spun = false;
    for (std::uint64_t i = 0; i < 64 * 256; i += 256) {
      f.setp(0, 0x200, i, 64 * 256);
      spun = spun || f.ddos.spinning(0);
      f.branch(0, 0x208, 0x1f0);
    }
    if (h == DdosHash::kModulo) {
      EXPECT_TRUE(spun);
      EXPECT_TRUE(f.ddos.is_sib(0x208)) << "MODULO: a false detection";
    } else {
      EXPECT_FALSE(spun);
      EXPECT_FALSE(f.ddos.is_sib(0x208));
      EXPECT_EQ(f.stat(kDdosSibPtInsertions), 0u);
    }
  }
}

// The registers hold l entries including the new one: a loop of n setps needs l > n.
TEST(DdosTest, HistoryShorterThanTheLoopNeverDetectsIt) {
  for (unsigned l : {1u, 2u, 3u}) {
    DdosParams p = fig7_params();
    p.length = l;
    Feed f(p);
    f.launch({0});
    for (int i = 0; i < 10; ++i) failed_attempt(f, 0);
    EXPECT_EQ(f.ddos.spinning(0), l >= 3) << "l=" << l;
    EXPECT_EQ(f.ddos.is_sib(kSpinBranch), l >= 3) << "l=" << l;
  }
  // l = 2 still sees a one-setp loop; l = 1 sees nothing.
  for (unsigned l : {1u, 2u}) {
    DdosParams p;
    p.length = l;
    Feed f(p);
    f.launch({0});
    f.setp(0, 0x100, 7, 0);
    f.setp(0, 0x100, 7, 0);
    EXPECT_EQ(f.ddos.spinning(0), l == 2) << "l=" << l;
  }
}

TEST(DdosTest, WarpExitAndNewCtaStartWithEmptyHistories) {
  Feed f(fig7_params());
  f.launch({0});
  for (int i = 0; i < 2; ++i) failed_attempt(f, 0);
  EXPECT_TRUE(f.ddos.spinning(0));
  f.exit(0);
  EXPECT_FALSE(f.ddos.spinning(0));
  f.launch({0});
  f.setp(0, kCasSetp, 1, 0);  // nothing earlier to match
  f.setp(0, kDoneSetp, 0, 0);
  EXPECT_FALSE(f.ddos.spinning(0));
  f.setp(0, kCasSetp, 1, 0);
  f.setp(0, kDoneSetp, 0, 0);
  EXPECT_TRUE(f.ddos.spinning(0));
}

TEST(DdosTest, TimeSharingProfilesOneWarpPerEpoch) {
  DdosParams p = fig7_params();
  p.time_sharing = true;
  p.epoch = 1000;
  Feed f(p);
  f.launch({0, 1, 2}, 10);
  EXPECT_EQ(f.ddos.time_share_owner(), 0);
  for (int i = 0; i < 3; ++i) {
    failed_attempt(f, 0, 100 + i);
    failed_attempt(f, 1, 100 + i);
  }
  EXPECT_TRUE(f.ddos.spinning(0));
  EXPECT_FALSE(f.ddos.spinning(1));  // not profiled
  // Only slot 0 touched the SIB-PT: its 2 spinning branches; slot 1's taken ones don't decay it.
  EXPECT_EQ(f.ddos.confidence(kSpinBranch), 2u);
  EXPECT_EQ(f.stat(kDdosConfidenceDecrements), 0u);
  // Next epoch: slot 1 owns the (cleared) registers.
  failed_attempt(f, 1, 1000);
  EXPECT_EQ(f.ddos.time_share_owner(), 1);
  EXPECT_FALSE(f.ddos.spinning(0));
  EXPECT_FALSE(f.ddos.spinning(1));  // two setps seen so far; its branch was not spinning
  EXPECT_EQ(f.ddos.confidence(kSpinBranch), 1u);
  failed_attempt(f, 1, 1001);
  EXPECT_TRUE(f.ddos.spinning(1));
  // The owner exits: slot 2 takes over at once.
  f.exit(1, 1100);
  EXPECT_EQ(f.ddos.time_share_owner(), 2);
  EXPECT_FALSE(f.ddos.spinning(2));
  EXPECT_EQ(f.stat(kDdosTimeShareSwitches), 3u);
  // Without time sharing both warps are profiled.
  Feed g(fig7_params());
  g.launch({0, 1});
  for (int i = 0; i < 2; ++i) {
    failed_attempt(g, 0);
    failed_attempt(g, 1);
  }
  EXPECT_TRUE(g.ddos.spinning(0));
  EXPECT_TRUE(g.ddos.spinning(1));
  EXPECT_EQ(g.ddos.time_share_owner(), -1);
}

TEST(DdosTest, FinishWritesOneRecordPerBackwardBranchInPcOrder) {
  Feed f(DdosParams{});
  f.launch({0});
  func::ExecInst marked;
  marked.spin_mark = true;
  f.branch(0, 0x300, 0x100, 1, 5, &marked);  // seen before the warp spins
  f.branch(0, 0x120, 0x100, 1, 6);
  f.branch(0, 0x400, 0x500, 1, 7);  // forward: not recorded
  spin_one_setp(f, 0);
  for (Cycle c = 10; c < 14; ++c) f.branch(0, 0x300, 0x100, 1, c, &marked);
  f.branch(0, 0x300, 0x100, 1, 20, &marked);
  f.ddos.finish(30);
  ASSERT_EQ(f.records.size(), 2u);
  const auto expect = [](const sched::PolicyRecord& r,
                         std::vector<std::pair<std::string, double>> fields) {
    EXPECT_EQ(r.kind, "ddos_branch");
    EXPECT_EQ(r.fields, fields);
  };
  expect(f.records[0], {{"pc", 0x120},
                        {"annotated", 0},
                        {"first", 6},
                        {"confirmed", -1},
                        {"last", 6},
                        {"executed", 1},
                        {"taken", 1},
                        {"by_spinning", 0}});
  expect(f.records[1], {{"pc", 0x300},
                        {"annotated", 1},
                        {"first", 5},
                        {"confirmed", 13},
                        {"last", 20},
                        {"executed", 6},
                        {"taken", 6},
                        {"by_spinning", 5}});
}

sched::PolicyRecord branch_record(double sm, double annotated, double first, double confirmed,
                                  double last) {
  return {"ddos_branch",
          {{"pc", 0x98},
           {"annotated", annotated},
           {"first", first},
           {"confirmed", confirmed},
           {"last", last},
           {"sm", sm}}};
}

TEST(DdosSummaryTest, RatesAndDetectionPhaseRatiosFromRecords) {
  // The same branch on four SMs (annotated): three confirmed; two non-annotated pairs, one
  // confirmed; a record of another kind is ignored.
  const std::vector<sched::PolicyRecord> records = {
      branch_record(0, 1, 100, 150, 600),     // DPR 0.1
      branch_record(1, 1, 0, 300, 1000),      // DPR 0.3
      branch_record(2, 1, 50, -1, 900),       // never confirmed
      branch_record(3, 1, 70, 70, 70),        // last == first: DPR 0
      branch_record(0, 0, 1000, 1500, 2000),  // false detection, DPR 0.5
      branch_record(1, 0, 10, -1, 20),       {"delay_limit", {{"annotated", 1}, {"confirmed", 5}}},
  };
  const DdosSummary s = summarize(records);
  EXPECT_EQ(s.sibs, 4u);
  EXPECT_EQ(s.sibs_confirmed, 3u);
  EXPECT_EQ(s.non_sibs, 2u);
  EXPECT_EQ(s.non_sibs_confirmed, 1u);
  EXPECT_DOUBLE_EQ(s.tsdr, 0.75);
  EXPECT_DOUBLE_EQ(s.fsdr, 0.5);
  EXPECT_DOUBLE_EQ(s.dpr_true, (0.1 + 0.3 + 0.0) / 3);
  EXPECT_DOUBLE_EQ(s.dpr_false, 0.5);
  const DdosSummary none = summarize({});
  EXPECT_EQ(none.tsdr, 0.0);
  EXPECT_EQ(none.sibs + none.non_sibs, 0u);
}

TEST(DdosConfigTest, DeclaresPrefixedKeysStatsAndSeedDefaults) {
  config::PluginDecl d(nullptr, "sm.warp_scheduler", "bows");
  declare_ddos(d);
  const std::vector<std::string> keys = {"ddos_hash",   "ddos_path_bits",    "ddos_value_bits",
                                         "ddos_length", "ddos_threshold",    "ddos_time_sharing",
                                         "ddos_epoch",  "ddos_table_entries"};
  EXPECT_EQ(d.keys(), keys);
  EXPECT_EQ(d.stats().size(), ddos_stat_count());
  EXPECT_EQ(ddos_stat_count(), static_cast<unsigned>(kDdosStatCount));
  for (const auto& s : d.stats()) EXPECT_FALSE(s.description.empty()) << s.name;
  config::PluginParams pp = config::declared_defaults("sm.warp_scheduler", "bows", &declare_ddos);
  const DdosParams def = ddos_params(pp);
  const DdosParams seed;
  EXPECT_EQ(def.hash, DdosHash::kXor);
  EXPECT_EQ(def.path_bits, seed.path_bits);
  EXPECT_EQ(def.value_bits, seed.value_bits);
  EXPECT_EQ(def.length, seed.length);
  EXPECT_EQ(def.threshold, seed.threshold);
  EXPECT_EQ(def.time_sharing, seed.time_sharing);
  EXPECT_EQ(def.epoch, seed.epoch);
  EXPECT_EQ(def.table_entries, seed.table_entries);
  pp.set("ddos_hash", std::string("modulo")).set("ddos_length", std::int64_t{4});
  EXPECT_EQ(ddos_params(pp).hash, DdosHash::kModulo);
  EXPECT_EQ(ddos_params(pp).length, 4u);
}

}  // namespace
}  // namespace simtsync::spin
