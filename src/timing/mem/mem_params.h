// Parameters of the memory hierarchy, filled from the typed config (keys in parentheses; see
// src/config/gpu_schema.cc (descriptions, defaults) and configs/*.yaml for each GPU's values and
// sources).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "config/plugin.h"

namespace simtsync::mem {

class IMemUnit;
struct MemUnitContext;

struct CacheGeometry {
  unsigned bytes = 16384;  // capacity
  unsigned assoc = 4;      // ways per set
  unsigned line = 128;     // line size, bytes
  unsigned sector = 32;    // sector size, bytes (the fill and transfer granularity)
};

inline constexpr unsigned kConstCacheAssoc = 4;  // the constant cache's ways (not configurable)

// CAWA's criticality-aware cache prioritization in the L1 (mem.l1.cacp*, timing/mem/cacp.h).
struct CacpParams {
  enum class Mode : std::uint8_t { kAuto, kOff, kOn };
  Mode mode = Mode::kAuto;      // mem.l1.cacp: auto = when the issue policy asks (cawa)
  unsigned critical_ways = 0;   // mem.l1.cacp_critical_ways: 0 = half the ways
  unsigned signature_bits = 8;  // mem.l1.cacp_signature_bits: CCBP/SHiP table index bits
  bool signature_line = true;   // mem.l1.cacp_signature: pc_line (PC xor line) or pc
  bool bypass = false;          // mem.l1.cacp_bypass: no-reuse non-critical fills not installed
};

struct L1Params {                // mem.l1.* (one per SM)
  bool enabled = true;           // mem.l1.enabled: false = every global access bypasses L1
  CacheGeometry geo;             // mem.l1.{bytes,assoc,line,sector}
  unsigned latency = 18;         // mem.l1.latency: hit latency, core cycles
  unsigned mshrs = 32;           // mem.l1.mshrs
  unsigned mshr_merge = 8;       // mem.l1.mshr_merge: requests one MSHR entry can hold
  unsigned miss_queue = 8;       // mem.l1.miss_queue: misses waiting to enter the interconnect
  bool fill_whole_line = true;   // mem.l1.fill_whole_line: a miss fetches every sector
  bool write_through = false;    // mem.l1.write_policy: through (a write hit keeps the line)
  bool fermi_hash_sets = false;  // mem.l1.set_index: fermi_hash (else linear)
  unsigned const_bytes = 8192;   // mem.const_cache.bytes (per SM)
  unsigned const_latency = 8;    // mem.const_cache.latency
  bool const_perfect = false;    // mem.const_cache.perfect: every constant load hits
  bool perfect = false;          // this cache: every load hits (the constant cache's copy)
  CacpParams cacp;
};

struct IcntParams {              // mem.icnt.*
  unsigned latency = 8;          // mem.icnt.latency: router-to-router, icnt cycles
  unsigned flit_bytes = 32;      // mem.icnt.flit_bytes
  unsigned flits_per_cycle = 1;  // mem.icnt.flits_per_cycle: per port
  unsigned input_buffer = 8;     // mem.icnt.input_buffer: packets per injection port
  unsigned output_buffer = 8;    // mem.icnt.output_buffer: packets per ejection port
  unsigned header_bytes = 8;     // mem.icnt.header_bytes: address/control part of a packet
};

struct L2Params {  // mem.l2.* (mem.l2.slices_per_partition slices per memory partition)
  CacheGeometry geo{131072, 16, 128, 32};
  unsigned latency = 100;    // mem.l2.latency: access-to-reply, L2 cycles
  unsigned mshrs = 32;       // mem.l2.mshrs
  unsigned mshr_merge = 8;   // mem.l2.mshr_merge
  unsigned input_queue = 8;  // mem.l2.input_queue: packets from the interconnect
  // mem.l2.set_index: false (`slice`) indexes the sets with the address inside the slice, the
  // partition and slice bits removed; true (`global`) with the whole line address, so a slice
  // uses only the sets its addresses' fixed bits select (set camping).
  bool global_set_index = false;
  // mem.l2.keep_across_launches: the next launch starts with this launch's L2 tags.
  bool keep_across_launches = true;
};

struct AtomicParams {                  // mem.atomic.* (one unit per L2 slice)
  unsigned queue = 16;                 // mem.atomic.queue: packets waiting for the unit
  unsigned ops_per_cycle = 1;          // mem.atomic.ops_per_cycle: lane operations per L2 cycle
  unsigned same_address_interval = 8;  // mem.atomic.same_address_interval: L2 cycles between
                                       // two operations on one address (read-modify-write)
  unsigned latency = 20;               // mem.atomic.latency: unit pipeline, L2 cycles
  unsigned l2_access = 0;              // mem.atomic.l2_access: the slice's access latency
                                       // (mem.l2.latency) a reply also waits, as a load's does
  unsigned line_bytes = 128;           // mem.l2.line_bytes and mem.l1.sector_bytes: the geometry of
  unsigned sector_bytes = 32;          // lock-queue record accesses (bounded: through the L2 slice)
};

// Lock queuing in the memory partitions (lock_queue.h, seed 004 sec. 5.2).
enum class LockQueueMode : std::uint8_t { kOff, kIdeal, kBounded };

struct LockQueueParams {  // mem.lock_queue.*
  LockQueueMode mode = LockQueueMode::kOff;
  unsigned queues = 64;        // bounded: queues per partition
  unsigned records = 32;       // bounded: records per queue
  unsigned backoff = 100;      // bounded: L2 cycles before a turned-away request's reply
};

struct DramParams {  // mem.dram.* (one channel per memory partition, shared by its L2 slices)
  unsigned banks = 16;
  unsigned row_bytes = 2048;  // bytes of one row of one bank (the page)
  unsigned tCL = 12, tWL = 4, tRCD = 12, tRP = 12, tRAS = 28, tRC = 40, tRRD = 6, tCCD = 2;
  unsigned bus_bytes = 8;     // bytes per data beat of the channel
  unsigned data_rate = 4;     // data beats per DRAM clock (2: DDR, 4: GDDR5)
  unsigned burst_length = 8;  // beats per burst
  unsigned queue = 32;        // mem.dram.queue: requests the scheduler can choose among
  unsigned latency = 100;     // mem.dram.latency: controller and PHY pipeline, DRAM cycles
  bool fr_fcfs = true;        // mem.dram.scheduler: fr_fcfs | fcfs
};

struct AddressMapParams {  // mem.partitions, mem.l2.slices_per_partition, mem.partition_interleave
  unsigned partitions = 6;
  unsigned slices_per_partition = 1;  // L2 slices sharing one channel
  unsigned interleave = 256;          // bytes mapped to one partition before the next
};

struct ClockParams {  // clock.*_mhz
  double core_mhz = 700, icnt_mhz = 700, l2_mhz = 700, dram_mhz = 924;
};

struct SharedMemParams {  // sm.shared.* (per SM)
  unsigned banks = 32;
  unsigned bank_bytes = 4;
  unsigned latency = 24;      // core cycles from issue to data
  unsigned lock_bits = 1024;  // lock unit of shared-memory atomics (seed 001 sec. 3.2)
};

// A memory-side unit the config selects (i_mem_unit.h, mem_units.def): its row and its keys.
struct MemUnitChoice {
  std::string name;
  std::unique_ptr<IMemUnit> (*make)(const MemUnitContext&, const config::PluginParams&) = nullptr;
  config::PluginParams params;
};

struct HierarchyParams {
  unsigned num_sms = 15;
  L1Params l1;
  IcntParams icnt;
  L2Params l2;
  DramParams dram;
  AddressMapParams map;
  ClockParams clock;
  unsigned request_slots = 64;  // mem.requests_per_sm: warp requests in flight per SM
  // Memory-side units (mem.atomic.*, mem.lock_queue.*, ...), in mem_units.def's order; empty:
  // every row with its declared defaults (unit tests).
  std::vector<MemUnitChoice> units;
};

}  // namespace simtsync::mem
