// What a warp-scheduling or fetch policy is built with: where it sits (SM, scheduler), read
// access to the per-warp state it may legitimately see, the SM's shared units, the SM's event
// bus, and the counters of the statistics it declared.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/stat_table.h"
#include "common/types.h"
#include "timing/sched/events.h"

namespace simtsync::sched {

// Read-only per-warp state, by SM warp slot. A slot without a live warp answers false / 0 / -1.
class IWarpView {
 public:
  virtual ~IWarpView() = default;
  virtual unsigned num_slots() const = 0;
  virtual bool live(int slot) const = 0;
  virtual int cta_slot(int slot) const = 0;
  virtual Pc pc(int slot) const = 0;
  virtual bool at_barrier(int slot) const = 0;
  virtual unsigned ibuffer_count(int slot) const = 0;
  virtual unsigned outstanding_memory(int slot) const = 0;  // loads, stores and atomics
  // The issue stage found the warp's next instruction waiting (on the scoreboard, a fence, a
  // lock reply or room in the LD/ST queue) and skips it until a writeback or a memory response:
  // it cannot issue next cycle, whatever a policy orders.
  virtual bool issue_blocked(int slot) const = 0;
  virtual std::uint64_t issued(int slot) const = 0;         // instructions issued so far
  // Warps of CTA slot `c` waiting at a barrier, and the CTA's live warps.
  virtual unsigned cta_waiting(int c) const = 0;
  virtual unsigned cta_warps(int c) const = 0;
};

// One row a policy or shared unit reports for the JSON statistics, listed under
// `stats.gpu.records.<kind>` with the SM and kernel added (a DDOS branch, a delay-limit change):
// what a counter cannot say.
struct PolicyRecord {
  std::string kind;
  std::vector<std::pair<std::string, double>> fields;
};

// A run-wide summary of one kind of record (DDOS's detection rates over every SM's branch
// records), declared by the component that writes the records: `stats.gpu.KEY` in JSON and CSV
// when the run has such records, and a text-table row `KEY.NAME` for each value whose StatShow
// is not kHidden (whole values are integers in JSON). Listed in record_summaries().
struct SummaryValue {
  const char* name;
  double value;
  const char* description;
  StatShow show = StatShow::kHidden;
};
struct RecordSummary {
  const char* kind;  // the records summarized
  const char* key;
  std::vector<SummaryValue> (*summarize)(const std::vector<PolicyRecord>& records);
};
const std::vector<RecordSummary>& record_summaries();

// A unit shared by the policies of one SM (a SIB prediction table, a warp priority table).
class ISharedUnit {
 public:
  virtual ~ISharedUnit() = default;
  // The launch has ended on this SM at `now` (called once, before its statistics are read):
  // the unit closes what is open and writes its records.
  virtual void finish(Cycle now) { (void)now; }
};

// The SM's shared units, created on first use by name; every scheduler of the SM that asks for
// the same name gets the same object.
class SharedUnits {
 public:
  template <class T, class... Args>
  T& get(const std::string& name, Args&&... args) {
    auto it = units_.find(name);
    if (it == units_.end())
      it = units_.emplace(name, std::make_unique<T>(std::forward<Args>(args)...)).first;
    return static_cast<T&>(*it->second);
  }
  bool has(const std::string& name) const { return units_.count(name) != 0; }
  void finish(Cycle now) {
    for (auto& [name, u] : units_) u->finish(now);
  }

 private:
  std::map<std::string, std::unique_ptr<ISharedUnit>> units_;
};

struct PolicyContext {
  int sm = 0;
  int sched = 0;  // scheduler index in the SM (fetch policies: -1)
  unsigned num_schedulers = 1;
  const IWarpView* warps = nullptr;
  SharedUnits* shared = nullptr;
  sm::EventBus* events = nullptr;
  // The policy's declared statistics, in declaration order (increment only).
  std::uint64_t* counters = nullptr;
  // Where the policy and the shared units it creates append their records (the SM's list).
  std::vector<PolicyRecord>* records = nullptr;
  // Fetch policies: each scheduler's warp slots and its latest issue order (indices into
  // those slots), and the I-buffer capacity.
  const std::vector<std::vector<int>>* sched_slots = nullptr;
  const std::vector<std::vector<int>>* issue_orders = nullptr;
};

}  // namespace simtsync::sched
