// DDOS, Dynamic Detection Of Spinning (seed 000 sec. IV): a per-SM unit that watches the SM's
// issued instructions, classifies each warp as spinning or not from the repetition of its `setp`
// instructions (path = hashed PC, value = hashed source operands), and learns which backward
// branches are spin-inducing (SIBs) in the SIB prediction table (SIB-PT). BOWS asks is_sib().
//
// The model as built (readings of the seed where its text leaves a choice):
// - Profiled thread: the first guarded lane of each setp (IssueEvent::setp_a/setp_b come from
//   it); for an unpredicated setp that is the first active thread, as the seed says.
// - History registers, per warp slot (or one set per SM with time sharing): l entries, each the
//   m-bit hashed setp PC and TWO k-bit hashed source operands (Table III: l x (m + 2k) bits).
//   The registers start empty: an entry is compared only with entries written since the warp
//   arrived (hardware would also keep a valid bit; zeros must not match a zero operand).
// - The registers hold l entries including the new one, so a repetition is found at distances
//   1..l-1 only: with l = 2 the two-setp busy-wait of Fig. 7a is never detected (Table I: l = 1,
//   2 give TSDR 0; "at least five entries" for loops of four setps).
// - Match logic (Fig. 7b): with no match pointer, the new entry (path AND value) is compared
//   with the earlier entries, nearest first; a match at distance d fixes the pointer at d with
//   remaining matches = d - 1 (0: spinning at once). With the pointer fixed, the new entry is
//   compared with the entry d back: equal -> remaining matches decrement, spinning when it
//   reaches 0 (and while later entries keep matching); unequal -> not spinning, the pointer is
//   released and the same entry searched for again. Fig. 7b: a match on the 3rd insertion
//   (d = 2, remaining 1), spinning after the 4th, lost on the value mismatch.
// - Hashing. XOR: the word folded into m-bit (k-bit) chunks XORed together (seed: PC[m-1:0] xor
//   PC[2m-1:m] ...; a partial top chunk is zero-padded). The PC is the byte address as the
//   decoder lays it out (8-byte instructions, functions on 256-byte boundaries); operands are
//   folded over all 64 bits of the register value, which for 32-bit values is the seed's 32-bit
//   fold. MODULO: the low bits; the path hash is (PC / kInstSize) mod 2^m. The seed subtracts
//   the kernel's start PC first; DDOS only compares hashes for equality and subtracting a
//   constant multiple of kInstSize maps PCs to the same equal/unequal pairs, so the absolute
//   PC is used (equal to the seed's value when the kernel starts at 0, as in Fig. 7).
// - SIB-PT (table_entries entries, shared by the SM's warps): a backward branch EXECUTED by a
//   warp in the spinning state (the seed's word; taken or not) is inserted with confidence 1 or
//   incremented; a nonzero confidence is decremented when the branch is TAKEN (some lane) by a
//   tracked warp classified as non-spinning. The confidence is a saturating counter of
//   bit_width(t) bits (t = 4: 3 bits; 16 x (32-bit PC + 3 bits) = 560 bits, the seed's SIB-PT
//   size). is_sib(pc): confidence >= t (a confirmed SIB whose confidence decays below t stops
//   being one). An entry whose confidence decays to 0 leaves the table. A full table replaces
//   the entry with the lowest confidence, the least recently updated among equals: a confirmed
//   SIB is kept as long as a less confident entry exists.
// - Time sharing: one set of history registers per SM, used by one warp (the owner) at a time;
//   the owner passes to the next live slot (in slot order, cyclically) when an event arrives in
//   a new epoch (now / epoch changed) or when the owner exits; the registers are cleared when
//   the owner changes. Other warps are not tracked: never spinning, and they neither insert nor
//   decrement SIB-PT entries (a warp not profiled is not "classified as non-spinning").
// - Instrumentation, not hardware: per backward branch PC seen on this SM (executed by any
//   warp): annotated (ExecInst::spin_mark), first and last execution cycle, first cycle
//   is_sib() became true (-1: never). finish() appends one "ddos_branch" PolicyRecord per PC,
//   in PC order.
#pragma once

#include <cstdint>
#include <vector>

#include "common/types.h"
#include "config/plugin.h"
#include "timing/sched/context.h"
#include "timing/sched/events.h"

