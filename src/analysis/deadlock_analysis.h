// Everything the SIMT-deadlock tools compute for one function, with one set of options, so that
// `simtsync analyze`, the detection table and SSDE see the same facts: calls inlined
// (inliner.h), loops that share a header split (loops.h), Algorithm 1 with the uniformity
// filter (simt_deadlock.h), Algorithm 2 (safe_pdom.h).
//
// Contract: the analysed body is function(): the input itself when it makes no call (or
// inlining is off), else the inlined copy, whose instruction indices are not the input's.
// Objects are neither copied nor moved (the analyses point at each other); hold them by
// unique_ptr when they must travel.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "analysis/budget.h"
#include "analysis/deadlock_printer.h"
#include "analysis/inliner.h"
#include "analysis/safe_pdom.h"
#include "analysis/simt_deadlock.h"

namespace simtsync::analysis {

struct AnalysisOptions {
  DeadlockOptions detect;
  bool split_loops = true;   // one loop per distinct back-edge body of a shared header
  bool inline_calls = true;  // interprocedural by inlining
  InlineOptions inlining;
  // Entries one function's analysis may hold before it is refused (budget.h); 0: no limit.
  std::uint64_t budget_entries = kDefaultBudgetEntries;
};

class FunctionAnalysis {
 public:
  FunctionAnalysis(const ptx::Module& m, const ptx::Function& f, const AnalysisOptions& o = {});
  FunctionAnalysis(const FunctionAnalysis&) = delete;
  FunctionAnalysis& operator=(const FunctionAnalysis&) = delete;

  const ptx::Function& function() const { return *func_; }
  const Cfg& cfg() const { return cfg_; }
  const DomTree& dom() const { return dom_; }
  const DomTree& pdom() const { return pdom_; }
  const LoopInfo& loops() const { return loops_; }
  const SimtDeadlock& deadlock() const { return dl_; }
  const SafePdom& safe() const { return safe_; }
  int inlined_calls() const { return inlined_calls_; }
  const std::vector<std::string>& calls_not_analysed() const { return not_analysed_; }
  DeadlockReport report() const;

 private:
  static const ptx::Function* pick(const ptx::Module& m, const ptx::Function& f,
                                   const AnalysisOptions& o, FunctionAnalysis& self);

  const ptx::Module* module_;
  AnalysisBudget budget_;  // before the analyses: they charge it while they are built
  std::unique_ptr<ptx::Function> inlined_;
  int inlined_calls_ = 0;
  std::vector<std::string> not_analysed_;
  const ptx::Function* func_;
  Cfg cfg_;
  DomTree dom_, pdom_;
  LoopInfo loops_;
  SimtDeadlock dl_;
  SafePdom safe_;
};

}  // namespace simtsync::analysis
