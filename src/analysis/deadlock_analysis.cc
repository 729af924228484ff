#include "analysis/deadlock_analysis.h"

namespace simtsync::analysis {

const ptx::Function* FunctionAnalysis::pick(const ptx::Module& m, const ptx::Function& f,
                                            const AnalysisOptions& o, FunctionAnalysis& self) {
  // Without a call there is nothing to inline and no copy to make (a copy of a large function
  // is most of the analysis's peak memory, issue 46).
  if (!o.inline_calls || !makes_calls(f)) return &f;
  InlineResult r = inline_calls(m, f, o.inlining);
  self.not_analysed_ = std::move(r.not_analysed);
  self.inlined_calls_ = r.inlined_calls;
  if (r.inlined_calls == 0) return &f;
  self.inlined_ = std::make_unique<ptx::Function>(std::move(r.function));
  return self.inlined_.get();
}

FunctionAnalysis::FunctionAnalysis(const ptx::Module& m, const ptx::Function& f,
                                   const AnalysisOptions& o)
    : module_(&m),
      budget_(o.budget_entries, f.name),
      func_(pick(m, f, o, *this)),
      cfg_(*func_),
      dom_(DomTree::dominators(cfg_)),
      pdom_(DomTree::post_dominators(cfg_)),
      loops_(LoopInfo::compute(cfg_, dom_, LoopOptions{o.split_loops, &budget_})),
      dl_(SimtDeadlock::compute({&cfg_, &dom_, &pdom_, &loops_, &m, &budget_}, o.detect)),
      safe_(SafePdom::compute(cfg_, pdom_, loops_, dl_, &budget_)) {}

DeadlockReport FunctionAnalysis::report() const {
  DeadlockReport r{module_, &cfg_, &loops_, &dl_, &safe_};
  r.calls_not_analysed = &not_analysed_;
  r.inlined_calls = inlined_calls_;
  return r;
}

}  // namespace simtsync::analysis
