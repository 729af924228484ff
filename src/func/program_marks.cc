// The control-flow annotations Program puts on decoded code once a function is decoded: the
// busy-wait ground truth the workloads mark (spin-inducing branches, lock attempts, wait exits;
// seed 000 sec. III) and the reconvergence points of delayed reconvergence (seed 003 sec. IV-B),
// with the loops the SIMT-deadlock analysis flags (watchdog reports), both by function content
// through an AnalysisCache. All run on the analysis library's CFG, dominator and loop trees;
// program.cc decodes.
#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "analysis/cfg.h"
#include "analysis/deadlock_analysis.h"
#include "analysis/dominators.h"
#include "analysis/loops.h"
#include "analysis/reconvergence.h"
#include "func/program.h"

namespace simtsync::func {

void Program::fill_spin_marks(DecodedFunction& df) const {
  // Ground truth for spin detection (workloads/include/simtsync.cuh): a `pmevent 7` marks the
  // innermost loop containing it as a busy-wait loop, and that loop's backward branches (the
  // branches of its latches that jump to its header) are its spin-inducing branches (seed 000
  // sec. III: "SIBs are the backward branch of each spin loop").
  constexpr std::int64_t kSpinEvent = 7;
  const ptx::Function& f = *df.ir;
  auto is_mark = [](const ptx::Instruction& in) {
    return in.opcode == ptx::Opcode::kPmevent && !in.operands.empty() &&
           in.operands[0].kind == ptx::Operand::Kind::kImmInt && in.operands[0].imm == kSpinEvent;
  };
  if (std::none_of(f.insts.begin(), f.insts.end(), is_mark)) return;
  const analysis::Cfg cfg(f);
  const analysis::DomTree dom = analysis::DomTree::dominators(cfg);
  const analysis::LoopInfo loops = analysis::LoopInfo::compute(cfg, dom);
  std::set<int> marked;
  for (int i = 0; i < static_cast<int>(f.insts.size()); ++i)
    if (is_mark(f.insts[static_cast<size_t>(i)]))
      if (const int l = loops.loop_of(cfg.node_of_inst(i)); l >= 0) marked.insert(l);
  // Lock attempts: compare-and-swaps and lock-bit loads whose innermost marked loop is `l`.
  auto innermost_marked = [&](int inst) {
    for (int l = loops.loop_of(cfg.node_of_inst(inst)); l >= 0; l = loops.loop(l).parent)
      if (marked.count(l)) return l;
    return -1;
  };
  auto is_acquire = [](const ExecInst& e) {
    return (e.op == ptx::Opcode::kAtom && e.a.op == ptx::Mod::kCasOp) ||
           e.lock_op == IntrinsicOp::kLoadLock;
  };
  std::set<int> lock_loops;
  for (int i = 0; i < static_cast<int>(df.code.size()); ++i) {
    ExecInst& e = df.code[static_cast<size_t>(i)];
    if (!is_acquire(e)) continue;
    if (const int l = innermost_marked(i); l >= 0) {
      e.sync_role = SyncRole::kLockAttempt;
      lock_loops.insert(l);
    }
  }
  // The first attempt nvcc peels out of a rotated lock loop: `while (atomicCAS(m, 0, 1) != 0)`
  // becomes one CAS before the loop, whose block enters the loop (or skips it on success), and
  // one in it. An acquire outside every marked loop whose block is a predecessor of a lock
  // loop's header and whose address is that of one of the loop's attempts is an attempt too.
  auto same_address = [](const MemRef& a, const MemRef& b) {
    return a.base == b.base && a.base != MemRef::Base::kNone && a.reg == b.reg &&
           a.offset == b.offset;
  };
  for (int i = 0; i < static_cast<int>(df.code.size()); ++i) {
    ExecInst& e = df.code[static_cast<size_t>(i)];
    if (!is_acquire(e) || e.sync_role != SyncRole::kNone) continue;
    const analysis::NodeId b = cfg.node_of_inst(i);
    for (const analysis::NodeId s : cfg.succs(b)) {
      const int l = loops.loop_with_header(s);
      if (l < 0 || !lock_loops.count(l) || loops.contains(l, b)) continue;
      bool match = false;
      for (const analysis::NodeId lb : loops.blocks(l)) {
        if (!cfg.is_block(lb)) continue;
        const ptx::BasicBlock& bb = cfg.block(lb);
        for (int k = bb.begin; k < bb.end && k < static_cast<int>(df.code.size()) && !match; ++k) {
          const ExecInst& in = df.code[static_cast<size_t>(k)];
          match = in.sync_role == SyncRole::kLockAttempt && same_address(in.mem, e.mem);
        }
      }
      if (match) {
        e.sync_role = SyncRole::kLockAttempt;
        break;
      }
    }
  }
  // SIBs: the backward branches of a marked loop itself (not of loops nested in it) whose
  // target lies in the loop: the latch's jump to the header, or, where nvcc rotates the loop,
  // the header's jump back to a latch that falls through into it.
  std::map<Pc, int> index_of_pc;
  for (int i = 0; i < static_cast<int>(f.insts.size()); ++i)
    index_of_pc[f.insts[static_cast<size_t>(i)].pc] = i;
  auto in_loop = [&](int loop, int inst) {
    return inst >= 0 && inst < static_cast<int>(f.insts.size()) &&
           loops.contains(loop, cfg.node_of_inst(inst));
  };
  for (int i = 0; i < static_cast<int>(df.code.size()); ++i) {
    ExecInst& e = df.code[static_cast<size_t>(i)];
    if (e.op != ptx::Opcode::kBra) continue;
    const int l = loops.loop_of(cfg.node_of_inst(i));
    const auto t = index_of_pc.find(e.target_pc);
    if (t == index_of_pc.end()) continue;
    // The innermost marked loop around the branch, for wait-loop exits.
    const int m = innermost_marked(i);
    if (m < 0) continue;
    const bool target_in = in_loop(m, t->second);
    const bool guarded = e.guard != kNoReg;
    const bool fall_out = guarded && !in_loop(m, i + 1);
    if (l == m && target_in && e.target_pc <= e.pc) e.spin_mark = true;
    if (lock_loops.count(m)) continue;
    if (e.spin_mark) {
      e.sync_role = SyncRole::kWaitSib;
      e.wait_exit_fallthrough = fall_out;
    } else if (!target_in || fall_out) {
      e.sync_role = SyncRole::kWaitExit;
      e.wait_exit_taken = !target_in;
      e.wait_exit_fallthrough = fall_out;
    }
  }
}

namespace {

// Seed 003 sec. IV-B, delayed reconvergence, on the function as decoded (no inlining:
// instruction indices match). The exit branches of each loop Algorithm 1 flags reconverge at
// the loop's safe post-dominator (Algorithm 2 without lines 10-14: a unit without the stack's
// serialization needs no writes in parallel blocks); then every branch's point moves up the
// post-dominator tree until it post-dominates the points of all branches on their paths to it,
// so reconvergence points stay nested.
DecodeMarks analyse_for_decode(const ptx::Module& module, const ptx::Function& f,
                               std::uint64_t budget) {
  DecodeMarks out;
  bool has_loop_branch = false;
  for (const auto& in : f.insts) has_loop_branch |= in.opcode == ptx::Opcode::kBra;
  if (!has_loop_branch) return out;
  analysis::AnalysisOptions o;
  o.inline_calls = false;
  o.detect.parallel = false;
  o.budget_entries = budget;
  const analysis::FunctionAnalysis fa(module, f, o);
  const auto& verdicts = fa.deadlock().verdicts();
  using analysis::ProgramPoint;
  using analysis::SafePdom;
  const analysis::Cfg& cfg = fa.cfg();
  const analysis::DomTree& pdom = fa.pdom();
  std::map<int, ProgramPoint> point;  // branch instruction -> its reconvergence point
  bool flagged = false;
  for (size_t l = 0; l < verdicts.size(); ++l) {
    if (!verdicts[l].flagged) continue;
    for (analysis::NodeId b : fa.loops().blocks(verdicts[l].loop))
      if (cfg.is_block(b)) out.flagged.push_back(cfg.terminator(b));
    const auto& safe = fa.safe().safe(static_cast<int>(l));
    if (!safe) continue;
    for (int br : verdicts[l].exit_branches)
      if (br >= 0) {
        auto [it, fresh] = point.emplace(br, *safe);
        if (!fresh) it->second = SafePdom::ipdom(cfg, pdom, it->second, *safe);
        flagged = true;
      }
  }
  std::sort(out.flagged.begin(), out.flagged.end());
  out.flagged.erase(std::unique(out.flagged.begin(), out.flagged.end()), out.flagged.end());
  if (!flagged) return out;
  std::vector<int> branches;  // conditional branches that can diverge
  for (int i = 0; i < static_cast<int>(f.insts.size()); ++i) {
    const auto& in = f.insts[static_cast<size_t>(i)];
    if (in.opcode != ptx::Opcode::kBra || in.guard.reg < 0 || !cfg.reachable(cfg.node_of_inst(i)))
      continue;
    branches.push_back(i);
    if (!point.count(i)) {
      const auto* rp = fa.deadlock().reconvergence().find_by_inst(i);
      point.emplace(
          i, SafePdom::block_start(cfg, rp ? rp->reconverge_node : pdom.idom(cfg.node_of_inst(i))));
    }
  }
  // Fixed point: a point only moves up the post-dominator tree, and EXIT post-dominates all.
  std::vector<char> seen(static_cast<size_t>(cfg.size()), 0);
  for (bool changed = true; changed;) {
    changed = false;
    for (int br : branches) {
      ProgramPoint& r = point[br];
      // Blocks on the paths from the branch to its point (the point's block stops the walk: a
      // branch ends its block, so that block's branch lies after the point).
      // `seen` is shared scratch, cleared through `found`: a walk costs what it visits.
      std::vector<analysis::NodeId> work(cfg.succs(cfg.node_of_inst(br))), found;
      while (!work.empty()) {
        const analysis::NodeId n = work.back();
        work.pop_back();
        if (!cfg.is_block(n) || n == r.node || seen[static_cast<size_t>(n)]) continue;
        seen[static_cast<size_t>(n)] = 1;
        found.push_back(n);
        const int t = cfg.terminator(n);
        if (auto it = point.find(t);
            it != point.end() && t != br && !SafePdom::pdominates(cfg, pdom, r, it->second)) {
          r = SafePdom::ipdom(cfg, pdom, r, it->second);
          changed = true;
        }
        for (analysis::NodeId s : cfg.succs(n)) work.push_back(s);
      }
      for (analysis::NodeId n : found) seen[static_cast<size_t>(n)] = 0;
    }
  }
  for (int br : branches) {
    const ProgramPoint& r = point[br];
    out.safe.emplace_back(br, r.node == cfg.exit() || r.inst < 0 ? -1 : r.inst);
  }
  return out;
}

}  // namespace

const DecodeMarks& Program::marks(size_t fn) const {
  const std::lock_guard<std::mutex> lock(marks_mutex_);
  auto& m = marks_[fn];
  if (!m) {
    const ptx::Function& f = *functions_[fn].ir;
    const std::uint64_t budget = opts_.analysis_budget;
    m = opts_.cache->get(decode_key(module_, f, budget),
                         [&] { return analyse_for_decode(module_, f, budget); });
  }
  return *m;
}

bool Program::deadlock_flagged(const ExecInst& in) const {
  const DecodedFunction& df = function_at(in.pc);
  const DecodeMarks& m = marks(static_cast<size_t>(&df - functions_.data()));
  return std::binary_search(m.flagged.begin(), m.flagged.end(), in.index);
}

void Program::fill_safe_reconvergence(DecodedFunction& df, const DecodeMarks& m) const {
  const ptx::Function& f = *df.ir;
  for (const auto& [br, at] : m.safe)
    if (br >= 0 && static_cast<size_t>(br) < df.code.size())
      df.code[static_cast<size_t>(br)].safe_reconv_pc =
          at < 0 ? kExitPc : f.insts[static_cast<size_t>(at)].pc;
}

}  // namespace simtsync::func
