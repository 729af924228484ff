// The analyses on the committed nvcc output of the workloads and on inline PTX.
#include <gtest/gtest.h>

#include <string>

#include "analysis/loops.h"
#include "analysis/printer.h"
#include "analysis/reconvergence.h"
#include "ptx/parser.h"

namespace simtsync::analysis {
namespace {

std::string workload_path(const std::string& rel) {
  return std::string(SIMTSYNC_SOURCE_DIR) + "/workloads/" + rel;
}

NodeId node_by_label(const Cfg& cfg, const std::string& label) {
  for (NodeId n = 0; n < cfg.num_blocks(); ++n)
    if (cfg.block(n).label == label) return n;
  ADD_FAILURE() << "no block " << label;
  return kNoNode;
}

// The block right after `n` in instruction order.
NodeId next_block(NodeId n) {
  return n + 1;
}

// The conditional branch that ends block `n`.
int branch_of(const Cfg& cfg, NodeId n) {
  const int t = cfg.terminator(n);
  EXPECT_TRUE(cfg.function().insts[static_cast<size_t>(t)].is_branch());
  return t;
}

struct Analyzed {
  explicit Analyzed(const ptx::Function& f)
      : cfg(f),
        dom(DomTree::dominators(cfg)),
        pdom(DomTree::post_dominators(cfg)),
        loops(LoopInfo::compute(cfg, dom)),
        rpc(ReconvergenceTable::compute(cfg, pdom)) {}
  Cfg cfg;
  DomTree dom, pdom;
  LoopInfo loops;
  ReconvergenceTable rpc;
};

TEST(Workloads, NaiveLockSelfLoopReconvergesAtTheNextBlock) {
  const ptx::Module m = ptx::load_module_file(workload_path("naive_lock/naive_lock.ptx"));
  const ptx::Function* f = m.find_function("naive_lock");
  ASSERT_NE(f, nullptr);
  const Analyzed a(*f);
  const NodeId spin = node_by_label(a.cfg, "$L__BB0_1");
  ASSERT_EQ(a.loops.loops().size(), 1u);
  const Loop& l = a.loops.loop(0);
  EXPECT_EQ(l.header, spin);
  EXPECT_EQ(l.latches, std::vector<NodeId>{spin});
  EXPECT_EQ(a.loops.blocks(l.id), std::vector<NodeId>{spin});
  EXPECT_EQ(l.exit_blocks, std::vector<NodeId>{next_block(spin)});
  EXPECT_EQ(l.exiting_branches, std::vector<int>{branch_of(a.cfg, spin)});
  EXPECT_EQ(a.rpc.rpc_by_inst(branch_of(a.cfg, spin)), a.cfg.first_pc(next_block(spin)));
  EXPECT_EQ(a.rpc.points().size(), 1u);
  EXPECT_TRUE(a.cfg.virtual_exit_sources().empty());
}

TEST(Workloads, HashTableNestedLoops) {
  const ptx::Module m = ptx::load_module_file(workload_path("ht/ht.ptx"));
  const ptx::Function* f = m.find_function("ht_insert");
  ASSERT_NE(f, nullptr);
  const Analyzed a(*f);
  const NodeId outer_h = node_by_label(a.cfg, "$L__BB0_2");
  const NodeId inner_h = node_by_label(a.cfg, "$L__BB0_3");
  const NodeId critical = next_block(inner_h);
  const NodeId inner_latch = node_by_label(a.cfg, "$L__BB0_5");
  const NodeId outer_latch = next_block(inner_latch);
  const NodeId done = node_by_label(a.cfg, "$L__BB0_7");

  ASSERT_EQ(a.loops.loops().size(), 2u);
  const Loop& outer = a.loops.loop(0);
  const Loop& inner = a.loops.loop(1);
  EXPECT_EQ(outer.header, outer_h);
  EXPECT_EQ(outer.latches, std::vector<NodeId>{outer_latch});
  EXPECT_EQ(a.loops.blocks(outer.id),
            (std::vector<NodeId>{outer_h, inner_h, critical, inner_latch, outer_latch}));
  EXPECT_EQ(outer.exit_blocks, std::vector<NodeId>{done});
  EXPECT_EQ(inner.header, inner_h);
  EXPECT_EQ(inner.parent, 0);
  EXPECT_EQ(inner.depth, 2);
  EXPECT_EQ(inner.latches, std::vector<NodeId>{inner_latch});
  EXPECT_EQ(a.loops.blocks(inner.id), (std::vector<NodeId>{inner_h, critical, inner_latch}));
  EXPECT_EQ(inner.exit_blocks, std::vector<NodeId>{outer_latch});
  EXPECT_EQ(inner.exiting_branches, std::vector<int>{branch_of(a.cfg, inner_latch)});

  // The lock attempt reconverges inside the loop body (seed 000 Fig. 1a), the inner loop at the
  // outer latch, the outer loop and the `per_thread < 1` guard at the final ret.
  EXPECT_EQ(a.rpc.rpc_by_inst(branch_of(a.cfg, inner_h)), a.cfg.first_pc(inner_latch));
  EXPECT_EQ(a.rpc.rpc_by_inst(branch_of(a.cfg, inner_latch)), a.cfg.first_pc(outer_latch));
  EXPECT_EQ(a.rpc.rpc_by_inst(branch_of(a.cfg, outer_latch)), a.cfg.first_pc(done));
  EXPECT_EQ(a.rpc.rpc_by_inst(branch_of(a.cfg, 0)), a.cfg.first_pc(done));
  EXPECT_EQ(a.rpc.points().size(), 4u);
}

TEST(Workloads, RecursionCallIsNotAnEdge) {
  const ptx::Module m = ptx::load_module_file(workload_path("recursion/recursion.ptx"));
  const ptx::Function* f = m.find_function("_Z18recursive_functionii");
  ASSERT_NE(f, nullptr);
  const Analyzed a(*f);
  const NodeId join = node_by_label(a.cfg, "$L__BB0_2");
  EXPECT_EQ(a.cfg.num_blocks(), 3);
  EXPECT_EQ(a.rpc.rpc_by_inst(branch_of(a.cfg, 0)), a.cfg.first_pc(join));
  EXPECT_TRUE(a.loops.loops().empty());
  const ptx::Function* k = m.find_function("recursion");
  ASSERT_NE(k, nullptr);
  const Cfg kc(*k);
  EXPECT_EQ(kc.num_blocks(), 1);
}

TEST(Workloads, EveryFunctionHasTotalPostDominatorsAndSaneReconvergence) {
  for (const char* rel :
       {"vecadd/vecadd.ptx", "ht/ht.ptx", "naive_lock/naive_lock.ptx", "recursion/recursion.ptx"}) {
    const ptx::Module m = ptx::load_module_file(workload_path(rel));
    for (const ptx::Function& f : m.functions) {
      if (f.is_declaration) continue;
      const Analyzed a(f);
      for (NodeId n = 0; n < a.cfg.size(); ++n) EXPECT_TRUE(a.pdom.contains(n)) << rel;
      for (const ReconvergencePoint& p : a.rpc.points())
        for (NodeId s : a.cfg.succs(p.block))
          EXPECT_TRUE(a.pdom.dominates(p.reconverge_node, s)) << rel << " pc " << p.pc;
    }
  }
}

// Seed 003 Fig. 1 (MIMD spin lock) and Fig. 3 (SIMT-compliant), written as PTX.
constexpr const char* kFig1 = R"(
.version 9.0
.target sm_75
.address_size 64
.visible .entry fig1(.param .u64 lock)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [lock];
$SPIN:
  atom.global.cas.b32 %r1, [%rd1], 0, 1;
  setp.ne.s32 %p1, %r1, 0;
  @%p1 bra $SPIN;
  atom.global.exch.b32 %r2, [%rd1], 0;
  ret;
}
)";

