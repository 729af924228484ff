// Unit tests of the pieces of the SIMT-deadlock analysis on small inline PTX kernels:
// reaching definitions, alias rules, reachable/parallel blocks, the compatibility rule.
#include <gtest/gtest.h>

#include <random>

#include "analysis/alias.h"
#include "analysis/safe_pdom.h"
#include "analysis/simt_deadlock.h"
#include "ptx/parser.h"

namespace simtsync::analysis {
namespace {

std::string kernel(const std::string& params, const std::string& body) {
  return ".version 7.5\n.target sm_75\n.address_size 64\n.global .align 4 .u32 gv;\n"
         ".global .align 4 .u32 gw;\n.visible .entry k(" + params +
         ")\n{\n.reg .pred %p<8>;\n.reg .b32 %r<32>;\n.reg .b64 %rd<32>;\n"
         ".shared .align 4 .b8 sh[64];\n" + body + "\n}\n";
}

struct Fixture {
  ptx::Module m;
  Cfg cfg;
  DomTree dom, pdom;
  LoopInfo loops;
  SimtDeadlock dl;
  explicit Fixture(const std::string& text, DeadlockOptions o = {})
      : m(ptx::parse_module(text)), cfg(m.functions.back()), dom(DomTree::dominators(cfg)),
        pdom(DomTree::post_dominators(cfg)), loops(LoopInfo::compute(cfg, dom)),
        dl(SimtDeadlock::compute({&cfg, &dom, &pdom, &loops, &m}, o)) {}
  int find(ptx::Opcode op, int nth = 0) const {
    const auto& f = cfg.function();
    for (size_t i = 0; i < f.insts.size(); ++i)
      if (f.insts[i].opcode == op && nth-- == 0) return static_cast<int>(i);
    return -1;
  }
};

const char* kTwoParams = ".param .u64 a, .param .u64 b";

TEST(ReachingDefs, GuardedDefinitionDoesNotKill) {
  Fixture fx(kernel(kTwoParams,
                    "mov.u32 %r1, 1;\nsetp.eq.u32 %p1, %r1, 0;\n@%p1 mov.u32 %r1, 2;\n"
                    "add.u32 %r2, %r1, 1;\nret;"));
  const ReachingDefs rd = ReachingDefs::compute(fx.cfg);
  const int add = fx.find(ptx::Opcode::kAdd);
  EXPECT_EQ(rd.reaching(add, fx.cfg.function().insts[static_cast<size_t>(add)].operands[1].reg),
            (std::vector<int>{0, 2}));
}

TEST(Alias, Rules) {
  Fixture fx(kernel(kTwoParams,
                    "ld.param.u64 %rd1, [a];\nld.param.u64 %rd2, [b];\n"
                    "cvta.to.global.u64 %rd3, %rd1;\ncvta.to.global.u64 %rd4, %rd2;\n"
                    "ld.global.u32 %r1, [%rd3];\nst.global.u32 [%rd3+4], %r1;\n"
                    "st.global.u32 [%rd3], %r1;\nst.global.u32 [%rd4], %r1;\n"
                    "st.shared.u32 [sh], %r1;\nst.global.u32 [gv], %r1;\n"
                    "mul.wide.u32 %rd5, %r1, 4;\nadd.s64 %rd6, %rd3, %rd5;\n"
                    "st.global.u32 [%rd6], %r1;\nld.global.u64 %rd7, [%rd3];\n"
                    "st.u32 [%rd7], %r1;\nst.global.u32 [gw], %r1;\nret;"));
  const ReachingDefs rd = ReachingDefs::compute(fx.cfg);
  const AliasAnalysis aa = AliasAnalysis::compute(fx.cfg, rd, &fx.m);
  const AliasAnalysis conservative = AliasAnalysis::compute(fx.cfg, rd, &fx.m, false);
  const int ld = fx.find(ptx::Opcode::kLd, 2);
  auto st = [&](int n) { return fx.find(ptx::Opcode::kSt, n); };
  EXPECT_EQ(aa.address(ld).base, AddressInfo::Base::kParam);
  EXPECT_EQ(aa.address(ld).space, ptx::Space::kGlobal);
  EXPECT_FALSE(aa.may_alias(ld, st(0)));          // 4c: [a+4] vs [a+0], 4 bytes each
  EXPECT_TRUE(aa.may_alias(ld, st(1)));           // same address
  EXPECT_FALSE(aa.may_alias(ld, st(2)));          // 4d: different kernel parameters
  EXPECT_TRUE(conservative.may_alias(ld, st(2)));  // ... unless parameters may alias
  EXPECT_FALSE(aa.may_alias(ld, st(3)));          // 4a: global vs shared
  EXPECT_TRUE(aa.may_alias(ld, st(5)));           // a[i]: same base, unknown offset
  EXPECT_TRUE(aa.may_alias(ld, st(6)));           // pointer loaded from memory: unknown
  EXPECT_FALSE(aa.may_alias(st(4), st(7)));       // 4b: two different variables
}

// if (tid & 1) { while (flag == 0); } else { flag = 1; }  -- the write is parallel to the loop.
TEST(SimtDeadlock, ParallelWriteFlagsAndMovesSafePdomToTheJoin) {
  const std::string text = kernel(kTwoParams,
      "ld.param.u64 %rd1, [a];\ncvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r1, %tid.x;\n"
      "and.b32 %r2, %r1, 1;\nsetp.eq.u32 %p1, %r2, 0;\n@%p1 bra ELSE;\n"
      "SPIN:\nld.volatile.global.u32 %r3, [%rd2];\nsetp.eq.u32 %p2, %r3, 0;\n@%p2 bra SPIN;\n"
      "bra JOIN;\nELSE:\nst.volatile.global.u32 [%rd2], 1;\nJOIN:\nret;");
  Fixture fx(text);
  ASSERT_EQ(fx.dl.verdicts().size(), 1u);
  EXPECT_TRUE(fx.dl.verdicts()[0].flagged);
  ASSERT_EQ(fx.dl.verdicts()[0].redefs.size(), 1u);
  EXPECT_TRUE(fx.dl.verdicts()[0].redefs[0].parallel);
  const SafePdom safe = SafePdom::compute(fx.cfg, fx.pdom, fx.loops, fx.dl);
  ASSERT_TRUE(safe.safe(0));
  EXPECT_EQ(fx.cfg.name(safe.safe(0)->node), "JOIN");
  DeadlockOptions aware;
  aware.parallel = false;  // AWARE: only reachable writes count
  Fixture fx2(text, aware);
  EXPECT_FALSE(fx2.dl.verdicts()[0].flagged);
}

TEST(SimtDeadlock, BarrierStopsReachability) {
  Fixture fx(kernel(kTwoParams,
      "ld.param.u64 %rd1, [a];\ncvta.to.global.u64 %rd2, %rd1;\n"
      "SPIN:\natom.global.cas.b32 %r1, [%rd2], 0, 1;\nsetp.ne.u32 %p1, %r1, 0;\n@%p1 bra SPIN;\n"
      "bar.sync 0;\natom.global.exch.b32 %r2, [%rd2], 0;\nret;"));
  EXPECT_FALSE(fx.dl.verdicts()[0].flagged);
}

// The compatibility rule: a `break` branch whose post-dominator it does not dominate
// reconverges where the dominating loop-test branch does.
TEST(Reconvergence, CompatibilityRule) {
  Fixture fx(kernel(kTwoParams,
      "mov.u32 %r1, 0;\nHEAD:\nsetp.ge.u32 %p1, %r1, 10;\n@%p1 bra OUT;\n"
      "setp.eq.u32 %p2, %r1, 5;\n@%p2 bra OUT;\nadd.u32 %r1, %r1, 1;\nbra HEAD;\n"
      "OUT:\nadd.u32 %r2, %r1, 1;\nret;"));
  const ReconvergenceTable plain = ReconvergenceTable::compute(fx.cfg, fx.pdom);
  const ReconvergenceTable compat =
      ReconvergenceTable::compute(fx.cfg, fx.pdom, Convention::kIpdomCompat);
  const int brk = fx.find(ptx::Opcode::kBra, 1);
  EXPECT_EQ(fx.cfg.name(plain.find_by_inst(brk)->reconverge_node), "OUT");
  // The break block does not dominate OUT; the loop test (HEAD) does, and reconverges at OUT.
  EXPECT_EQ(fx.cfg.name(compat.find_by_inst(brk)->reconverge_node), "OUT");
  EXPECT_EQ(convention_name(Convention::kIpdomCompat), std::string("ipdom-compat"));
}

TEST(SafePdom, PointAlgebra) {
  Fixture fx(kernel(kTwoParams, "mov.u32 %r1, 1;\nmov.u32 %r2, 2;\nret;"));
  const ProgramPoint a{0, 0}, b{0, 2}, e{fx.cfg.exit(), -1};
  EXPECT_TRUE(SafePdom::pdominates(fx.cfg, fx.pdom, b, a));
  EXPECT_FALSE(SafePdom::pdominates(fx.cfg, fx.pdom, a, b));
  EXPECT_EQ(SafePdom::ipdom(fx.cfg, fx.pdom, a, b), b);
  EXPECT_EQ(SafePdom::ipdom(fx.cfg, fx.pdom, a, e), e);
  EXPECT_EQ(SafePdom::after_inst(fx.cfg, fx.pdom, 0), (ProgramPoint{0, 1}));
}

// Random kernels of spin loops on a few locks, retry loops around them, forward branches on
// lane tests and jumps (irreducible flow included): the fast resolution (components settled
// in order, jumps over settled loops, skipped path walks) gives every flagged loop the safe
// point the published passes give, with and without split loops, parallel blocks and the
// compatibility convention.
std::string random_spin_kernel(std::mt19937& rng, int blocks) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  auto lock = [&] { return "[%rd1+" + std::to_string(4 * pick(3)) + "]"; };
  std::string body = "ld.param.u64 %rd1, [a];\nmov.u32 %r0, %tid.x;\n";
  for (int b = 0; b < blocks; ++b) {
    const std::string me = "$B" + std::to_string(b);
    body += me + ":\n";
    switch (pick(7)) {
      case 0:
      case 1:  // a spin loop on one block: while (atomicCAS(lock, 0, 1) != 0);
        body += "atom.global.cas.b32 %r1, " + lock() +
                ", 0, 1;\nsetp.ne.s32 %p1, %r1, 0;\n@%p1 bra " + me + ";\n";
        break;
      case 2:  // a release
        body += "atom.global.exch.b32 %r2, " + lock() + ", 0;\n";
        break;
      case 3:  // a flag wait on a volatile load
        body += "ld.volatile.global.u32 %r3, " + lock() + ";\nsetp.eq.s32 %p2, %r3, 0;\n@%p2 bra " +
                me + ";\n";
        break;
      case 4:  // a lane test
        body += "setp.eq.u32 %p3, %r0, " + std::to_string(pick(4)) + ";\n";
        break;
      default:
        body += "st.global.u32 " + lock() + ", %r0;\n";
    }
    switch (pick(6)) {
      case 0:
        body += "@%p3 bra $B" + std::to_string(pick(blocks)) + ";\n";
        break;
      case 1:
        body += "@%p1 bra $B" + std::to_string(pick(blocks)) + ";\n";
        break;
      case 2:
        if (pick(4) == 0) body += "bra $B" + std::to_string(pick(blocks)) + ";\n";
        break;
      case 3:
        if (pick(5) == 0) body += "@%p3 ret;\n";
        break;
      default:
        break;
    }
  }
  return kernel(kTwoParams, body + "ret;");
}

TEST(SafePdom, FastResolutionMatchesThePublishedPasses) {
  std::mt19937 rng(4646);
  int flagged = 0, moved = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const std::string text = random_spin_kernel(rng, 3 + trial % 32);
    const ptx::Module m = ptx::parse_module(text);
    const Cfg cfg(m.functions.back());
    const DomTree dom = DomTree::dominators(cfg), pdom = DomTree::post_dominators(cfg);
    for (int variant = 0; variant < 4; ++variant) {
      const LoopInfo loops = LoopInfo::compute(cfg, dom, LoopOptions{variant % 2 == 0});
      DeadlockOptions o;
      o.parallel = variant != 1;
      if (variant == 3) o.convention = Convention::kIpdomCompat;
      const SimtDeadlock dl = SimtDeadlock::compute({&cfg, &dom, &pdom, &loops, &m}, o);
      const SafePdom want =
          SafePdom::compute(cfg, pdom, loops, dl, nullptr, SafePdom::Method::kPasses);
      const SafePdom got = SafePdom::compute(cfg, pdom, loops, dl);
      auto show = [&](const SafePdom& sp) {
        std::string out;
        for (const Loop& k : loops.loops()) {
          out += "  loop " + std::to_string(k.id) + " header " + cfg.name(k.header) + " parent " +
                 std::to_string(k.parent) + ": ";
          out += sp.safe(k.id)
                     ? cfg.name(sp.safe(k.id)->node) + "/" + std::to_string(sp.safe(k.id)->inst)
                     : std::string("-");
          out += "\n";
        }
        return out;
      };
      for (const Loop& l : loops.loops()) {
        ASSERT_EQ(got.safe(l.id), want.safe(l.id))
            << "trial " << trial << " variant " << variant << " loop " << l.id << "\npasses:\n"
            << show(want) << "fast:\n"
            << show(got) << text;
        if (want.safe(l.id)) {
          ++flagged;
          if (want.resolution_passes() > 1) ++moved;
        }
      }
    }
  }
  // The kernels exercise what they are meant to: many flagged loops, many moved by line 17.
  EXPECT_GT(flagged, 2000);
  EXPECT_GT(moved, 500);
}

}  // namespace
}  // namespace simtsync::analysis
