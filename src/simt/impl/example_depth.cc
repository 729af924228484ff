// A test-only example of a new reconvergence unit (docs/architecture.md, "Where a new ... goes"):
// the IPDOM stack, unchanged in behaviour, that counts its divergent branches, the deepest stack
// a warp reached, and the divergent branches taken with the stack already deep_threshold entries
// deep or more. It shows what a unit costs: this file, one row in reconvergence.def and one line
// in CMakeLists.txt; a key of its own (only its statistic reads it), statistics summed two ways
// (added, and the maximum over warps), shown in `simtsync list`, `--dump-config`, JSON, CSV and
// the text table. It is not a unit to study.
#include <algorithm>
#include <array>
#include <limits>
#include <memory>

#include "config/plugin.h"
#include "simt/impl/ipdom_stack.h"

namespace simtsync::simt {
namespace {

class ExampleDepth final : public IpdomStack {
 public:
  // The counters, in the order declare_example_depth declares them.
  enum Stat : unsigned { kDivergent, kDeep, kMaxDepth, kStatCount };

  ExampleDepth(Pc start, LaneMask threads, std::size_t deep)
      : IpdomStack(start, threads), deep_(deep) {
    counters_[kMaxDepth] = depth();
  }

  std::string name() const override { return "example_depth"; }
  // The counters do not change what the stack does: equal entries still behave alike, so
  // state_is_entries() stays the stack's (true).
  void collect(std::span<std::uint64_t> out) const override { put_counters(out, counters_); }

 private:
  // The stack's reports, counted (the base republishes the state after each).
  void on_branch(const BranchOutcome& b) override {
    if (b.taken != 0 && b.taken != active()) {
      ++counters_[kDivergent];
      if (depth() >= deep_) ++counters_[kDeep];
    }
    IpdomStack::on_branch(b);
    note_depth();
  }
  void on_call(Pc entry, Pc return_pc) override {
    IpdomStack::on_call(entry, return_pc);
    note_depth();
  }
  void note_depth() {
    counters_[kMaxDepth] = std::max<std::uint64_t>(counters_[kMaxDepth], depth());
  }

  std::size_t deep_;
  std::array<std::uint64_t, kStatCount> counters_{};
};

}  // namespace

// Registered in reconvergence.def.
std::unique_ptr<IReconvergence> make_example_depth(Pc start, LaneMask threads,
                                                   const config::PluginParams& p) {
  return std::make_unique<ExampleDepth>(start, threads,
                                        static_cast<std::size_t>(p.get_int("deep_threshold")));
}

void declare_example_depth(config::PluginDecl& d) {
  d.add_int("deep_threshold", 3, 1, std::numeric_limits<std::int32_t>::max(),
            "example_depth: stack depth (entries) from which a divergent branch counts as deep "
            "(only the deep_branches statistic reads it)",
            "test-only example")
      .stat("divergent_branches", "example_depth: branches that split the running entry")
      .stat("deep_branches",
            "example_depth: divergent branches taken with the stack at least deep_threshold deep")
      .stat("max_depth", "example_depth: the deepest stack (entries) any warp reached",
            StatSum::kMax);
}

}  // namespace simtsync::simt
