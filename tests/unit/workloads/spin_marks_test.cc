// Ground truth for spin detection: every busy-wait loop of a workload kernel carries the
// SIMTSYNC_SPIN_LOOP() mark (workloads/include/simtsync.cuh), which nvcc emits as `pmevent 7`.
// These tests read the embedded PTX of every workload and check that each mark sits inside a
// loop (the innermost loop containing it is the marked busy-wait loop), that each kernel has
// the marked loops its source has, at the nesting depth its source has, and that
// synchronization-free kernels carry no mark.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "analysis/cfg.h"
#include "analysis/dominators.h"
#include "analysis/loops.h"
#include "framework/workload.h"
#include "func/global_memory.h"
#include "func/program.h"
#include "ptx/parser.h"

namespace simtsync::workloads {
namespace {

constexpr std::int64_t kSpinEvent = 7;  // SIMTSYNC_SPIN_EVENT

bool is_spin_mark(const ptx::Instruction& in) {
  return in.opcode == ptx::Opcode::kPmevent && !in.operands.empty() &&
         in.operands[0].kind == ptx::Operand::Kind::kImmInt && in.operands[0].imm == kSpinEvent;
}

struct Marks {
  int unmarked_outside_loops = 0;  // marks not inside any loop
  std::vector<int> loop_depths;    // one per distinct marked loop, in loop order
};

Marks marks_of(const ptx::Function& f) {
  const analysis::Cfg cfg(f);
  const analysis::DomTree dom = analysis::DomTree::dominators(cfg);
  const analysis::LoopInfo loops = analysis::LoopInfo::compute(cfg, dom);
  Marks m;
  std::set<int> marked;
  for (int i = 0; i < static_cast<int>(f.insts.size()); ++i) {
    if (!is_spin_mark(f.insts[static_cast<size_t>(i)])) continue;
    const int l = loops.loop_of(cfg.node_of_inst(i));
    if (l < 0)
      ++m.unmarked_outside_loops;
    else
      marked.insert(l);
  }
  for (int l : marked) m.loop_depths.push_back(loops.loop(l).depth);
  return m;
}

// Kernel -> depth of each marked loop, from the CUDA sources. A kernel not listed here must
// still have every mark inside a loop (EveryMarkIsInsideALoop).
const std::map<std::string, std::vector<int>>& expected() {
  static const std::map<std::string, std::vector<int>> table = {
      {"naive_lock/naive_lock.ptx:naive_lock", {1}},
      {"ht/ht.ptx:ht_insert", {2}},
      {"ht/ht_mimd.ptx:ht_insert_mimd", {2}},
      // The back-off variants: the retry loop is marked, the delay loop inside it is not.
      {"ht/ht_backoff_fixed.ptx:ht_backoff_fixed", {2}},
      {"ht/ht_backoff_exp.ptx:ht_backoff_exp", {2}},
      {"ht/ht_nanosleep.ptx:ht_nanosleep", {2}},
      {"tl/tl_simt.ptx:tl_simt", {2}},
      {"tl/tl_mimd.ptx:tl_mimd", {2}},
      {"am/am_simt.ptx:am_simt", {2}},
      {"am/am_mimd.ptx:am_mimd", {2}},
      {"atm/atm_simt.ptx:atm_simt", {2}},
      {"atm/atm_mimd.ptx:atm_mimd", {2, 2}},
      {"atm/atm_backoff_fixed.ptx:atm_backoff_fixed", {2}},
      {"atm/atm_backoff_exp.ptx:atm_backoff_exp", {2}},
      {"atm/atm_nanosleep.ptx:atm_nanosleep", {2}},
      {"cp_ds/cp_ds_simt.ptx:cp_ds_simt", {2}},
      {"cp_ds/cp_ds_mimd.ptx:cp_ds_mimd", {2, 2}},
      {"interac/interac.ptx:interac", {2}},
      {"syncval/syncval_atom_lock.ptx:syncval_atom_lock", {1}},
      {"syncval/syncval_shrd_lock.ptx:syncval_shrd_lock", {1}},
      {"syncval/syncval_tiny_lock.ptx:syncval_tiny_lock", {1}},
      {"syncval/syncval_warp_vote.ptx:syncval_warp_vote", {1}},
      // Applications (sync_apps.def): the SIMT-safe retry loops are the outermost loop of
      // their kernel except in TSP (climbers > lanes taking turns > the lock loop) and
      // Apriori (candidates > the insertion loop).
      {"nw/nw.ptx:nw1", {1}},
      {"nw/nw.ptx:nw2", {1}},
      {"tsp/tsp.ptx:tsp", {3}},
      {"bh/bh.ptx:bh_tb", {1}},
      {"bh/bh.ptx:bh_sm", {1}},
      {"bh/bh.ptx:bh_st", {1}},
      {"bh/bh_st_mimd.ptx:bh_st_mimd", {2}},
      {"apriori/apriori.ptx:apriori_insert", {2}},
      // Lock instructions (seed 004): simtsync_lock is no loop of the program, so no mark,
      // except where the kernel re-reads a slot it found locked (bh_tb_lockinst) and in the
      // wait for the other threads of Example 12 (lockinst_ex12).
      {"ht/ht_lockinst.ptx:ht_insert_lockinst", {}},
      {"atm/atm_lockinst.ptx:atm_lockinst", {}},
      {"interac/interac_lockinst.ptx:interac_lockinst", {}},
      {"apriori/apriori_lockinst.ptx:apriori_insert_lockinst", {}},
      {"apriori/apriori_lockinst.ptx:apriori_insert", {2}},  // apriori.cu, included
      {"bh/bh_tb_lockinst.ptx:bh_tb_lockinst", {1}},
      {"lockinst_limits/lockinst_limits.ptx:lockinst_ex12", {1}},
      {"lockinst_limits/lockinst_limits.ptx:lockinst_ex13", {}},
      // Synchronization-free, or waiting only at barriers: no mark.
      {"nw/nw_dp.ptx:nw_dp1", {}},
      {"nw/nw_dp.ptx:nw_dp2", {}},
      {"bh/bh.ptx:bh_bb", {}},
      {"bh/bh.ptx:bh_fc", {}},
      {"bh/bh.ptx:bh_int", {}},
      {"apriori/apriori.ptx:apriori_count", {}},
      {"syncval/syncval_warp_barr.ptx:syncval_warp_barr", {}},
      {"vecadd/vecadd.ptx:vecadd", {}},
  };
  return table;
}

ptx::Module load(const std::string& name, std::string_view text) {
  return ptx::parse_module(text, "workloads/" + name);
}

TEST(SpinMarks, EveryMarkIsInsideALoop) {
  ASSERT_FALSE(embedded_ptx().empty());
  for (const auto& [name, text] : embedded_ptx()) {
    const ptx::Module m = load(name, text);
    for (const ptx::Function& f : m.functions) {
      if (f.is_declaration) continue;
      EXPECT_EQ(marks_of(f).unmarked_outside_loops, 0)
          << name << ":" << f.name << " has a spin mark outside every loop";
    }
  }
}

TEST(SpinMarks, KernelsHaveTheirMarkedLoops) {
  std::set<std::string> seen;
  for (const auto& [name, text] : embedded_ptx()) {
    const ptx::Module m = load(name, text);
    for (const ptx::Function& f : m.functions) {
      if (f.is_declaration) continue;
      const std::string key = name + ":" + f.name;
      auto it = expected().find(key);
      if (it == expected().end()) continue;
      seen.insert(key);
      EXPECT_EQ(marks_of(f).loop_depths, it->second) << key;
    }
  }
  for (const auto& [key, depths] : expected())
    EXPECT_TRUE(seen.count(key)) << "no embedded kernel " << key;
}

TEST(SpinMarks, SynchronizationFreeKernelsCarryNoMark) {
  const auto& all = embedded_ptx();
  auto it = all.find("vecadd/vecadd.ptx");
  ASSERT_NE(it, all.end());
  const ptx::Module m = load(it->first, it->second);
  for (const ptx::Function& f : m.functions)
    for (const ptx::Instruction& in : f.insts) EXPECT_FALSE(is_spin_mark(in)) << f.name;
}

// Every *_mimd workload's kernel has at least one marked loop: it is the loop the watchdog
// must name when the kernel SIMT-deadlocks.
TEST(SpinMarks, EveryMimdKernelIsMarked) {
  int mimd = 0;
  for (const auto& [name, text] : embedded_ptx()) {
    if (name.find("_mimd.ptx") == std::string::npos) continue;
    ++mimd;
    const ptx::Module m = load(name, text);
    int loops = 0;
    for (const ptx::Function& f : m.functions)
      if (!f.is_declaration) loops += static_cast<int>(marks_of(f).loop_depths.size());
    EXPECT_GT(loops, 0) << name;
  }
  EXPECT_GE(mimd, 5);
}

// The decoder turns the marks into ExecInst::spin_mark on the backward branches of the marked
// loops (the SIBs BOWS and DDOS's ground truth use): every marked loop yields at least one, each
// is a backward branch, and a kernel without marks has none.
TEST(SpinMarks, DecoderMarksTheBackwardBranchesOfMarkedLoops) {
  int kernels = 0;
  for (const auto& [name, text] : embedded_ptx()) {
    const ptx::Module m = load(name, text);
    func::GlobalMemory mem;
    const func::Program prog(m, mem);
    for (const func::DecodedFunction& df : prog.functions()) {
      if (df.code.empty()) continue;
      const Marks marks = marks_of(*df.ir);
      int sibs = 0;
      for (const func::ExecInst& e : df.code) {
        if (!e.spin_mark) continue;
        ++sibs;
        EXPECT_EQ(e.op, ptx::Opcode::kBra) << name << ":" << df.name;
        EXPECT_LE(e.target_pc, e.pc) << name << ":" << df.name << " SIB is not backward";
      }
      if (marks.loop_depths.empty())
        EXPECT_EQ(sibs, 0) << name << ":" << df.name;
      else
        EXPECT_GE(sibs, static_cast<int>(marks.loop_depths.size())) << name << ":" << df.name;
      ++kernels;
    }
  }
  EXPECT_GT(kernels, 20);
}

}  // namespace
}  // namespace simtsync::workloads
