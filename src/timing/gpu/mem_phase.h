// The parallel memory phase (issue 48): the launch's side of MemoryHierarchy's IMemPhase. Each
// memory partition performs its packets with its own shard (func::PerformShard: a view of global
// memory, counters per SM, the warps' CAS records in order); after the phase merge() adds the
// counters to the executors and replays the records in a serial tick's order (L2 cycle, then
// partition), so the launch is in the state a serial tick leaves.
#pragma once

#include <functional>
#include <shared_mutex>
#include <vector>

#include "func/executor.h"
#include "timing/gpu/phase_pool.h"
#include "timing/mem/memory_hierarchy.h"

namespace simtsync::gpu {

struct Launch;

class MemPhase final : public mem::IMemPhase {
 public:
  // `partitions`: the hierarchy's memory partitions (one shard each).
  MemPhase(Launch& l, PhasePool& pool, unsigned partitions);

  unsigned threads() const override { return pool_.threads(); }
  void run(const std::function<void(unsigned)>& f) override { pool_.run_parts(f); }
  std::uint64_t perform(unsigned part, std::uint64_t when, const mem::MemRequest& r,
                        std::uint64_t lanes) override;
  void count_first(const mem::MemRequest& r) override;
  void merge() override;

 private:
  struct alignas(64) Shard {
    explicit Shard(func::PerformShard s) : perf(std::move(s)) {}
    func::PerformShard perf;
    std::vector<func::PerformCounts> counts;  // per SM
    std::vector<unsigned> touched;            // SMs whose counts may be non-zero
  };
  Launch& l_;
  PhasePool& pool_;
  std::shared_mutex pages_;  // the shards' views share global memory's page table
  std::vector<Shard> shards_;
  std::vector<std::size_t> at_;  // merge(): scratch of for_each_in_tick_order
  std::vector<char> fold_;       // merge(): executors to fold
};

}  // namespace simtsync::gpu
