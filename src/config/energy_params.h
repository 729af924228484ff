// Coefficients of the energy model (config keys energy.*): an energy per counted event and a
// power per component that is drawn whether or not events happen. Every value comes from the
// config, with its source beside it (configs/*.yaml, docs/energy.md).
#pragma once

namespace simtsync::energy {

struct EnergyParams {
  // SM, per active lane of an issued instruction (pJ): the datapath of its op class.
  double int_pj = 0;   // energy.sm.int_pj: integer add, logic, shift, compare, move
  double imul_pj = 0;  // energy.sm.imul_pj: integer multiply, multiply-add, divide
  double fp32_pj = 0;  // energy.sm.fp32_pj: single-precision add, multiply, FMA, divide
  double fp64_pj = 0;  // energy.sm.fp64_pj: double precision
  double sfu_pj = 0;   // energy.sm.sfu_pj: transcendental (SFU)
  double lane_pj = 0;  // energy.sm.lane_pj: operand delivery and pipeline latches, every op
  // SM, per warp event (pJ).
  double inst_pj = 0;     // energy.sm.inst_pj: I-buffer read, decode, scoreboard, dispatch
  double branch_pj = 0;   // energy.sm.branch_pj: a control instruction (branch unit, SIMT stack)
  double ldst_pj = 0;     // energy.sm.ldst_pj: a memory instruction (address generation, coalescer)
  double rf_read_pj = 0;  // energy.sm.rf_read_pj: one register read for a whole warp
  double rf_write_pj = 0;     // energy.sm.rf_write_pj: one register written for a whole warp
  double icache_pj = 0;       // energy.sm.icache_pj: an I-cache lookup
  double icache_fill_pj = 0;  // energy.sm.icache_fill_pj: an I-cache miss (line written)
  double ibuffer_pj = 0;      // energy.sm.ibuffer_pj: an instruction written into an I-buffer
  double sched_pj = 0;        // energy.sm.sched_pj: a scheduler-cycle with live warps (selection)
  double shared_pj = 0;       // energy.sm.shared_pj: a pass over the shared-memory banks
  double l1_pj = 0;           // energy.sm.l1_pj: an L1 data-cache lookup (tag + data)
  double l1_fill_pj = 0;      // energy.sm.l1_fill_pj: an L1 miss (line or sector written)
  double const_pj = 0;        // energy.sm.const_pj: a constant-cache lookup
  double const_fill_pj = 0;   // energy.sm.const_fill_pj: a constant-cache miss
  // Memory side (pJ).
  double flit_pj = 0;     // energy.mem.flit_pj: one flit through the crossbar, either direction
  double l2_pj = 0;       // energy.mem.l2_pj: an L2 lookup or write-back (tag + data)
  double l2_fill_pj = 0;  // energy.mem.l2_fill_pj: an L2 miss (line or sector written)
  double atomic_pj = 0;   // energy.mem.atomic_pj: one lane operation of the L2 atomic unit
  double dram_activate_pj = 0;        // energy.mem.dram_activate_pj: a row activation
  double dram_precharge_pj = 0;       // energy.mem.dram_precharge_pj: a row precharge
  double dram_read_pj_per_byte = 0;   // energy.mem.dram_read_pj_per_byte: column read + I/O
  double dram_write_pj_per_byte = 0;  // energy.mem.dram_write_pj_per_byte: column write + I/O
  // Power drawn per unit of time (W).
  double sm_active_w = 0;  // energy.static.sm_active_w: an SM with a CTA resident
  double sm_idle_w = 0;    // energy.static.sm_idle_w: an SM with none
  double uncore_w = 0;     // energy.static.uncore_w: L2, crossbar, memory controllers
  double dram_w = 0;       // energy.static.dram_w: DRAM devices' background and refresh
  double constant_w = 0;   // energy.static.constant_w: the board (fan, regulators, I/O)
};

}  // namespace simtsync::energy
