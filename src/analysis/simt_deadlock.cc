#include "analysis/simt_deadlock.h"

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <utility>

#include "analysis/inst_info.h"
#include "analysis/reaching_defs.h"
#include "analysis/slices.h"

namespace simtsync::analysis {

int SimtDeadlock::num_flagged() const {
  return static_cast<int>(std::count_if(verdicts_.begin(), verdicts_.end(),
                                        [](const LoopVerdict& v) { return v.flagged; }));
}

int SimtDeadlock::num_busy_waits() const {
  return static_cast<int>(std::count_if(verdicts_.begin(), verdicts_.end(),
                                        [](const LoopVerdict& v) { return v.busy_wait; }));
}

const Uniformity& SimtDeadlock::uniformity() const {
  if (!uniformity_) uniformity_ = Uniformity::compute({cfg_, rd_.get(), &rec_, &alias_, nullptr});
  return *uniformity_;
}

namespace {

// The function's shared writes by address, so that the writes that may alias a read are
// found without testing every write (rule numbers of alias.h). A superset is returned; the
// caller applies may_alias itself.
class WriteIndex {
 public:
  WriteIndex(const std::vector<int>& writes, const AliasAnalysis& alias, bool distinct_params)
      : all_(writes), distinct_params_(distinct_params) {
    for (int w : writes) {
      const AddressInfo& a = alias.address(w);
      if (a.base == AddressInfo::Base::kUnknown || a.base == AddressInfo::Base::kAbsolute) {
        anywhere_.push_back(w);  // may alias any read
        continue;
      }
      Bucket& b = buckets_[{a.base, a.name}];
      if (!a.offset_known) {
        b.unknown.push_back(w);
        continue;
      }
      b.known.emplace_back(a.offset, w);
      b.max_bytes = std::max<std::int64_t>(b.max_bytes, std::max<unsigned>(a.bytes, 1));
    }
    for (auto& [key, b] : buckets_) std::sort(b.known.begin(), b.known.end());
  }

  // Calls fn(write) for every write that may alias a read at `a` (and some that do not).
  template <typename Fn>
  void candidates(const AddressInfo& a, Fn&& fn) const {
    // An unknown or absolute read may alias any base; without rule 4d, a parameter or a
    // variable may alias a parameter.
    if (a.base == AddressInfo::Base::kUnknown || a.base == AddressInfo::Base::kAbsolute ||
        !distinct_params_) {
      for (int w : all_) fn(w);
      return;
    }
    for (int w : anywhere_) fn(w);
    auto it = buckets_.find({a.base, a.name});
    if (it == buckets_.end()) return;
    const Bucket& b = it->second;
    for (int w : b.unknown) fn(w);
    if (!a.offset_known) {
      for (const auto& [off, w] : b.known) fn(w);
      return;
    }
    // Rule 4c: [off, off + bytes) overlaps [a.offset, a.offset + a.bytes).
    const std::int64_t lo = a.offset - b.max_bytes + 1;
    const std::int64_t hi = a.offset + std::max<unsigned>(a.bytes, 1);
    for (auto k = std::lower_bound(b.known.begin(), b.known.end(),
                                   std::make_pair(lo, std::numeric_limits<int>::min()));
         k != b.known.end() && k->first < hi; ++k)
      fn(k->second);
  }