constexpr const char* kFig3 = R"(
.version 9.0
.target sm_75
.address_size 64
.visible .entry fig3(.param .u64 lock)
{
  .reg .pred %p<3>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [lock];
  mov.u32 %r3, 0;
$LOOP:
  atom.global.cas.b32 %r1, [%rd1], 0, 1;
  setp.ne.s32 %p1, %r1, 0;
  @%p1 bra $LATCH;
  atom.global.exch.b32 %r2, [%rd1], 0;
  mov.u32 %r3, 1;
$LATCH:
  setp.eq.s32 %p2, %r3, 0;
  @%p2 bra $LOOP;
  ret;
}
)";

TEST(InlinePtx, SeedFig1SpinLock) {
  const ptx::Module m = ptx::parse_module(kFig1);
  const Analyzed a(m.functions.at(0));
  EXPECT_EQ(format_loops(a.cfg, a.loops),
            "loop 0 header $SPIN depth 1 parent -\n"
            "  blocks $SPIN\n"
            "  latches $SPIN\n"
            "  exits BB2\n"
            "  exiting branches 0x18\n");
  EXPECT_EQ(format_reconvergence(a.cfg, a.rpc), "pc 0x18 (inst 3, $SPIN) -> BB2 pc 0x20\n");
}

TEST(InlinePtx, SeedFig3SimtCompliantSpinLock) {
  const ptx::Module m = ptx::parse_module(kFig3);
  const Analyzed a(m.functions.at(0));
  EXPECT_EQ(format_reconvergence(a.cfg, a.rpc),
            "pc 0x20 (inst 4, $LOOP) -> $LATCH pc 0x38\n"
            "pc 0x40 (inst 8, $LATCH) -> BB4 pc 0x48\n");
  ASSERT_EQ(a.loops.loops().size(), 1u);
  EXPECT_EQ(a.cfg.name(a.loops.loop(0).header), "$LOOP");
}

}  // namespace
}  // namespace simtsync::analysis
