// A stand-in for the memory hierarchy (until issue 4): every global access crosses a fixed
// latency and a shared bandwidth limit; atomics to one address serialize at an atomic unit.
// The functional effect of an access happens when it is serviced (half-way through the round
// trip: loads read, stores become visible, atomics apply in arrival order); the response
// returns after the other half.
#pragma once

#include <deque>
#include <functional>
#include <iterator>
#include <map>
#include <vector>

#include "common/stat_table.h"
#include "timing/mem/mem_request.h"

namespace simtsync::mem {

struct SimpleMemoryParams {
  unsigned latency = 400;         // round trip of a global load, core cycles
  unsigned atomic_latency = 400;  // round trip of an atomic (executed at L2)
  unsigned atomic_occupancy = 4;  // atomic-unit cycles per operation at one address
  double bytes_per_cycle = 64;    // shared bandwidth, bytes per core cycle
  unsigned queue_depth = 32;      // requests in flight per SM before try_send refuses
  unsigned line_bytes = 128;      // coalescing granularity
};

struct SimpleMemoryStats {
  std::uint64_t loads = 0, stores = 0, atomics = 0;
  std::uint64_t transactions = 0;
  std::uint64_t atomic_lane_ops = 0;
  std::uint64_t atomic_wait_cycles = 0;  // cycles atomics waited for their address
  std::uint64_t refused = 0;             // try_send refusals (back-pressure)
};

// The simple model's counters (stats.gpu.mem; the hierarchy has its own, stats.gpu.memory).
inline constexpr StatField<SimpleMemoryStats> kSimpleMemoryStatFields[] = {
    SIMTSYNC_STAT(SimpleMemoryStats, loads, "warp load requests at the memory side"),
    SIMTSYNC_STAT(SimpleMemoryStats, stores, "warp store requests at the memory side"),
    SIMTSYNC_STAT_SHOWN(SimpleMemoryStats, atomics,
                        "warp-level atomic requests at the memory side"),
    SIMTSYNC_STAT_SHOWN(SimpleMemoryStats, transactions, "coalesced memory transactions"),
    SIMTSYNC_STAT(SimpleMemoryStats, atomic_lane_ops, "lane operations of atomics"),
    SIMTSYNC_STAT_SHOWN(SimpleMemoryStats, atomic_wait_cycles,
                        "cycles atomics waited for their address's atomic unit"),
    SIMTSYNC_STAT_SHOWN(SimpleMemoryStats, refused, "requests refused by a full memory queue"),
};

class SimpleMemory final : public IMemPort {
 public:
  // `perform` applies a request's functional effect (Executor::perform for its warp).
  SimpleMemory(SimpleMemoryParams p, int num_sms, std::function<void(const MemRequest&)> perform);

  bool try_send(const MemRequest& r, Cycle now) override;
  void set_deferred(bool on) override { deferred_ = on; }
  void commit() override;
  bool pop_response(int sm, Cycle now, MemRequest& out) override;
  void tick(Cycle now) override;
  bool busy() const override;
  Cycle next_event() const override;
  SimpleMemoryStats stats() const;
  // Fills the request's transaction count and atomic serialization (its coalescing summary).
  void summarize(MemRequest& r);

 private:
  struct Pending {
    Cycle service;  // when its effect happens
    std::uint64_t seq;
    MemRequest req;
    bool operator>(const Pending& o) const {
      return service != o.service ? service > o.service : seq > o.seq;
    }
  };
  SimpleMemoryParams p_;
  std::function<void(const MemRequest&)> perform_;
  std::vector<Pending> heap_;  // min-heap on (service, seq)
  struct Response {
    Cycle due;
    std::uint64_t seq;
    MemRequest req;
    bool operator>(const Response& o) const { return due != o.due ? due > o.due : seq > o.seq; }
  };
  std::vector<std::vector<Response>> responses_;  // per SM, min-heap on (due, seq)
  Cycle earliest_response_ = kNever;
  std::map<Addr, Cycle> atomic_free_;  // address -> cycle its atomic unit is free
  double bw_free_ = 0;                 // cycle (fractional) the bandwidth is free
  std::uint64_t seq_ = 0;
  std::vector<unsigned> in_flight_;  // per SM
  std::vector<std::uint64_t> refused_;  // per SM
  // Accepted while deferred, entered by commit(): per SM, the request and its cycle.
  std::vector<std::vector<std::pair<MemRequest, Cycle>>> sent_;
  bool deferred_ = false;
  // Enters an accepted request: its coalescing summary, bandwidth, atomic unit and service.
  void enter(const MemRequest& req, Cycle now);
  SimpleMemoryStats stats_;
  std::vector<Addr> scratch_;
};

}  // namespace simtsync::mem