 private:
  struct Bucket {
    std::vector<int> unknown;                         // offset unknown
    std::vector<std::pair<std::int64_t, int>> known;  // (offset, write), ascending
    std::int64_t max_bytes = 1;
  };
  std::vector<int> all_, anywhere_;
  std::map<std::pair<AddressInfo::Base, std::string>, Bucket> buckets_;
  bool distinct_params_;
};

}  // namespace

SimtDeadlock SimtDeadlock::compute(const Inputs& in, const DeadlockOptions& o) {
  const Cfg& cfg = *in.cfg;
  const ptx::Function& f = cfg.function();
  const LoopInfo& loops = *in.loops;
  SimtDeadlock r;
  r.opts_ = o;
  r.cfg_ = in.cfg;
  r.rec_ = ReconvergenceTable::compute(cfg, *in.pdom, o.convention);
  r.rd_ = std::make_shared<const ReachingDefs>(ReachingDefs::compute(cfg, in.budget));
  const ReachingDefs& rd = *r.rd_;
  r.alias_ = AliasAnalysis::compute(cfg, rd, in.module, o.distinct_params);

  // Blocks holding a shared read: only loops that hold one can have SharedReads.
  std::vector<char> reads_in(static_cast<size_t>(cfg.size()), 0);
  std::vector<int> writes;  // every shared write, ascending
  for (NodeId b = 0; b < cfg.num_blocks(); ++b)
    for (int i = cfg.block(b).begin; i < cfg.block(b).end; ++i) {
      const ptx::Instruction& ins = f.insts[static_cast<size_t>(i)];
      if (is_sync_read(ins)) reads_in[static_cast<size_t>(b)] = 1;
      if (is_sync_write(ins)) writes.push_back(i);
    }
  const std::vector<char> holds_read = loops.loops_holding(reads_in);
  std::optional<ControlDependence> cd;  // only slices need it

  // Lines 3-7: shared reads the exit conditions depend on.
  std::vector<char> wanted(loops.loops().size(), 0);
  for (const Loop& l : loops.loops()) {
    LoopVerdict v;
    v.loop = l.id;
    v.exit_branches = l.exiting_branches;
    for (NodeId b : loops.own_blocks(l.id))  // the marker names its innermost loop
      for (int i = cfg.block(b).begin; i < cfg.block(b).end; ++i)
        if (f.insts[static_cast<size_t>(i)].opcode == ptx::Opcode::kPmevent) v.spin_marked = true;
    if (holds_read[static_cast<size_t>(l.id)]) {
      if (!cd) cd = ControlDependence::compute(cfg, *in.pdom);
      const BlockSet body{[&](NodeId n) { return loops.contains(l.id, n); },
                          [&] { return loops.blocks(l.id); }};
      for (int i : backward_slice(cfg, rd, *cd, l.exiting_branches, body))
        if (is_sync_read(f.insts[static_cast<size_t>(i)])) v.reads.push_back(i);
    }
    wanted[static_cast<size_t>(l.id)] = !v.reads.empty();
    r.verdicts_.push_back(std::move(v));
  }
  r.regions_ = LoopRegions::compute(cfg, *in.pdom, loops, r.rec_, wanted, o.parallel, in.budget);
  const LoopRegions& regs = r.regions_;

  // Lines 8-19: the shared writes in reachable or parallel blocks that may alias a read.
  const WriteIndex index(writes, r.alias_, o.distinct_params);
  std::vector<int> stamp(f.insts.size(), -1);
  bool any_seed = false;
  for (LoopVerdict& v : r.verdicts_) {
    if (v.reads.empty()) continue;
    const LoopRegion& reg = regs[v.loop];
    std::vector<int> cands;
    for (int rd_inst : v.reads)
      index.candidates(r.alias_.address(rd_inst), [&](int w) {
        if (stamp[static_cast<size_t>(w)] == v.loop) return;
        stamp[static_cast<size_t>(w)] = v.loop;
        cands.push_back(w);
      });
    std::sort(cands.begin(), cands.end());
    charge(in.budget, cands.size() * (1 + v.reads.size()), "candidate writes of loops");
    for (int w : cands) {
      const NodeId bb = cfg.node_of_inst(w);
      const int cut = regs.barrier(bb);
      RedefWrite rw{w,
                    regs.is_reachable(v.loop, bb) && (cut < 0 || w < cut),
                    o.parallel && reg.parallel.count(bb) > 0,
                    {}};
      if (!rw.reachable && !rw.parallel) continue;
      for (int rd_inst : v.reads)
        if (r.alias_.may_alias(rd_inst, w)) rw.reads.push_back(rd_inst);
      if (!rw.reads.empty()) v.redefs.push_back(std::move(rw));
    }
    v.seed_flagged = !v.redefs.empty();  // line 20
    v.flagged = v.seed_flagged;
    v.seed_redefs = v.redefs;
    any_seed |= v.seed_flagged;
  }
  if (!any_seed) return r;

  // Self-advancing reads: a write counts only through the reads that are not tickets.
  if (o.tickets)
    for (LoopVerdict& v : r.verdicts_) {
      if (!v.seed_flagged) continue;
      for (int i : v.reads)
        if (is_self_advancing(f.insts[static_cast<size_t>(i)])) v.tickets.push_back(i);
      if (v.tickets.empty()) continue;
      std::sort(v.tickets.begin(), v.tickets.end());
      std::vector<RedefWrite> kept;
      for (RedefWrite w : v.redefs) {
        std::erase_if(w.reads, [&](int i) {
          return std::binary_search(v.tickets.begin(), v.tickets.end(), i);
        });
        if (!w.reads.empty()) kept.push_back(std::move(w));
      }
      v.redefs = std::move(kept);
      v.flagged = !v.redefs.empty();
      v.self_advancing = !v.flagged;
    }
  if (!o.uniformity || r.num_flagged() == 0) return r;

  // The uniformity filter.
  r.uniformity_ = Uniformity::compute({&cfg, &rd, &r.rec_, &r.alias_, in.budget});
  const Uniformity& uni = *r.uniformity_;
  bool holding_built = false;
  std::vector<std::vector<int>> holding(static_cast<size_t>(cfg.size()));
  for (LoopVerdict& v : r.verdicts_) {
    if (!v.flagged) continue;
    const Loop& l = loops.loop(v.loop);
    const LoopRegion& reg = regs[v.loop];
    for (int b : v.exit_branches) v.divergent_exit |= uni.divergent_branch(b);
    // Divergent branches whose region holds the whole loop, and what is reachable from
    // their reconvergence points: lanes that never entered L wait there.
    if (!holding_built) {
      // Divergent points whose region holds each loop header: a region that holds a loop
      // holds its header, so only these are tried (not every point for every loop).
      holding_built = true;
      std::vector<char> header(static_cast<size_t>(cfg.size()), 0);
      for (const Loop& m : loops.loops()) header[static_cast<size_t>(m.header)] = 1;
      for (int p : uni.divergence_points()) {
        if (!uni.divergent_branch(p)) continue;
        for (NodeId b : uni.region(p))
          if (header[static_cast<size_t>(b)]) holding[static_cast<size_t>(b)].push_back(p);
      }
    }
    std::vector<NodeId> enclosing_from;  // reconvergence blocks of the enclosing branches
    const auto& hold = holding[static_cast<size_t>(l.header)];
    if (!hold.empty()) {
      const std::vector<NodeId> body = loops.blocks(l.id);
      for (int p : hold) {
        if (!std::all_of(body.begin(), body.end(), [&](NodeId b) { return uni.in_region(p, b); }))
          continue;
        v.enclosing_divergent.push_back(p);
        if (const ReconvergencePoint* rp = r.rec_.find_by_inst(p))
          enclosing_from.push_back(rp->reconverge_node);
      }
    }
    std::vector<RedefWrite> kept;
    for (RedefWrite w : v.redefs) {
      const NodeId bb = cfg.node_of_inst(w.inst);
      bool reach = false;
      if (w.reachable) {
        const int cut = regs.barrier(bb);
        reach = v.divergent_exit;
        if (!reach && (cut < 0 || w.inst < cut))
          for (NodeId from : enclosing_from)
            if (regs.reaches_avoiding(from, l.id, bb)) {
              reach = true;
              break;
            }
      }
      bool para = false;
      if (w.parallel) {
        auto it = reg.parallel.find(bb);
        if (it != reg.parallel.end())
          for (int br : it->second) para |= uni.divergent_branch(br);
      }
      w.reachable = reach;
      w.parallel = para;
      if (reach || para) kept.push_back(w);
    }
    v.redefs = std::move(kept);
    v.flagged = !v.redefs.empty();
    v.busy_wait = !v.flagged;
  }
  return r;
}

}  // namespace simtsync::analysis
