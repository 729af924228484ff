// Issue 50 item 6: a lock taken only by lane 0 of each warp is a warp-uniform busy-wait, not a
// SIMT deadlock, however the program names lane 0: `threadIdx.x == 0`, `%laneid == 0`, and the
// idioms `threadIdx.x % 32 == 0` and `(threadIdx.x & 31) == 0`, which nvcc -O3 emits as
// `and.b32 r, tid, 31`. A mask that drops a low lane bit (`& 15`) selects two lanes per warp and
// stays flagged. And where a report puts a loop whose header has no source line of its own.
#include <gtest/gtest.h>

#include <string>

#include "analysis/deadlock_analysis.h"
#include "analysis/deadlock_printer.h"
#include "ptx/parser.h"

namespace simtsync::analysis {
namespace {

// The kernel nvcc -O3 -arch=sm_75 writes for `if (SEL == 0) { while (atomicCAS(lock, 0, 1));
// atomicExch(lock, 0); }`, with SEL computed by `select` from %tid.x into %r2.
std::string lock_kernel(const std::string& select) {
  return R"(
.version 7.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 p)
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
)" + select +
         R"(
  setp.ne.s32 %p1, %r2, 0;
  @%p1 bra DONE;
SPIN:
  atom.global.cas.b32 %r3, [%rd2], 0, 1;
  setp.ne.s32 %p2, %r3, 0;
  @%p2 bra SPIN;
  atom.global.exch.b32 %r4, [%rd2], 0;
DONE:
  ret;
}
)";
}

struct Verdict {
  int flagged = 0, busy = 0;
};

Verdict analyse(const std::string& select) {
  const auto m = ptx::parse_module(lock_kernel(select), "lane.ptx");
  Verdict v;
  for (const auto& f : m.functions) {
    const FunctionAnalysis a(m, f);
    for (const auto& x : a.deadlock().verdicts()) {
      v.flagged += x.flagged;
      v.busy += x.busy_wait;
    }
  }
  return v;
}

TEST(LaneIdioms, LaneZeroLocksAreWarpUniformBusyWaits) {
  for (const char* select :
       {"  mov.u32 %r2, %r1;", "  and.b32 %r2, %r1, 31;", "  and.b32 %r2, %r1, 63;",
        "  rem.u32 %r2, %r1, 32;", "  mov.u32 %r5, %laneid;\n  and.b32 %r2, %r5, 31;"}) {
    SCOPED_TRACE(select);
    const Verdict v = analyse(select);
    EXPECT_EQ(v.flagged, 0);
    EXPECT_EQ(v.busy, 1);
  }
}

TEST(LaneIdioms, SelectorsThatKeepSeveralLanesStayFlagged) {
  // & 15 and % 16 hold for lanes 0 and 16; a signed remainder is not reduced here; a shift
  // keeps lanes 0-1.
  for (const char* select : {"  and.b32 %r2, %r1, 15;", "  rem.u32 %r2, %r1, 16;",
                             "  rem.s32 %r2, %r1, 32;", "  shr.u32 %r2, %r1, 1;"}) {
    SCOPED_TRACE(select);
    const Verdict v = analyse(select);
    EXPECT_EQ(v.flagged, 1);
    EXPECT_EQ(v.busy, 0);
  }
}

std::string report(const std::string& text, const std::string& path) {
  const auto m = ptx::parse_module(text, path);
  std::string out;
  for (const auto& f : m.functions) out += format_deadlock(FunctionAnalysis(m, f).report());
  return out;
}

TEST(LaneIdioms, LoopWithoutItsOwnSourceLineNamesTheNearestOne) {
  // nvcc marks a loop header it made `.loc 1 0 N`: the report names the line before it (the
  // `for`), not the PTX line under the .cu file's name.
  std::string text = lock_kernel("  and.b32 %r2, %r1, 15;");
  text.replace(text.find("  mov.u32 %r1, %tid.x;"), 0, "  .loc 1 7 3\n");
  text.replace(text.find("SPIN:\n"), 6, "SPIN:\n  .loc 1 0 3\n");
  text += "  .file 1 \"uni.cu\"\n";
  EXPECT_NE(report(text, "uni.ptx").find("loop SPIN (uni.cu:7)"), std::string::npos)
      << report(text, "uni.ptx");
  // No .loc at all, in a module named after its .cu file: the PTX line, labelled as one.
  const std::string bare = report(lock_kernel("  and.b32 %r2, %r1, 15;"), "uni.cu");
  EXPECT_NE(bare.find("loop SPIN (uni.cu, PTX line "), std::string::npos) << bare;
}

