// Every key the GPU model reads. Defaults describe the GTX480 as GPGPU-Sim 3.x models it (the
// baseline of seeds 000 and 002); each default names its source.
#include <limits>

#include "config/schema.h"

namespace simtsync::config {
namespace {

constexpr std::int64_t kNoLimit = std::numeric_limits<std::int64_t>::max();
constexpr const char* kSeedGtx480 = "seed 000 Table II, seed 002 Table 1 (GTX480)";
constexpr const char* kFermiLat =
    "GPGPU-Sim 3.x SM2_GTX480 -ptx_opcode_latency_* (seeds are silent on latencies)";
constexpr const char* kFermiIi =
    "GPGPU-Sim 3.x SM2_GTX480 -ptx_opcode_initiation_* (seeds are silent)";

void add_gpu(Schema& s) {
  s.add_int("gpu.num_sms", 15, 1, 1024, "Streaming multiprocessors (SMs, 'cores')", kSeedGtx480)
      .add_float("gpu.core_clock_mhz", 700, 1, 10000,
                 "SM clock; simulated cycles count in this domain. GPGPU-Sim models Fermi at half "
                 "the 1401 MHz shader clock because a 32-lane warp issues per cycle",
                 "seed 000 Table II")
      .add_int("gpu.warp_size", 32, 1, 64, "Threads per warp", "seed 002 Table 1");
}

void add_sm_limits(Schema& s) {
  s.add_int("sm.max_threads", 1536, 1, 65536, "Resident threads per SM (occupancy limit)",
            kSeedGtx480)
      .add_int("sm.max_warps", 48, 1, 2048, "Resident warps per SM (occupancy limit)",
               "seed 002 Table 1")
      .add_int("sm.max_ctas", 8, 1, 1024, "Resident CTAs (thread blocks) per SM",
               "seed 002 Table 1")
      .add_int("sm.registers", 32768, 1, 1 << 24, "32-bit registers per SM", kSeedGtx480)
      .add_int("sm.register_granularity", 4, 1, 256,
               "Registers per thread are rounded up to a multiple of this for occupancy",
               "GPGPU-Sim 3.x shader_core_config::max_cta ((regs + 3) & ~3)")
      .add_int("sm.shared_memory_bytes", 49152, 0, 1 << 24,
               "Shared memory per SM available to CTAs (occupancy limit)", "seed 002 Table 1");
}

void add_sm_front_end(Schema& s) {
  s.add_int("sm.num_schedulers", 2, 1, 16,
            "Warp schedulers per SM; warps are split among them by warp id", kSeedGtx480)
      .add_int("sm.simd_width", 32, 1, 64,
               "Lanes of each SP/SFU/DP pipeline: a warp instruction occupies its unit for "
               "ii * ceil(warp_size / simd_width) cycles",
               "seed 002 Table 1 (SIMD width 32)")
      .add_int("sm.ibuffer_slots", 2, 1, 64, "Decoded-instruction buffer entries per warp",
               "GPGPU-Sim 3.x (2 I-buffer entries per warp), issue 3")
      .add_int("sm.fetch_width", 1, 1, 64, "Warps fetched from the I-cache per cycle",
               "GPGPU-Sim 3.x shader_core_ctx::fetch (one warp per cycle)")
      .add_int("sm.fetch_decode", 1, 1, 64,
               "Consecutive instructions of the fetched I-cache line decoded into the warp's "
               "free I-buffer entries per fetch (a control instruction ends the group)",
               "1: one per fetch (the model so far); GPGPU-Sim 3.x decodes 2 per fetch "
               "(shader_core_ctx::decode fills both I-buffer entries), see "
               "docs/results/baws_barrier")
      .add_bool("sm.fetch_empty_only", false,
                "A warp is fetched for only when its I-buffer is empty (false: whenever an "
                "entry is free)",
                "false: the model so far; seed 002 sec. 2.2 and GPGPU-Sim 3.x fetch only for "
                "warps with no valid I-buffer entry, see docs/results/baws_decode2")
      .add_bool("sm.fetch_past_control", false,
                "Decode past control instructions and keep fetching sequentially; when the "
                "warp's next PC differs (a taken branch, a reconvergence), its I-buffer entries "
                "are dropped only when the issue stage next looks at the warp (false: fetch "
                "stops at a control instruction and restarts at the resolved PC at once)",
                "false: the model so far; GPGPU-Sim 3.x decodes the instruction after a branch, "
                "sets the next fetch PC to the fall-through and flushes a stale I-buffer when "
                "the scheduler visits the warp, see docs/results/baws_frontend/"
                "gpgpusim_front_end.md");
}

void add_icache(Schema& s) {
  s.add_int("sm.icache.size_bytes", 2048, 64, 1 << 24, "Instruction cache capacity per SM",
            "seed 002 Table 1 (2KB, 4-way, 4 sets)")
      .add_int("sm.icache.line_bytes", 128, 8, 4096, "Instruction cache line size (power of two)",
               "GPGPU-Sim SM2_GTX480 -gpgpu_cache:il1 N:4:128:4")
      .add_int("sm.icache.assoc", 4, 1, 1024, "Instruction cache associativity (LRU)",
               "seed 002 Table 1")
      .add_int("sm.icache.hit_latency", 1, 0, 1000, "Cycles from fetch to I-buffer on a hit",
               "GPGPU-Sim 3.x (hit returns the next cycle)")
      .add_int(
          "sm.icache.miss_latency", 120, 0, 100000,
          "Cycles to fill a missing line with mem.model: simple (the hierarchy fills it from L2)",
          "estimate: GPGPU-Sim SM2_GTX480 -gpgpu_l2_rop_latency 120")
      .add_bool("sm.icache.perfect", false,
                "Every fetch hits: no I-cache misses, fill requests or fill stalls, under "
                "either mem.model (to isolate front-end effects)",
                "experiment switch")
      .add_bool("sm.icache.wait_for_fill", true,
                "A line that missed is usable only once its fill is back: other warps fetching "
                "it meanwhile wait for the same fill (false: the line is usable from the miss "
                "on, so only the warp that missed waits; the model before 2026-11-30, which "
                "recorded experiments pin)",
                "a cache line holds no instructions before its fill arrives (GPGPU-Sim 4.2 "
                "read_only_cache: an access to a line in the MSHR waits for it)");
}

void add_units(Schema& s) {
  s.add_int("sm.units.sp", 2, 1, 64, "SP (ALU/FPU) pipelines per SM", "seed 002 Table 1")
      .add_int("sm.units.sfu", 1, 1, 64, "SFU (transcendental) pipelines per SM",
               "seed 002 Table 1")
      .add_int("sm.units.ldst", 1, 1, 64, "LD/ST units per SM",
               "GPGPU-Sim SM2_GTX480 pipeline widths")
      .add_int("sm.units.dp", 0, 0, 64,
               "Double-precision pipelines per SM (0: DP instructions run on the SFU pipelines)",
               "GPGPU-Sim SM2_GTX480 -gpgpu_num_dp_units 0");
}

void add_latencies(Schema& s) {
  struct Row {
    const char* cls;
    std::int64_t lat, ii;
    const char* what;
  };
  // Latency: cycles from issue until dependants may issue. II: cycles before the unit accepts
  // another warp instruction (before the simd_width factor).
  const Row rows[] = {
      {"int", 4, 1, "integer add/logic/shift/compare/move"},
      {"imul", 5, 2, "integer multiply and multiply-add"},
      {"idiv", 145, 8, "integer divide and remainder"},
      {"fp", 4, 1, "single-precision add/mul/fma/compare/convert"},
      {"fp_div", 39, 4, "single-precision divide"},
      {"dp", 8, 8, "double-precision add/mul/fma"},
      {"sfu", 20, 4, "transcendentals (sin, cos, ex2, lg2, rsqrt, rcp, sqrt)"},
  };
  for (const Row& r : rows) {
    std::string sfu_src = "estimate: GPGPU-Sim SM6_GTX1080Ti -ptx_opcode_latency_sfu 20";
    bool sfu = std::string(r.cls) == "sfu";
    s.add_int(std::string("sm.latency.") + r.cls, r.lat, 1, 100000,
              std::string("Latency in cycles: ") + r.what, sfu ? sfu_src : kFermiLat);
  }
  for (const Row& r : rows) {
    bool sfu = std::string(r.cls) == "sfu";
    s.add_int(
        std::string("sm.ii.") + r.cls, r.ii, 1, 100000,
        std::string("Initiation interval in cycles: ") + r.what,
        sfu ? "Fermi whitepaper: 4 SFUs/SM, 8 shader clocks = 4 core cycles per warp" : kFermiIi);
  }
  s.add_int("sm.latency.ctrl", 4, 1, 100000,
            "Cycles until a branch resolves and fetch may continue past it",
            "estimate: branches use the integer pipeline in GPGPU-Sim")
      .add_int("sm.latency.ldst_issue", 4, 1, 100000,
               "Cycles in the LD/ST unit (address generation, coalescing) before the memory "
               "port sees the request",
               "estimate");
}

void add_memory(Schema& s) {
  s.add_int("sm.shared.latency", 26, 1, 100000, "Shared-memory access latency (no conflicts)",
            "GPGPU-Sim SM2_GTX480 -gpgpu_smem_latency 26")
      .add_int("sm.shared.banks", 32, 1, 256, "Shared-memory banks",
               "GPGPU-Sim SM2_GTX480 -gpgpu_shmem_num_banks 32")
      .add_int("sm.shared.bank_bytes", 4, 1, 64, "Width of one shared-memory bank",
               "Fermi whitepaper (32 banks x 4 bytes)")
      .add_int("sm.shared.lock_bits", 1024, 1, 1 << 20,
               "Lock bits of the shared-memory lock unit behind shared atomics (words alias one "
               "bit modulo this count)",
               "seed 001 sec. 3.2 (1024 lock bits on Fermi)")
      .add_choice("sm.scheduler_priority", "rotate", {"fixed", "rotate"},
                  "Which warp scheduler of an SM issues first each cycle (they share the LD/ST "
                  "queue and the unit pools): `rotate` the first changes every cycle (a fair "
                  "arbiter; GPGPU-Sim 4.2); `fixed` scheduler 0, then 1, ... (GPGPU-Sim 3.x, "
                  "which the seeds ran). With `fixed`, spinning warps of scheduler 0 can take "
                  "every LD/ST-queue entry and starve a lock holder of scheduler 1 "
                  "(workloads/tl_chan; full-grid ht at 16-64 buckets), and HT's GTO-LRR order "
                  "inverts (docs/timing-model.md)",
                  "GPGPU-Sim 4.2 shader.cc shader_core_ctx::issue() (fair round robin between "
                  "schedulers); the default was `fixed` until 2026-11-27")
      .add_choice("sm.shared.atomics", "native", {"native", "lock_loop"},
                  "How shared-memory atomics execute: `lock_loop` as Fermi's SASS does, a retry "
                  "loop of LDSLK / modify / STSUL / branch micro-operations that each take an "
                  "issue slot (the LDSLK and STSUL also the shared-memory unit), repeated until "
                  "every lane has taken its lock bit; `native` as one instruction whose lock-unit "
                  "rounds occupy the shared-memory unit (atomic units in the banks, Maxwell on)",
                  "seed 001 sec. 3.2 and Listing 1 (Fermi's atomicAdd on shared memory)")
      .add_choice("mem.model", "hierarchy", {"hierarchy", "simple"},
                  "Global-memory model: the cycle-level hierarchy (coalescer, L1, interconnect, L2 "
                  "slices with atomic units, DRAM) or the fixed-latency stand-in",
                  "issue 4")
      .add_int("mem.simple.latency", 400, 1, 1000000,
               "Global load round trip in core cycles (simple model)",
               "estimate: GPGPU-Sim GTX480 L1 35 + L2 ROP 120 + DRAM 100 + interconnect")
      .add_int("mem.simple.atomic_latency", 400, 1, 1000000,
               "Global atomic round trip in core cycles; atomics execute at L2 (simple model)",
               "estimate: about one load round trip")
      .add_int("mem.simple.atomic_occupancy", 4, 1, 100000,
               "Cycles the atomic unit spends on one operation to one address: operations to "
               "the same address serialize at this rate (simple model)",
               "estimate: a read-modify-write of one L2 line in a few L2 cycles")
      .add_float("mem.simple.bytes_per_cycle", 253, 0.001, 1e6,
                 "GPU-wide memory bandwidth in bytes per core cycle (simple model)",
                 "GTX480 177.4 GB/s (NVIDIA spec) / 700 MHz")
      .add_int("mem.simple.line_bytes", 128, 4, 4096,
               "Coalescing granularity: a warp access costs one request per distinct line",
               "GPGPU-Sim SM2_GTX480 L1 line 128 B")
      .add_int("mem.simple.queue_depth", 32, 1, 1 << 20,
               "Requests in flight per SM before the memory port refuses more",
               "GPGPU-Sim SM2_GTX480 L1 MSHRs (-gpgpu_cache:dl1 ...,S:64:8 -> estimate 32)");
}

constexpr const char* kGtx480Cfg = "GPGPU-Sim 3.x SM2_GTX480/gpgpusim.config";

void add_hierarchy(Schema& s, void (*add_mem_units)(Schema&)) {
  s.add_int("mem.requests_per_sm", 32, 1, 1 << 20,
            "Warp memory instructions in flight per SM before the port refuses more",
            "estimate (as many as L1 MSHRs)")
      .add_bool("mem.l1.enabled", true, "L1 data cache present (false: every access goes to L2)",
                "issue 4")
      .add_int("mem.l1.size_bytes", 16384, 128, 1 << 26, "L1 data cache capacity per SM",
               std::string(kGtx480Cfg) + " -gpgpu_cache:dl1 32:128:4 (16 KB)")
      .add_int("mem.l1.assoc", 4, 1, 1024, "L1 data cache ways (associativity)",
               std::string(kGtx480Cfg) + " dl1 32:128:4")
      .add_int("mem.l1.line_bytes", 128, 32, 4096, "L1 line (and coalescing) size",
               "CUDA C Programming Guide, compute capability 2.x: 128-byte L1 lines")
      .add_int("mem.l1.sector_bytes", 32, 4, 4096, "Sector (transfer granularity) of every cache",
               "CUDA C Programming Guide, compute capability 2.x: 32-byte L2 segments")
      .add_choice("mem.l1.set_index", "linear", {"linear", "fermi_hash"},
                  "How the L1 data cache picks a set: linear = line index modulo the sets; "
                  "fermi_hash = line-index bits 7-11 XOR address bits 13-15, 17, 19 (bit 12 on "
                  "top with 64 sets; needs 128-byte lines and 32 or 64 sets)",
                  "Nugteren et al., HPCA 2014 (Fermi's L1 hash); GPGPU-Sim SM2_GTX480 dl1 "
                  "N:32:128:4,L:L:m:N:H uses it")
      .add_int(
          "mem.l1.latency", 20, 1, 100000, "L1 hit latency, core cycles",
          "estimate (GPGPU-Sim 3.x has no separate L1 latency; see docs/memory-calibration.md)")
      .add_int("mem.l1.mshrs", 32, 1, 1 << 16, "L1 MSHR entries",
               std::string(kGtx480Cfg) + " dl1 ...,A:32:8")
      .add_int("mem.l1.mshr_merge", 8, 1, 1 << 16, "Requests one L1 MSHR entry can hold",
               std::string(kGtx480Cfg) + " dl1 ...,A:32:8")
      .add_int("mem.l1.miss_queue", 8, 1, 1 << 16, "L1 misses waiting for the interconnect",
               std::string(kGtx480Cfg) + " dl1 ...,8 (miss queue)")
      .add_bool("mem.l1.fill_whole_line", true, "An L1 miss fetches the whole 128-byte line",
                "Fermi L1 caches 128-byte lines (CUDA C Programming Guide, cc 2.x)")
      .add_choice("mem.l1.write_policy", "evict", {"evict", "through"},
                  "A global store: evict = the line leaves L1 and the store is visible at L2 "
                  "(Fermi); through = a store that hits every sector of a line with no fill in "
                  "flight keeps the line and is visible from the cycle L1 takes it, so this "
                  "SM's later hits read it; other stores as evict (no allocation on a write "
                  "miss)",
                  "Fermi's L1 is write-evict for global stores (CUDA C Programming Guide 4.2, "
                  "F.4.2); Volta's is write-through (Jia et al. 2018; GPGPU-Sim SM7_QV100 dl1 "
                  "L:T:m:L:L)")
      .add_choice("mem.l1.cacp", "auto", {"auto", "off", "on"},
                  "CAWA's criticality-aware cache prioritization (CACP) in the L1 data cache: "
                  "critical and non-critical way partitions, a critical cache block predictor "
                  "and a SHiP reuse predictor by signature, SRRIP within each partition "
                  "(docs/policies.md). auto = when the issue policy asks for it (cawa, and bows "
                  "over cawa); off = never (cawa is then gCAWS alone); on = always (criticality "
                  "comes only from a policy that publishes it: under any other every warp is "
                  "non-critical)",
                  "Lee, Arunkumar, Wu, ISCA 2015 (CAWA), sec. on CACP")
      .add_int("mem.l1.cacp_critical_ways", 0, 0, 1024,
               "CACP: ways of each L1 set in the critical partition (0: half the ways; at most "
               "the associativity)",
               "choice of this model: the GPGPU-Sim reimplementations of CACP split the ways in "
               "half; the paper's split could not be checked")
      .add_int("mem.l1.cacp_signature_bits", 8, 1, 16,
               "CACP: bits of a line's signature (the CCBP and SHiP tables have 2^bits 2-bit "
               "counters)",
               "the GPGPU-Sim reimplementations of CACP use the low 8 bits of PC and address; "
               "the paper's table size could not be checked")
      .add_choice("mem.l1.cacp_signature", "pc_line", {"pc_line", "pc"},
                  "CACP: a line's signature: pc_line = the loading instruction's index XOR the "
                  "line number; pc = the instruction's index only (SHiP-PC)",
                  "GPGPU-Sim reimplementations of CACP (PC XOR address); SHiP-PC, Wu et al., "
                  "MICRO 2011")
      .add_bool("mem.l1.cacp_bypass", false,
                "CACP: a fill predicted neither critical nor reused is not installed (false: "
                "it is inserted at the distant re-reference interval, the next victim)",
                "choice of this model (CACP inserts such lines at low priority)")
      .add_int("mem.const_cache.size_bytes", 8192, 128, 1 << 26, "Constant cache per SM",
               "seed 004 Table 6.1 (8KB); GPGPU-Sim SM2_GTX480 -gpgpu_const_cache:l1 64:64:2")
      .add_int("mem.const_cache.latency", 8, 1, 100000, "Constant-cache hit latency", "estimate")
      .add_choice("mem.const_cache.kernel_params", "cached", {"cached", "resident"},
                  "Kernel-parameter loads: cached = through the SM's constant cache, cold at "
                  "each launch (the first read misses to L2 and DRAM); resident = always at "
                  "mem.const_cache.latency, no traffic (the model before issue 44). With "
                  "mem.model = simple they are resident",
                  "Fermi and later keep kernel parameters in constant bank 0 (SASS reads them "
                  "as c[0x0][...] operands); GPGPU-Sim 3.x/4.2 serves param_space_kernel "
                  "through the constant cache")
      .add_bool("mem.const_cache.perfect", false,
                "Every constant-cache load hits (with sm.icache.perfect: GPGPU-Sim's "
                "-gpgpu_perfect_inst_const_cache)",
                "GPGPU-Sim -gpgpu_perfect_inst_const_cache (SM7_QV100 sets it)")
      .add_int("mem.icnt.latency", 8, 1, 100000,
               "Crossbar latency from the last flit leaving an input to arrival, icnt cycles",
               "estimate (GPGPU-Sim SM2_GTX480 booksim crossbar, a few router stages)")
      .add_int("mem.icnt.flit_bytes", 32, 4, 4096, "Flit size of the crossbar, bytes",
               "GPGPU-Sim SM2_GTX480 config_fermi_islip.icnt flit_size = 32")
      .add_int("mem.icnt.flits_per_cycle", 1, 1, 64, "Flits one port moves per icnt cycle",
               "GPGPU-Sim booksim (one flit per channel per cycle)")
      .add_int("mem.icnt.input_buffer", 8, 1, 1 << 16, "Packets an injection port buffers",
               "estimate (GPGPU-Sim booksim input_buffer_size 256 flits / 32 B per flit)")
      .add_int("mem.icnt.output_buffer", 8, 1, 1 << 16, "Packets an ejection port buffers",
               "estimate")
      .add_int("mem.icnt.header_bytes", 8, 1, 4096, "Address and control bytes of every packet",
               "GPGPU-Sim 3.x (8-byte read request)")
      .add_int("mem.partitions", 6, 1, 1024,
               "Memory partitions (DRAM channels), each with mem.l2.slices_per_partition L2 slices",
               std::string(kGtx480Cfg) + " -gpgpu_n_mem 6 (384-bit bus = 6 x 64 bit)")
      .add_int("mem.l2.slices_per_partition", 1, 1, 64,
               "L2 slices per memory partition, each with its own crossbar port and atomic unit, "
               "sharing the partition's DRAM channel (GPGPU-Sim's sub-partitions); a channel's "
               "interleave chunks go to its slices in turn",
               "estimate (one slice per channel); GPGPU-Sim -gpgpu_n_sub_partition_per_mchannel")
      .add_int("mem.partition_interleave", 256, 32, 1 << 20,
               "Bytes mapped to one partition before the next",
               "estimate (GPGPU-Sim chunked "
               "address mapping)")
      .add_int("mem.l2.size_bytes", 131072, 128, 1 << 30, "L2 slice capacity (per slice)",
               "NVIDIA GF100 whitepaper: 768 KB L2 / 6 partitions")
      .add_int("mem.l2.assoc", 8, 1, 1024, "L2 slice ways (associativity)",
               std::string(kGtx480Cfg) + " -gpgpu_cache:dl2 64:128:8")
      .add_int("mem.l2.line_bytes", 128, 32, 4096, "L2 line size (must equal the L1 line)",
               std::string(kGtx480Cfg) + " dl2 64:128:8")
      .add_int("mem.l2.latency", 120, 1, 100000, "L2 access-to-reply latency, L2 cycles",
               std::string(kGtx480Cfg) + " -gpgpu_l2_rop_latency 120")
      .add_int("mem.l2.mshrs", 32, 1, 1 << 16, "L2 MSHR entries per slice",
               std::string(kGtx480Cfg) + " dl2 ...,A:32:4")
      .add_int("mem.l2.mshr_merge", 4, 1, 1 << 16, "Requests one L2 MSHR entry can hold",
               std::string(kGtx480Cfg) + " dl2 ...,A:32:4")
      .add_choice("mem.l2.set_index", "slice", {"slice", "global"},
                  "Address an L2 slice indexes its sets with: slice = the address inside the "
                  "slice (channel and slice bits removed), global = the whole line address "
                  "(a slice then uses only the sets its fixed address bits select)",
                  "GPGPU-Sim 4.2 gpu-cache.cc l2_cache_config::set_index (indexes with "
                  "partition_address(), the partition bits removed, to avoid set camping)")
      .add_bool("mem.l2.keep_across_launches", true,
                "The L2's lines (valid and dirty) stay from one kernel launch to the next, as "
                "on hardware; false starts every launch with an empty L2 (simtsync before "
                "2026-11-29, which recorded experiments pin)",
                "GPGPU-Sim 4.2 -gpgpu_flush_l2_cache 0 in SM2_GTX480 and SM7_QV100 (the L2 is "
                "not flushed between kernels; the L1 is, -gpgpu_flush_l1_cache 1)")
      .add_int("mem.l2.input_queue", 8, 1, 1 << 16, "Packets waiting at a slice's input",
               "estimate (GPGPU-Sim -gpgpu_icnt_to_l2 queue 8)");
  // The memory-side units' keys (mem.atomic.*, mem.lock_queue.*, ...: mem_units.def).
  if (add_mem_units) add_mem_units(s);
  s.add_int("mem.dram.banks", 16, 1, 1024, "DRAM banks per channel",
            std::string(kGtx480Cfg) + " -gpgpu_dram_timing_opt nbk=16")
      .add_int("mem.dram.row_bytes", 2048, 64, 1 << 24, "Bytes of one row of one bank", "estimate")
      .add_int("mem.dram.t_cl", 12, 1, 1000, "CAS latency, DRAM cycles",
               "GPGPU-Sim SM2_GTX480 CL=12")
      .add_int("mem.dram.t_wl", 4, 1, 1000, "DRAM write latency (column to data), DRAM cycles",
               "GPGPU-Sim SM2_GTX480 WL=4")
      .add_int("mem.dram.t_rcd", 12, 1, 1000, "Activate to column", "GPGPU-Sim SM2_GTX480 RCD=12")
      .add_int("mem.dram.t_rp", 12, 1, 1000, "DRAM precharge time, DRAM cycles",
               "GPGPU-Sim SM2_GTX480 RP=12")
      .add_int("mem.dram.t_ras", 28, 1, 1000, "Activate to precharge",
               "GPGPU-Sim SM2_GTX480 RAS=28")
      .add_int("mem.dram.t_rc", 40, 1, 1000, "Activate to activate, same bank",
               "GPGPU-Sim SM2_GTX480 RC=40")
      .add_int("mem.dram.t_rrd", 6, 1, 1000, "Activate to activate, different banks",
               "GPGPU-Sim SM2_GTX480 RRD=6")
      .add_int("mem.dram.t_ccd", 2, 1, 1000, "Column to column", "GPGPU-Sim SM2_GTX480 CCD=2")
      .add_int("mem.dram.bus_bytes", 8, 1, 1024, "Bytes per data beat of one channel",
               "GPGPU-Sim SM2_GTX480 -gpgpu_dram_buswidth 4 x -gpgpu_n_mem_per_ctrlr 2")
      .add_int("mem.dram.data_rate", 4, 1, 16, "Data beats per DRAM clock (GDDR5: 4)",
               "GPGPU-Sim SM2_GTX480 -gpgpu_dram_data_command_freq_ratio 4")
      .add_int("mem.dram.burst_length", 8, 1, 64, "Beats per burst",
               "GPGPU-Sim SM2_GTX480 -gpgpu_dram_burst_length 8")
      .add_int("mem.dram.queue", 16, 1, 1 << 16, "Requests the DRAM scheduler chooses among",
               "GPGPU-Sim SM2_GTX480 -gpgpu_frfcfs_dram_sched_queue_size 16")
      .add_int("mem.dram.latency", 100, 0, 100000,
               "Memory controller and PHY pipeline added to every DRAM read, DRAM cycles",
               "GPGPU-Sim SM2_GTX480 -dram_latency 100")
      .add_choice("mem.dram.scheduler", "fr_fcfs", {"fr_fcfs", "fcfs"},
                  "DRAM request scheduling (FR-FCFS: row hits first)",
                  "GPGPU-Sim SM2_GTX480 -gpgpu_dram_scheduler 1 (FR-FCFS)")
      .add_float("clock.icnt_mhz", 700, 1, 100000, "Interconnect clock",
                 "GPGPU-Sim SM2_GTX480 -gpgpu_clock_domains 700:700:700:924")
      .add_float("clock.l2_mhz", 700, 1, 100000, "L2 and atomic-unit clock",
                 "GPGPU-Sim SM2_GTX480 -gpgpu_clock_domains 700:700:700:924")
      .add_float("clock.dram_mhz", 924, 1, 100000,
                 "DRAM command clock (GDDR5 data rate is 4x: 3696 MT/s, 177.4 GB/s over 384 bits)",
                 "GPGPU-Sim SM2_GTX480 -gpgpu_clock_domains; NVIDIA GTX480 spec");
}

void add_misc(Schema& s) {
  s.add_int("sim.host_memory_budget_mb", 0, 0, kNoLimit,
            "Host memory a simulation may use, MiB (0: three quarters of this machine's "
            "physical memory): a config whose caches, or a launch whose warps, registers and "
            "shared memory, are estimated to need more is refused (exit 2 naming the figure; "
            "cudaErrorMemoryAllocation from the CUDA runtime) instead of failing mid-run",
            "simtsync design choice (issue 45)");
  s.add_int("sim.functional_resident_warps", 16384, 0, kNoLimit,
            "Functional mode: warps resident at once, in whole CTAs (at least one); a completed "
            "CTA's room goes to the next in launch order, so resident CTAs, not the grid, set "
            "the memory. The default is more than any GPU holds (H100: 132 SMs x 64 warps = "
            "8,448), so CTAs that wait on each other behave as on hardware; 0: the whole grid",
            "simtsync design choice (issue 45); NVIDIA H100 whitepaper (64 warps per SM)");
  s.add_int("sim.analysis_budget", 32'000'000, 0, kNoLimit,
            "Entries (about 8 bytes each) the SIMT-deadlock analysis of one function may hold "
            "when decoding needs it (a unit with delayed reconvergence, or a watchdog report): "
            "a function past it is refused with exit 4 naming it instead of taking minutes and "
            "gigabytes (0: no limit; `simtsync analyze --analysis-budget` is the same budget)",
            "simtsync design choice (issue 46)");
  s.add_bool("stats.sync_status", false,
             "Count lock acquire attempts (success, intra-warp and inter-warp failure) and "
             "wait-exit attempts (success, failure) of the marked busy-wait loops; costs an event "
             "per issued instruction",
             "seed 000 Fig. 2 and 12")
      .add_bool(
          "stats.warp_phases", false,
          "Track warp-phases per SM (intervals between a CTA's barrier releases) and their RTRU "
          "and critical warps (seed 002 Eq. 1); costs an event per issued instruction",
          "seed 002 sec. 3")
      .add_int("compile.registers_per_thread", 0, 0, 255,
               "Registers per thread for occupancy (0: take the count from ptxas -v)", "issue 3")
      .add_int("watchdog.max_cycles", 10000000000, 0, kNoLimit,
               "Timing mode: stop with a suspected-livelock report at this cycle (0: no limit); "
               "the default stops a livelock that keeps writing new values, which the other "
               "checks take for progress",
               "issue 3; default from issue 45: 5x the longest run recorded (bows_tsp_paper, "
               "1.97e9 cycles), about 7 s of a 1.4 GHz GPU")
      .add_int("watchdog.no_completion_window", 50000000, 0, kNoLimit,
               "Cycles (timing mode) or rounds (functional mode: each running warp executes one "
               "instruction per round) without evidence "
               "of progress (no CTA completed, no warp exited, memory reached no state it had "
               "not held since) before a suspected-livelock report (0: off); a backstop for "
               "livelocks that keep changing memory, which the quiet-cycles check cannot see "
               "(docs/timing-model.md)",
               "estimate: contended default-size runs (ht with 64 buckets, tl_cg, am_cg) go "
               "beyond 5M cycles before their first CTA completes")
      .add_int("watchdog.starvation_window", 2000000, 0, kNoLimit,
               "Timing mode: cycles of a quiet epoch (see quiet_cycles) in which every running "
               "warp either repeats a state in a spin loop or does not advance at all before a "
               "suspected-livelock (starvation) report (0: off)",
               "issue 23: a starved lock holder under strict GTO; 10x quiet_cycles")
      .add_float("watchdog.progress_seconds", 30, 0, 1e9,
                 "Timing mode: wall-clock seconds between progress lines (cycle, KIPS, CTAs done) "
                 "on stderr when it is not a terminal (a terminal gets one line updated twice a "
                 "second); 0: no progress output",
                 "issue 23: batch jobs and sweeps see long runs advance")
      .add_int("watchdog.quiet_cycles", 200000, 0, INT64_MAX,
               "Timing mode: cycles without progress (no memory value change, warp exit or "
               "barrier release) before warps are checked for repeating states (livelock)",
               "simtsync design choice")
      .add_int("watchdog.quiet_steps", 1000000, 1, kNoLimit,
               "Functional mode: warp instructions without visible progress before the "
               "livelock check starts",
               "src/func/watchdog.h default")
      .add_int("watchdog.max_steps", 10000000000, 0, kNoLimit,
               "Hard limit on warp instructions, a suspected-livelock stop (0: none); the "
               "default stops a livelock that keeps writing new values in the functional mode",
               "issue 45: 13x the most warp instructions of a recorded run (bows_tsp_paper, "
               "7.5e8)")
      .add_int("watchdog.max_call_depth", 1024, 0, 1 << 20,
               "Calls in progress per thread before the kernel faults with a call stack "
               "overflow (exit 5); 0: no limit",
               "simtsync design choice (issue 45): CUDA's default per-thread stack "
               "(cudaLimitStackSize, 1 KiB) holds fewer frames than this");
}

}  // namespace

Schema build_gpu_schema(void (*add_families)(Schema&), void (*add_mem_units)(Schema&)) {
  Schema s;
  add_gpu(s);
  add_sm_limits(s);
  add_sm_front_end(s);
  if (add_families) add_families(s);
  add_icache(s);
  add_units(s);
  add_latencies(s);
  add_memory(s);
  add_hierarchy(s, add_mem_units);
  add_energy_keys(s);
  add_misc(s);
  return s;
}

}  // namespace simtsync::config