namespace simtsync::spin {

enum class DdosHash { kXor, kModulo };

struct DdosParams {
  DdosHash hash = DdosHash::kXor;
  unsigned path_bits = 8;       // m
  unsigned value_bits = 8;      // k
  unsigned length = 8;          // l: entries of the path/value history registers
  unsigned threshold = 4;       // t: SIB-PT confidence that confirms a SIB
  bool time_sharing = false;    // one set of history registers per SM, time-shared among warps
  std::uint64_t epoch = 1000;   // time-sharing interval (cycles)
  unsigned table_entries = 16;  // SIB-PT capacity (Table III: 16 entries)
};

// Declares the ddos_* config keys (seed 000 Table I/III defaults) and DDOS's statistics on a
// warp-scheduler plug-in. The statistics come in the order of the DdosStat enumerators.
void declare_ddos(config::PluginDecl& d);
DdosParams ddos_params(const config::PluginParams& p);
unsigned ddos_stat_count();  // how many stats declare_ddos declares

// Indices into the counters DDOS is given (declare_ddos's order).
enum DdosStat : unsigned {
  kDdosSetpUpdates,
  kDdosLoopDetections,
  kDdosSpinningEntries,
  kDdosSpinningExits,
  kDdosSpinningBranches,
  kDdosSibPtInsertions,
  kDdosSibPtEvictions,
  kDdosSibConfirmations,
  kDdosConfidenceDecrements,
  kDdosTimeShareSwitches,
  kDdosStatCount
};

// The hashes (bits <= 16).
std::uint32_t ddos_path_hash(DdosHash h, unsigned bits, Pc pc);
std::uint32_t ddos_value_hash(DdosHash h, unsigned bits, std::uint64_t v);

class Ddos final : public sched::ISharedUnit, public sm::ISmObserver {
 public:
  // counters: DDOS's declared statistics (ddos_stat_count() of them; may be null);
  // records: where finish() appends one "ddos_branch" record per backward branch (may be null).
  // The owner subscribes the unit to the SM's EventBus before itself, so that on a backward
  // branch's issue event the SIB-PT is already updated when the owner asks is_sib().
  Ddos(const DdosParams& p, unsigned num_slots, std::uint64_t* counters,
       std::vector<sched::PolicyRecord>* records);

  void on_issue(const sm::IssueEvent& e) override;         // setp -> histories; backward -> SIB-PT
  void on_warp_exit(const sm::WarpExitEvent& e) override;  // clears the slot's histories
  void on_cta_launch(const sm::CtaEvent& e) override;      // fresh histories for new warps
  bool is_sib(Pc pc) const;       // the SIB-PT confirms pc (confidence >= threshold)
  bool spinning(int slot) const;  // the slot's profiled thread is classified as spinning
  void finish(Cycle now) override;

  // For tests and reports: the SIB-PT confidence of pc (0 when absent), and the slot owning the
  // history registers with time sharing (-1: none, or time sharing off).
  unsigned confidence(Pc pc) const;
  int time_share_owner() const { return owner_; }

 private:
  // One set of path/value history registers with its match logic.
  struct History {
    std::vector<std::uint64_t> ring;  // packed entries: path | a << 16 | b << 32
    unsigned head = 0;                // next write position
    unsigned count = 0;               // valid entries
    unsigned match = 0;               // match pointer: distance (0: none fixed)
    unsigned remaining = 0;           // remaining matches
    bool spinning = false;
  };
  struct SibEntry {
    Pc pc = 0;
    unsigned confidence = 0;
    std::uint64_t used = 0;  // update order, for replacement among equal confidences
    bool valid = false;
  };
  struct BranchInfo {
    Pc pc = 0;
    bool annotated = false;
    Cycle first = 0, last = 0;
    std::int64_t confirmed = -1;
    // Executions, those that some lane took, those by a warp DDOS classified as spinning.
    std::uint64_t executed = 0, taken = 0, by_spinning = 0;
  };

  void count(DdosStat s) {
    if (counters_) ++counters_[s];
  }
  void clear(History& h);
  void insert(History& h, std::uint64_t entry);
  bool search(History& h, std::uint64_t entry);
  History* tracked(int slot);
  void rotate(Cycle now);
  void pass_ownership(int from);
  void backward_branch(const sm::IssueEvent& e);
  BranchInfo& branch_info(const sm::IssueEvent& e);
  SibEntry* find(Pc pc);
  const SibEntry* find(Pc pc) const;

  DdosParams p_;
  unsigned conf_max_;
  std::uint64_t* counters_;
  std::vector<sched::PolicyRecord>* records_;
  std::vector<History> hist_;  // per slot; one with time sharing
  std::vector<bool> live_;
  int owner_ = -1;
  std::uint64_t epoch_index_ = 0;
  std::vector<SibEntry> table_;
  std::uint64_t use_clock_ = 0;
  std::vector<BranchInfo> branches_;  // sorted by pc
  size_t last_branch_ = 0;            // index of the last looked-up branch
};

// TSDR, FSDR and DPR of sec. IV-B from "ddos_branch" records (one run, all SMs; other kinds are
// ignored). Each record is one (SM, branch) pair. TSDR: confirmed annotated pairs / annotated
// pairs; FSDR: the same over non-annotated pairs; DPR of a confirmed pair: (confirmed - first) /
// (last - first) (0 when last == first), averaged over true (dpr_true) and false (dpr_false)
// detections. A rate or mean with nothing to average is 0; the counts say when.
struct DdosSummary {
  double tsdr = 0, fsdr = 0, dpr_true = 0, dpr_false = 0;
  unsigned sibs = 0, sibs_confirmed = 0, non_sibs = 0, non_sibs_confirmed = 0;
};
DdosSummary summarize(const std::vector<sched::PolicyRecord>& records);
// The same as the run's record summary `stats.gpu.ddos` (sched::record_summaries()).
std::vector<sched::SummaryValue> summary_values(const std::vector<sched::PolicyRecord>& records);

}  // namespace simtsync::spin