// Issue 50: the lane test nvcc -O3 folds with a uniform test into one predicate,
// `if (threadIdx.x != 0 || p == nullptr) return;` (or.pred: the fall-through side has both
// false, so lane 0 only), through `not` as well; and.pred keeps lanes where either is false.
std::string combined_kernel(const std::string& branch) {
  std::string text = lock_kernel("  mov.u32 %r2, %r1;");
  text.replace(text.find(".reg .pred %p<3>;"), 17, ".reg .pred %p<8>;");
  const std::string old = "  setp.ne.s32 %p1, %r2, 0;\n  @%p1 bra DONE;";
  text.replace(text.find(old), old.size(),
               "  setp.ne.s32 %p1, %r2, 0;\n  setp.eq.u64 %p3, %rd1, 0;\n" + branch);
  return text;
}

int flagged_in(const std::string& text) {
  const auto m = ptx::parse_module(text, "k.ptx");
  int n = 0;
  for (const auto& f : m.functions) n += FunctionAnalysis(m, f).deadlock().num_flagged();
  return n;
}

TEST(LaneIdioms, LaneTestFoldedWithAUniformOne) {
  EXPECT_EQ(flagged_in(combined_kernel("  or.pred %p4, %p1, %p3;\n  @%p4 bra DONE;")), 0);
  EXPECT_EQ(flagged_in(combined_kernel("  or.pred %p4, %p3, %p1;\n  not.pred %p5, %p4;\n"
                                       "  @!%p5 bra DONE;")),
            0);
  EXPECT_EQ(flagged_in(combined_kernel("  and.pred %p4, %p1, %p3;\n  @%p4 bra DONE;")), 1);
}

// A loop every lane runs, inside an outer loop, whose exit reads the result of `atom`; the same
// atomic before it in the outer loop is the write the published algorithm finds reachable
// (the tree build's first atomicAdd(&ncells, 1) before its allocation loop).
std::string atomic_loop(const std::string& atom) {
  return R"(
.version 7.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 p)
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mov.u32 %r6, 0;
OUTER:
)" + atom +
         R"(
  mov.u32 %r7, %r6;
SPIN:
)" + atom +
         R"(
  setp.lt.u32 %p2, %r3, 100;
  @%p2 bra SPIN;
  add.u32 %r6, %r7, 1;
  setp.lt.u32 %p1, %r6, 4;
  @%p1 bra OUTER;
  ret;
}
)";
}

TEST(LaneIdioms, FetchAndAddTicketsAreNoWait) {
  const std::string ticket = atomic_loop("  atom.global.add.u32 %r3, [%rd2], 1;");
  const auto m = ptx::parse_module(ticket, "k.ptx");
  const FunctionAnalysis a(m, m.functions.front());
  int self = 0, seed = 0;
  for (const auto& v : a.deadlock().verdicts()) {
    self += v.self_advancing;
    seed += v.seed_flagged;
  }
  EXPECT_EQ(a.deadlock().num_flagged(), 0);
  EXPECT_EQ(self, 1);
  EXPECT_EQ(seed, 1);
  EXPECT_NE(format_deadlock(a.report()).find("its exit reads advance by themselves"),
            std::string::npos);
  AnalysisOptions published;
  published.detect.tickets = false;
  EXPECT_EQ(FunctionAnalysis(m, m.functions.front(), published).deadlock().num_flagged(), 1);
  // inc and dec with a positive bound, and a negative add (atomicSub), change it every time.
  EXPECT_EQ(flagged_in(atomic_loop("  atom.global.inc.u32 %r3, [%rd2], 1000;")), 0);
  EXPECT_EQ(flagged_in(atomic_loop("  atom.global.add.u32 %r3, [%rd2], -1;")), 0);
  // A register operand may be 0 in some lane: counted as before.
  EXPECT_EQ(flagged_in(atomic_loop("  atom.global.add.u32 %r3, [%rd2], %r1;")), 1);
  EXPECT_EQ(flagged_in(atomic_loop("  atom.global.exch.b32 %r3, [%rd2], 7;")), 1);
}

TEST(LaneIdioms, AtomicsThatKeepTheValueAreReads) {
  // atomicAdd(p, 0) and friends: no write at all, so nothing redefines the loop's read, in the
  // published algorithm too.
  for (const char* atom :
       {"  atom.global.add.u32 %r3, [%rd2], 0;", "  atom.global.or.b32 %r3, [%rd2], 0;",
        "  atom.global.and.b32 %r3, [%rd2], -1;"}) {
    SCOPED_TRACE(atom);
    const auto m = ptx::parse_module(atomic_loop(atom), "k.ptx");
    AnalysisOptions published;
    published.detect.tickets = false;
    published.detect.uniformity = false;
    EXPECT_EQ(FunctionAnalysis(m, m.functions.front(), published).deadlock().num_flagged(), 0);
  }
  EXPECT_EQ(flagged_in(atomic_loop("  atom.global.and.b32 %r3, [%rd2], 255;")), 1);
}

}  // namespace
}  // namespace simtsync::analysis
