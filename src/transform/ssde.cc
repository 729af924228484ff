#include "transform/ssde.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>

#include "analysis/deadlock_analysis.h"
#include "analysis/inst_info.h"
#include "analysis/safe_pdom.h"
#include "common/error.h"
#include "ptx/parser.h"
#include "ptx/printer.h"

namespace simtsync::transform {
namespace {

using analysis::Cfg;
using analysis::DomTree;
using analysis::NodeId;
using ptx::Instruction;
using ptx::Opcode;
using ptx::Operand;

Operand reg_op(int r) {
  Operand o;
  o.kind = Operand::Kind::kReg;
  o.reg = r;
  return o;
}
Operand imm_op(std::int64_t v) {
  Operand o;
  o.kind = Operand::Kind::kImmInt;
  o.imm = v;
  return o;
}
Operand label_op(const std::string& n) {
  Operand o;
  o.kind = Operand::Kind::kLabel;
  o.name = n;
  return o;
}

Instruction make(Opcode op, std::vector<ptx::Mod> mods, std::vector<Operand> ops,
                 ptx::Guard g = {}) {
  Instruction in;
  in.opcode = op;
  in.mods = std::move(mods);
  in.operands = std::move(ops);
  in.guard = g;
  return in;
}

int add_reg(ptx::Function& f, const std::string& name, ptx::DType t) {
  const int idx = static_cast<int>(f.regs.size());
  f.regs.push_back(ptx::Register{name, t});
  ptx::RegDecl d;
  d.name = name;
  d.type = t;
  d.count = -1;
  d.first_reg = idx;
  f.reg_decls.push_back(d);
  return idx;
}

// Pending edits of one function, applied in one rebuild so indices stay valid until then.
struct Edits {
  std::map<int, std::vector<Instruction>> before_labels;  // placed before the labels at i
  std::map<int, std::vector<Instruction>> after_labels;   // placed after the labels at i
  std::map<int, std::string> new_labels;                  // label placed after the labels at i
  // Labels inside after_labels[i]: (offset, name) is placed before its offset-th instruction.
  std::map<int, std::vector<std::pair<size_t, std::string>>> inner_labels;
};

void rebuild(ptx::Function& f, const Edits& e) {
  const int n = static_cast<int>(f.insts.size());
  std::vector<Instruction> out;
  std::vector<int> pos_before(static_cast<size_t>(n) + 1), pos_labels(static_cast<size_t>(n) + 1);
  std::vector<ptx::Label> labels;
  size_t next_label = 0;
  for (int i = 0; i <= n; ++i) {
    const ptx::SrcLoc loc =
        i < n ? f.insts[static_cast<size_t>(i)].loc : (n > 0 ? f.insts.back().loc : ptx::SrcLoc{});
    pos_before[static_cast<size_t>(i)] = static_cast<int>(out.size());
    if (auto it = e.before_labels.find(i); it != e.before_labels.end())
      for (Instruction in : it->second) {
        in.loc = loc;
        out.push_back(std::move(in));
      }
    pos_labels[static_cast<size_t>(i)] = static_cast<int>(out.size());
    while (next_label < f.labels.size() && f.labels[next_label].index == i) {
      labels.push_back(ptx::Label{f.labels[next_label].name, static_cast<int>(out.size())});
      ++next_label;
    }
    if (auto it = e.new_labels.find(i); it != e.new_labels.end())
      labels.push_back(ptx::Label{it->second, static_cast<int>(out.size())});
    if (auto it = e.after_labels.find(i); it != e.after_labels.end()) {
      const auto inner = e.inner_labels.find(i);
      for (size_t k = 0; k <= it->second.size(); ++k) {
        if (inner != e.inner_labels.end())
          for (const auto& [off, name] : inner->second)
            if (off == k) labels.push_back(ptx::Label{name, static_cast<int>(out.size())});
        if (k == it->second.size()) break;
        Instruction in = it->second[k];
        in.loc = loc;
        out.push_back(std::move(in));
      }
    }
    if (i < n) out.push_back(f.insts[static_cast<size_t>(i)]);
  }
  for (auto& s : f.scopes) {
    s.begin = pos_before[static_cast<size_t>(s.begin)];
    s.end = pos_before[static_cast<size_t>(s.end)];
  }
  for (auto& p : f.pragmas) p.first = pos_labels[static_cast<size_t>(p.first)];
  f.insts = std::move(out);
  f.labels = std::move(labels);
}

std::string where(const ptx::Module& m, const Instruction& in) {
  return fmt::format("{}:{}:1", m.path, in.ptx_line);
}

// Replaces every ret/exit with a branch to one final `ret`; returns true when it changed f.
void merge_returns(ptx::Function& f, const std::string& label) {
  int leaves = 0;
  for (const auto& in : f.insts) leaves += in.opcode == Opcode::kRet || in.opcode == Opcode::kExit;
  if (leaves == 1 && f.insts.back().opcode == Opcode::kRet && f.insts.back().guard.reg < 0)
    return;  // already single-exit (a previous round merged them)
  Edits e;
  for (auto& in : f.insts) {
    if (in.opcode != Opcode::kRet && in.opcode != Opcode::kExit) continue;
    in = make(Opcode::kBra, {}, {label_op(label)}, in.guard);
  }
  e.new_labels[static_cast<int>(f.insts.size())] = label;
  e.after_labels[static_cast<int>(f.insts.size())].push_back(make(Opcode::kRet, {}, {}));
  rebuild(f, e);
}

analysis::AnalysisOptions analysis_options(const SsdeOptions& o, bool inline_calls) {
  analysis::AnalysisOptions a;
  a.detect = o.detect;
  a.split_loops = o.split_loops;
  a.inline_calls = inline_calls;
  return a;
}

// The facts the transform of one function uses: its own body, not inlined (the edits index it).
struct Analyzed {
  analysis::FunctionAnalysis fa;
  const Cfg& cfg;
  const analysis::LoopInfo& loops;
  const analysis::SimtDeadlock& dl;
  const analysis::SafePdom& safe;
  Analyzed(const ptx::Function& f, const ptx::Module& m, const SsdeOptions& o)
      : fa(m, f, analysis_options(o, false)),
        cfg(fa.cfg()),
        loops(fa.loops()),
        dl(fa.deadlock()),
        safe(fa.safe()) {}
};

// The callee of a direct `call`, or "".
std::string callee_of(const Instruction& in) {
  if (in.opcode != Opcode::kCall) return {};
  for (const Operand& op : in.operands)
    if (op.kind == Operand::Kind::kSymbol) return op.name;
  return {};
}

// Why moving loop `lid`'s iterations to the switch block at `s` would make a livelock, or
// hang, that the original does not have; "" when the analysis sees none (issue 50 item 2). The
// lanes that take the latch wait at the switch block until every other lane of the warp gets
// there, so everything they have not done yet on the way to `s` (the pending code: the rest of
// the loop, and what follows it up to `s`) waits with them:
//  - a loop M that encloses the loop but not `s` and whose exit reads what pending code inside
//    M may write: the waiting lanes left M in the middle of an iteration, typically holding a
//    lock taken before the loop and released after it, and their warp-mates spin in M for it
//    (a tree build: a lane holding a cell lock allocates cells in an inner loop the analysis
//    flagged; parked, it never releases the cell its warp-mates wait for);
//  - a warp-synchronous instruction between the loop's exits and `s`: the lanes that left run
//    it without the lanes waiting at the switch block (undefined without independent thread
//    scheduling; simtsync faults).
std::string park_hazard(const ptx::Module& m, const Analyzed& a, int lid,
                        const analysis::ProgramPoint& s) {
  const Cfg& cfg = a.cfg;
  const analysis::LoopInfo& loops = a.loops;
  const ptx::Function& f = cfg.function();
  const analysis::Loop& l = loops.loop(lid);
  const bool at_exit = s.node == cfg.exit();
  // Pending instructions: blocks reachable from the header without passing `s`, and the part
  // of s's own block before it.
  std::vector<char> seen(static_cast<size_t>(cfg.size()), 0);
  std::vector<NodeId> work{l.header}, pending;
  seen[static_cast<size_t>(l.header)] = 1;
  while (!work.empty()) {
    const NodeId n = work.back();
    work.pop_back();
    pending.push_back(n);
    if (!at_exit && n == s.node) continue;
    for (NodeId t : cfg.succs(n))
      if (cfg.is_block(t) && !seen[static_cast<size_t>(t)] && !cfg.is_virtual_edge(n, t)) {
        seen[static_cast<size_t>(t)] = 1;
        work.push_back(t);
      }
  }
  std::sort(pending.begin(), pending.end());
  auto insts_of = [&](NodeId n) {
    const int end = !at_exit && n == s.node ? s.inst : cfg.block(n).end;
    return std::pair<int, int>(cfg.block(n).begin, end);
  };
  auto where_is = [&](int i) {
    return fmt::format("`{}` ({})", ptx::print_instruction(f, f.insts[static_cast<size_t>(i)]),
                       analysis::source_line(&m, f, i));
  };
  auto loop_where = [&](const analysis::Loop& x) {
    return fmt::format("{} ({})", cfg.name(x.header),
                       analysis::source_line(&m, f, cfg.block(x.header).begin));
  };
  for (NodeId n : pending) {
    if (loops.contains(lid, n)) continue;
    const auto [b, e] = insts_of(n);
    for (int i = b; i < e; ++i)
      if (analysis::is_warp_sync(f.insts[static_cast<size_t>(i)]))
        return fmt::format(
            "its lanes that leave it reach the warp-synchronous {} while the lanes still "
            "iterating would wait at the switch block; SSDE leaves it unchanged",
            where_is(i));
  }
  const analysis::SimtDeadlock& dl = a.dl;
  const DomTree& dom = a.fa.dom();
  for (const analysis::Loop& mloop : loops.loops()) {
    if (mloop.id == lid || !loops.contains(mloop.id, l.header)) continue;
    if (!at_exit && loops.contains(mloop.id, s.node)) continue;
    const analysis::LoopVerdict& mv = dl.verdicts()[static_cast<size_t>(mloop.id)];
    // The locks a parked lane holds: atomics of M that M's exit reads (its acquire attempts)
    // and that every way into the loop passes, in this iteration of M.
    // The lock instructions (simtsync_lock, seed 004) count as acquires of any lock word.
    std::vector<int> acquires;
    for (int r : mv.reads) {
      const NodeId rb = cfg.node_of_inst(r);
      if (f.insts[static_cast<size_t>(r)].opcode == Opcode::kAtom && loops.contains(mloop.id, rb) &&
          dom.dominates(rb, l.header))
        acquires.push_back(r);
    }
    int lock_call = -1;
    for (NodeId n : loops.blocks(mloop.id))
      if (dom.dominates(n, l.header))
        for (int i = cfg.block(n).begin; i < cfg.block(n).end && lock_call < 0; ++i)
          if (callee_of(f.insts[static_cast<size_t>(i)]) == "simtsync_lock") lock_call = i;
    if (acquires.empty() && lock_call < 0) continue;
    // The write that releases: the one at the acquire's own address first, so the report
    // names the release rather than another write the alias analysis cannot tell apart.
    int found_acq = -1, found_rel = -1;
    for (NodeId n : pending) {
      if (!loops.contains(mloop.id, n)) continue;
      const auto [b, e] = insts_of(n);
      for (int i = b; i < e; ++i) {
        const Instruction& w = f.insts[static_cast<size_t>(i)];
        if (lock_call >= 0 && callee_of(w) == "simtsync_unlock" && found_rel < 0) {
          found_acq = lock_call;
          found_rel = i;
        }
        // M's own attempts only compete with the spinners; they release nothing.
        if (!analysis::is_sync_write(w) || std::binary_search(mv.reads.begin(), mv.reads.end(), i))
          continue;
        for (int acq : acquires) {
          if (!dl.alias().may_alias(acq, i)) continue;
          const auto& aa = f.insts[static_cast<size_t>(acq)].operands;
          const int wa = analysis::memory(w).addr;
          const bool same =
              wa >= 0 && aa.size() > 1 && aa[1] == w.operands[static_cast<size_t>(wa)];
          if (found_rel < 0 || same) {
            found_acq = acq;
            found_rel = i;
          }
          if (same) break;
        }
      }
    }
    if (found_rel >= 0)
      return fmt::format(
          "its lanes took the lock of the enclosing loop {} with {} before entering it "
          "and may release it with {} afterwards, but its safe post-dominator lies after "
          "that loop: lanes still iterating would wait there holding the lock while "
          "their warp-mates spin for it; SSDE leaves it unchanged rather than make a "
          "livelock",
          loop_where(mloop), where_is(found_acq), where_is(found_rel));
  }
  return {};
}

std::string label_at(const ptx::Function& f, int index) {
  for (const auto& l : f.labels)
    if (l.index == index) return l.name;
  return {};
}

// Transforms one function in place; returns false when nothing was flagged.
bool transform_function(ptx::Function& f, const ptx::Module& m, const SsdeOptions& o, int fn_index,
                        bool single_entry, SsdeResult& res) {
  std::unique_ptr<Analyzed> a = std::make_unique<Analyzed>(f, m, o);
  if (a->dl.num_flagged() == 0) return false;
  // Loops whose transform would livelock (park_hazard), by the header's first instruction
  // (merge_returns below keeps indices).
  std::set<int> refused;
  bool needs_exit = false, any = false;
  for (const auto& v : a->dl.verdicts()) {
    const auto& s = a->safe.safe(v.loop);
    if (!s) continue;
    const NodeId h = a->loops.loop(v.loop).header;
    if (std::string why = park_hazard(m, *a, v.loop, *s); !why.empty()) {
      refused.insert(a->cfg.block(h).begin);
      res.refused[f.name + "\n" + a->cfg.name(h)] = std::move(why);
      continue;
    }
    any = true;
    needs_exit |= s->node == a->cfg.exit();
  }
  if (!any) return false;
  if (needs_exit) {
    std::string exit_label = fmt::format("$L__ssde_exit{}", fn_index);
    while (f.label_index(exit_label) >= 0) exit_label += "_";
    merge_returns(f, exit_label);
    f.finalize(f.base_pc);
    a = std::make_unique<Analyzed>(f, m, o);
  }
  const Cfg& cfg = a->cfg;
  // Group the flagged loops by safe point (instruction index; EXIT -> the final ret).
  std::map<int, std::vector<int>> by_point;
  std::vector<NodeId> headers_done;  // one transformed loop per header: the outermost flagged
  for (const auto& v : a->dl.verdicts()) {
    const auto& s = a->safe.safe(v.loop);
    if (!s) continue;
    const NodeId h = a->loops.loop(v.loop).header;
    if (std::find(headers_done.begin(), headers_done.end(), h) != headers_done.end()) continue;
    headers_done.push_back(h);
    if (refused.count(cfg.block(h).begin)) continue;
    int at = s->node == cfg.exit() ? static_cast<int>(f.insts.size()) - 1 : s->inst;
    if (s->node == cfg.exit() && (f.insts.empty() || f.insts.back().opcode != Opcode::kRet))
      continue;  // cannot happen after merge_returns; keep the loop untouched
    by_point[at].push_back(v.loop);
  }
  // Cases in program order of the loop headers (the switch tests them in reverse).
  for (auto& [at, loops] : by_point)
    std::stable_sort(loops.begin(), loops.end(), [&](int x, int y) {
      return cfg.block(a->loops.loop(x).header).begin < cfg.block(a->loops.loop(y).header).begin;
    });
  Edits e;
  int sw = 0;
  std::map<NodeId, std::string> header_labels;
  auto header_label = [&](NodeId h) {
    const int idx = cfg.block(h).begin;
    std::string l = label_at(f, idx);
    if (l.empty()) {
      auto it = e.new_labels.find(idx);
      if (it != e.new_labels.end()) return it->second;
      l = fmt::format("$L__ssde_h{}_{}", fn_index, h);
      while (f.label_index(l) >= 0) l += "_";  // a label left by an earlier round
      e.new_labels[idx] = l;
    }
    return l;
  };
  for (const auto& [at, loops] : by_point) {
    const int id = res.first_switch_id + res.switch_blocks + sw++;
    std::string sw_label = label_at(f, at);
    if (sw_label.empty()) {
      sw_label = fmt::format("$L__ssde_sw{}", id);
      e.new_labels[at] = sw_label;
    }
    // A switch block shared by several loops serves them in rounds (see below): their latches
    // go to its join point, after the tests, instead of its top.
    const bool rounds = loops.size() > 1;
    // The loops whose threads hold a lock another loop of the group spins on: that loop's
    // acquire (an atomic its exit reads, or nvcc's peeled first attempt of it) lies outside
    // this loop and dominates its header, so every thread in it has taken that lock. Their latches
    // keep going to the top of the switch, so they iterate until they are through, as the threads
    // the others wait for (nested locks taken in program order: ATM, CP-DS).
    std::set<int> holders;
    if (rounds)
      for (int lj : loops) {
        const NodeId hj = a->loops.loop(lj).header;
        for (int i = 0; i < static_cast<int>(f.insts.size()) && !holders.count(lj); ++i) {
          if (f.insts[static_cast<size_t>(i)].opcode != Opcode::kAtom ||
              !analysis::is_sync_write(f.insts[static_cast<size_t>(i)]))
            continue;
          const NodeId ib = cfg.node_of_inst(i);
          if (a->loops.contains(lj, ib) || !a->fa.dom().dominates(ib, hj)) continue;
          const Instruction& ai = f.insts[static_cast<size_t>(i)];
          for (int li : loops)
            if (li != lj)
              for (int r : a->dl.verdicts()[static_cast<size_t>(li)].reads) {
                // li's acquire: its own atomic, or the copy of it nvcc peels off before the
                // loop (same operation at the same source position, call site included: the
                // atomics of the CUDA headers share their line); not lj's own first attempt,
                // which may alias li's lock through a shared array.
                const Instruction& ar = f.insts[static_cast<size_t>(r)];
                if (r == i ||
                    (ar.opcode == Opcode::kAtom && ar.mods == ai.mods && ar.loc.line > 0 &&
                     ar.loc == ai.loc && a->dl.alias().may_alias(r, i)))
                  holders.insert(lj);
              }
        }
      }
    std::string join_label = sw_label;
    if (rounds) {
      join_label = fmt::format("$L__ssde_join{}", id);
      while (f.label_index(join_label) >= 0) join_label += "_";
    }
    const int c = add_reg(f, fmt::format("%ssde_c{}", id), ptx::DType::kB32);
    e.before_labels[0].insert(e.before_labels[0].begin(),
                              make(Opcode::kMov, {ptx::Mod::kU32}, {reg_op(c), imm_op(0)}));
    std::vector<Instruction> tests, branches;
    int k = 0;
    for (int lid : loops) {
      ++k;
      const analysis::Loop& l = a->loops.loop(lid);
      const std::string& back_to = holders.count(lid) ? sw_label : join_label;
      const std::string hl = header_label(l.header);
      const int p = add_reg(f, fmt::format("%ssde_p{}_{}", id, k), ptx::DType::kPred);
      tests.push_back(
          make(Opcode::kSetp, {ptx::Mod::kEq, ptx::Mod::kU32}, {reg_op(p), reg_op(c), imm_op(k)}));
      branches.push_back(make(Opcode::kBra, {}, {label_op(hl)}, ptx::Guard{p, false}));
      // Every edge into the header, the back edges and the entry edges alike, now sets the
      // case and goes to the switch block: the switch block becomes the only entry of the new
      // loop (single-entry, so it is a valid reconvergence point under NVIDIA's rule, seed 003
      // sec. IV-A-1).
      for (NodeId latch : cfg.preds(l.header)) {
        const bool back = std::find(l.latches.begin(), l.latches.end(), latch) != l.latches.end();
        if (!back && !single_entry) continue;
        if (latch == cfg.entry()) {  // the header starts the function
          e.before_labels[cfg.block(l.header).begin].push_back(
              make(Opcode::kMov, {ptx::Mod::kU32}, {reg_op(c), imm_op(k)}));
          e.before_labels[cfg.block(l.header).begin].push_back(
              make(Opcode::kBra, {}, {label_op(sw_label)}));
          continue;
        }
        if (!cfg.is_block(latch)) continue;
        const int t = cfg.terminator(latch);
        Instruction& term = f.insts[static_cast<size_t>(t)];
        const Instruction set_c = make(Opcode::kMov, {ptx::Mod::kU32}, {reg_op(c), imm_op(k)});
        if (term.opcode == Opcode::kBrx)
          throw unsupported_error(
              fmt::format("{}: error: SSDE cannot rewrite an indirect (brx) "
                          "loop latch",
                          where(m, term)));
        if (term.opcode == Opcode::kBra && term.operands[0].target == cfg.block(l.header).begin) {
          Instruction guarded = set_c;
          guarded.guard = term.guard;
          e.after_labels[t].push_back(guarded);
          term.operands[0].name = back ? back_to : sw_label;
        } else {  // falls through into the header
          e.before_labels[t + 1].push_back(set_c);
          e.before_labels[t + 1].push_back(
              make(Opcode::kBra, {}, {label_op(back ? back_to : sw_label)}));
        }
      }
      res.changes.push_back(SsdeChange{f.name, hl, sw_label, k});
    }
    auto& code = e.after_labels[at];
    std::vector<Instruction> sw_code = tests;
    sw_code.push_back(make(Opcode::kMov, {ptx::Mod::kU32}, {reg_op(c), imm_op(0)}));
    // The cases are tested last loop first. The not-taken side of each test runs first (the
    // default path before every loop, as seed 003 sec. IV-A asks) and waits at the next test,
    // which is the test's reconvergence point, while the taken group iterates its loop. So a
    // group spinning in a later loop never waits for one spinning in an earlier loop: with
    // nested locks taken in program order (atm, cp_ds), the later loop's threads hold the
    // locks the earlier loop's threads want, and tested first they can always release them.
    sw_code.insert(sw_code.end(), branches.rbegin(), branches.rend());
    // Several loops: rounds. A group that took its branch runs one iteration of its loop and
    // goes to the join point, which is that branch's reconvergence point, so every group of
    // parked threads runs one iteration per round, and at the join every thread still
    // iterating (case != 0) goes back to the tests together. Testing the cases in one fixed
    // order and looping back to the top let the first group tested iterate for as long as it
    // spun: a livelock when a later loop's threads wait for threads parked in an earlier loop
    // (bh_sm: a parent cell's lane in the eighth child loop waits for a child cell's lane
    // still in the third). Lock holders (above) still go back to the top: their warp-mates
    // wait for them, and spinning for a lock they hold would only add contention.
    if (rounds) {
      e.inner_labels[at].emplace_back(sw_code.size(), join_label);
      const int q = add_reg(f, fmt::format("%ssde_q{}", id), ptx::DType::kPred);
      sw_code.push_back(
          make(Opcode::kSetp, {ptx::Mod::kNe, ptx::Mod::kU32}, {reg_op(q), reg_op(c), imm_op(0)}));
      sw_code.push_back(make(Opcode::kBra, {}, {label_op(sw_label)}, ptx::Guard{q, false}));
    }
    code.insert(code.begin(), sw_code.begin(), sw_code.end());
  }
  res.switch_blocks += sw;
  rebuild(f, e);
  return true;
}

int flagged_loops(const ptx::Function& f, const ptx::Module& m, const SsdeOptions& o) {
  const Analyzed a(f, m, o);
  return a.dl.num_flagged();
}

// The loops of `before` whose exit reads memory (so they may wait) that are no longer natural
// loops in `after` (entered other than through their header, which the non-single-entry form
// and a switch block outside an enclosing loop can leave), other than the transformed loops
// themselves: the re-analysis sees only natural loops, and park_hazard only natural enclosing
// loops, so a lock held across such a loop is out of both's sight.
std::vector<std::string> hidden_loops(const ptx::Module& mb, const ptx::Function& before,
                                      const ptx::Module& ma, const ptx::Function& after,
                                      const std::vector<SsdeChange>& changes,
                                      const SsdeOptions& o) {
  const analysis::FunctionAnalysis fb(mb, before, analysis_options(o, false));
  const analysis::FunctionAnalysis fa(ma, after, analysis_options(o, false));
  std::set<std::string> headers;  // natural loops of the output, and the transformed ones
  for (const auto& l : fa.loops().loops()) headers.insert(fa.cfg().name(l.header));
  for (const auto& c : changes)
    if (c.function == before.name) headers.insert(c.loop_header);
  std::vector<std::string> out;
  for (const auto& v : fb.deadlock().verdicts()) {
    if (v.reads.empty()) continue;
    const analysis::Loop& l = fb.loops().loop(v.loop);
    const std::string label = fb.cfg().name(l.header);
    if (label.rfind("$", 0) != 0 || headers.count(label)) continue;
    out.push_back(fmt::format("{} ({})", label,
                              analysis::source_line(&mb, before, fb.cfg().block(l.header).begin)));
  }
  return out;
}

// One pass of Algorithm 3 over every function of `m` (appends to res).
ptx::Module transform_module(const ptx::Module& m, const SsdeOptions& o, SsdeResult& res) {
  ptx::Module out = m;
  int fn_index = 0;
  for (auto& f : out.functions) {
    if (f.is_declaration) continue;
    // First with single-entry loops forced (every entry edge of a flagged loop's header also
    // goes through the switch block). That makes the new loop a natural loop the analysis
    // sees; in rare cases (a false detection nested in an outer loop whose safe point lies
    // inside it, bh_tb) the analysis then flags it again, and the function is transformed
    // without forcing instead (valid under the IPDOM stack; the check below warns).
    const ptx::Function original = f;
    const SsdeResult saved = res;
    if (!transform_function(f, m, o, fn_index, true, res)) {
      ++fn_index;
      continue;
    }
    const ptx::Module probe = ptx::parse_module(ptx::print_module(out), m.path);
    const ptx::Function* pf = probe.find_function(f.name);
    if (pf && flagged_loops(*pf, probe, o) > 0) {
      f = original;
      res = saved;
      transform_function(f, m, o, fn_index, false, res);
    }
    // A transform that hides a waiting loop from the checks is undone (issue 50: on
    // bh_tb_lockinst the second round then parked lanes holding a lock, and the kernel
    // inserted bodies twice).
    const ptx::Module done = ptx::parse_module(ptx::print_module(out), m.path);
    if (const ptx::Function* df = done.find_function(f.name)) {
      const std::vector<std::string> hidden = hidden_loops(m, original, done, *df, res.changes, o);
      if (!hidden.empty()) {
        const std::string why = fmt::format(
            "transforming it would leave loop {}, whose exit reads memory, entered other than "
            "through its header, where neither the re-analysis nor the lock checks can see "
            "it; SSDE leaves the function unchanged",
            hidden.front());
        f = original;
        res = saved;
        const analysis::FunctionAnalysis fo(m, original, analysis_options(o, false));
        for (const auto& v : fo.deadlock().verdicts())
          if (v.flagged)
            res.refused.emplace(f.name + "\n" + fo.cfg().name(fo.loops().loop(v.loop).header), why);
      }
    }
    ++fn_index;
  }
  // Print and re-parse: resolves labels, blocks and PCs and proves the output parses.
  return ptx::parse_module(ptx::print_module(out), m.path);
}

// Loops the full analysis (calls inlined) still flags in `m`, with the reason.
std::vector<std::string> still_flagged(const ptx::Module& m, const SsdeOptions& o, int rounds,
                                       const std::map<std::string, std::string>& refused) {
  std::vector<std::string> out;
  for (const auto& f : m.functions) {
    if (f.is_declaration) continue;
    const analysis::FunctionAnalysis a(m, f, analysis_options(o, o.inline_calls));
    for (const auto& v : a.deadlock().verdicts()) {
      if (!v.flagged) continue;
      const analysis::Loop& l = a.loops().loop(v.loop);
      const int head = a.cfg().block(l.header).begin;
      const std::string label = a.cfg().name(l.header);
      std::string why;
      if (auto it = refused.find(f.name + "\n" + label); it != refused.end()) {
        why = it->second;
      } else if (a.inlined_calls() > 0 && label.find("$i") != std::string::npos) {
        why =
            "the loop is in a called function; SSDE transforms one function at a time "
            "(inline the callee, e.g. compile with -O3)";
      } else if (a.inlined_calls() > 0) {
        why =
            "its redefining writes are in called functions; SSDE transforms one function at a "
            "time (inline the callees, e.g. compile with -O3)";
      } else {
        why = fmt::format(
            "still flagged after {} rounds of the transform: its safe "
            "post-dominator keeps landing inside another flagged loop",
            rounds);
      }
      out.push_back(fmt::format("{}: loop {} ({}): {}", f.name, label,
                                analysis::source_line(&m, a.function(), head), why));
    }
  }
  return out;
}

}  // namespace

SsdeResult ssde(const ptx::Module& m, const SsdeOptions& o) {
  SsdeResult res;
  res.module = m;
  // Input that is itself SSDE output keeps its switch registers and labels: number after them.
  for (const auto& f : m.functions)
    for (const auto& r : f.regs)
      if (r.name.rfind("%ssde_c", 0) == 0)
        res.first_switch_id = std::max(res.first_switch_id, std::atoi(r.name.c_str() + 7) + 1);
  // Apply the transform until the full re-analysis finds nothing (or kMaxRounds passed).
  for (int round = 0; round < kMaxRounds; ++round) {
    const size_t before = res.changes.size();
    ptx::Module next = transform_module(res.module, o, res);
    if (res.changes.size() == before) break;  // nothing this pass could transform
    res.module = std::move(next);
    ++res.rounds;
    if (still_flagged(res.module, o, res.rounds, res.refused).empty()) break;
  }
  res.unfixed = still_flagged(res.module, o, res.rounds, res.refused);
  // Single-entry check of the new loops (NVIDIA compatibility rule): every way into the loop
  // header now passes through the switch block, which must therefore dominate it.
  for (const auto& ch : res.changes) {
    const ptx::Function* f = res.module.find_function(ch.function);
    if (!f) continue;
    const Cfg cfg(*f);
    const DomTree dom = DomTree::dominators(cfg);
    const int h = f->label_index(ch.loop_header), s = f->label_index(ch.switch_label);
    if (h < 0 || s < 0) continue;
    if (!dom.dominates(cfg.node_of_inst(s), cfg.node_of_inst(h)))
      res.warnings.push_back(
          fmt::format("{}: the loop at {} re-entered from {} is not single-entry", ch.function,
                      ch.loop_header, ch.switch_label));
  }
  return res;
}

}  // namespace simtsync::transform
