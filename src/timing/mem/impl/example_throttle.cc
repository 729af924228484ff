// A test-only example of a memory-side unit (docs/architecture.md, "A new memory-side unit"): a
// throttle that lets at most one intercepted access into its slice every `interval` L2 cycles, a
// cap on a slice's read (or write) bandwidth. It shows the parts of the family: keys of its own,
// placement chosen by config (one throttle per slice, or one shared by a partition's slices),
// what it intercepts chosen by config, holding traffic (admit/taken) and declared statistics.
// It is not a model of any hardware.
#include <limits>

#include "timing/mem/i_mem_unit.h"

namespace simtsync::mem {
namespace {

class ExampleThrottle final : public IMemUnit {
 public:
  ExampleThrottle(unsigned intercepts, MemPlacement placement, std::uint64_t interval)
      : intercepts_(intercepts), placement_(placement), interval_(interval) {}

  unsigned intercepts() const override { return intercepts_; }
  MemPlacement placement() const override { return placement_; }
  bool admit(const Packet&, std::uint64_t now) override {
    if (now >= next_) return true;
    ++st_[kHeldCycles];
    return false;
  }
  void taken(const Packet&, std::uint64_t now) override {
    next_ = now + interval_;
    ++st_[kAdmitted];
  }
  void collect(std::span<std::uint64_t> out) const override {
    for (std::size_t i = 0; i < out.size() && i < kCount; ++i) out[i] = st_[i];
  }

 private:
  enum Stat { kAdmitted, kHeldCycles, kCount };  // in declaration order
  unsigned intercepts_;
  MemPlacement placement_;
  std::uint64_t interval_;
  std::uint64_t next_ = 0;  // first L2 cycle the next access may enter
  std::uint64_t st_[kCount] = {};
};

}  // namespace

std::unique_ptr<IMemUnit> make_example_throttle(const MemUnitContext&,
                                                const config::PluginParams& p) {
  const std::string& where = p.get_string("placement");
  if (where == "off") return nullptr;
  const std::string& what = p.get_string("intercepts");
  const unsigned m = what == "reads"    ? kInterceptReads
                     : what == "writes" ? kInterceptWrites
                                        : kInterceptReads | kInterceptWrites;
  return std::make_unique<ExampleThrottle>(
      m, where == "partition" ? MemPlacement::kPartition : MemPlacement::kSlice,
      static_cast<std::uint64_t>(p.get_int("interval")));
}

void declare_example_throttle(config::PluginDecl& d) {
  d.add_choice("placement", "off", {"off", "slice", "partition"},
               "example_throttle: not placed, one per L2 slice, or one shared by the slices of "
               "each memory partition",
               "test-only example")
      .add_choice("intercepts", "reads", {"reads", "writes", "both"},
                  "example_throttle: the accesses it caps as they enter a slice",
                  "test-only example")
      .add_int("interval", 4, 1, std::numeric_limits<std::int32_t>::max(),
               "example_throttle: L2 cycles from one admitted access to the next",
               "test-only example")
      .stat("admitted", "example_throttle: accesses let into the slice")
      .stat("held_cycles", "example_throttle: L2 cycles an access waited at a slice's input");
}

}  // namespace simtsync::mem
