// DDOS (seed 000 sec. IV): history registers, match logic, SIB-PT and the detection metrics.
// The readings of the seed are listed in ddos.h.
#include "timing/sched/ddos.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <string>

#include "common/check.h"
#include "func/program.h"

namespace simtsync::spin {
namespace {

std::uint64_t low_mask(unsigned bits) {
  return (std::uint64_t{1} << bits) - 1;
}

// XOR of the word's `bits`-wide chunks (the top chunk zero-padded).
std::uint32_t fold(std::uint64_t v, unsigned bits) {
  const std::uint64_t mask = low_mask(bits);
  std::uint64_t r = 0;
  for (; v != 0; v >>= bits) r ^= v & mask;
  return static_cast<std::uint32_t>(r);
}

double field(const sched::PolicyRecord& r, const char* name, double def) {
  for (const auto& [k, v] : r.fields)
    if (k == name) return v;
  return def;
}

}  // namespace

std::uint32_t ddos_path_hash(DdosHash h, unsigned bits, Pc pc) {
  if (h == DdosHash::kXor) return fold(pc, bits);
  return static_cast<std::uint32_t>((pc / kInstSize) & low_mask(bits));
}

std::uint32_t ddos_value_hash(DdosHash h, unsigned bits, std::uint64_t v) {
  if (h == DdosHash::kXor) return fold(v, bits);
  return static_cast<std::uint32_t>(v & low_mask(bits));
}

void declare_ddos(config::PluginDecl& d) {
  d.add_choice("ddos_hash", "xor", {"xor", "modulo"},
               "DDOS: hash of setp PCs and source operands in the history registers (xor: the word "
               "folded into m/k-bit chunks XORed together; modulo: its low m/k bits, PCs as "
               "instruction indices)",
               "seed 000 sec. IV-B, Table I (the evaluation uses xor)")
      .add_int("ddos_path_bits", 8, 1, 16,
               "DDOS: m, bits of one hashed setp PC in the path history register",
               "seed 000 Table I/III: m = 8")
      .add_int("ddos_value_bits", 8, 1, 16,
               "DDOS: k, bits of one hashed setp source operand in the value history register "
               "(two per entry)",
               "seed 000 Table I/III: k = 8")
      .add_int("ddos_length", 8, 1, 64,
               "DDOS: l, entries of the path and value history registers (a repetition is found "
               "up to l - 1 setps back)",
               "seed 000 Table I/III: l = 8")
      .add_int("ddos_threshold", 4, 1, 64,
               "DDOS: t, SIB-PT confidence at which a backward branch is confirmed as a "
               "spin-inducing branch",
               "seed 000 Table I/III: t = 4")
      .add_bool("ddos_time_sharing", false,
                "DDOS: one set of history registers per SM, used by one warp at a time (passed to "
                "the next live warp every ddos_epoch cycles)",
                "seed 000 Table I (off in the evaluation)")
      .add_int("ddos_epoch", 1000, 1, std::numeric_limits<std::int64_t>::max(),
               "DDOS: cycles one warp keeps the time-shared history registers (ddos_time_sharing)",
               "seed 000 Table I: 1000")
      .add_int("ddos_table_entries", 16, 1, 1024,
               "DDOS: entries of the per-SM spin-inducing branch prediction table (SIB-PT)",
               "seed 000 Table III: 16 entries (560 bits)");
  // In DdosStat order.
  d.stat("ddos_setp_updates", "ddos: setp instructions inserted into a warp's history registers")
      .stat("ddos_loop_detections",
            "ddos: repetitions found that fixed a match pointer (a loop detected)")
      .stat("ddos_spinning_entries", "ddos: warps entering the spinning state")
      .stat("ddos_spinning_exits",
            "ddos: warps leaving the spinning state on a path or value mismatch")
      .stat("ddos_spinning_branches", "ddos: backward branches executed by spinning warps")
      .stat("ddos_sib_pt_insertions", "ddos: branches inserted into the SIB-PT (confidence 1)")
      .stat("ddos_sib_pt_evictions",
            "ddos: SIB-PT entries replaced to make room (lowest confidence, least recently "
            "updated)")
      .stat("ddos_sib_confirmations",
            "ddos: SIB-PT confidences reaching the threshold (a branch confirmed as a SIB)")
      .stat("ddos_confidence_decrements",
            "ddos: SIB-PT confidences decremented by a branch taken by a non-spinning warp")
      .stat("ddos_time_share_switches",
            "ddos: times the time-shared history registers passed to another warp (the first "
            "owner included)");
}

unsigned ddos_stat_count() {
  return kDdosStatCount;
}

DdosParams ddos_params(const config::PluginParams& p) {
  DdosParams r;
  r.hash = p.get_string("ddos_hash") == "modulo" ? DdosHash::kModulo : DdosHash::kXor;
  r.path_bits = static_cast<unsigned>(p.get_int("ddos_path_bits"));
  r.value_bits = static_cast<unsigned>(p.get_int("ddos_value_bits"));
  r.length = static_cast<unsigned>(p.get_int("ddos_length"));
  r.threshold = static_cast<unsigned>(p.get_int("ddos_threshold"));
  r.time_sharing = p.get_bool("ddos_time_sharing");
  r.epoch = static_cast<std::uint64_t>(p.get_int("ddos_epoch"));
  r.table_entries = static_cast<unsigned>(p.get_int("ddos_table_entries"));
  return r;
}

Ddos::Ddos(const DdosParams& p, unsigned num_slots, std::uint64_t* counters,
           std::vector<sched::PolicyRecord>* records)
    : p_(p),
      conf_max_((1u << std::bit_width(p.threshold)) - 1),
      counters_(counters),
      records_(records),
      hist_(p.time_sharing ? 1 : num_slots),
      live_(num_slots, false),
      table_(p.table_entries) {
  SIMTSYNC_CHECK(p.path_bits >= 1 && p.path_bits <= 16);
  SIMTSYNC_CHECK(p.value_bits >= 1 && p.value_bits <= 16);
  SIMTSYNC_CHECK(p.length >= 1 && p.threshold >= 1 && p.threshold <= 64);
  SIMTSYNC_CHECK(p.table_entries >= 1 && p.epoch >= 1);
  for (History& h : hist_) h.ring.assign(p.length, 0);
}

void Ddos::clear(History& h) {
  h.head = h.count = h.match = h.remaining = 0;
  h.spinning = false;
}

bool Ddos::search(History& h, std::uint64_t entry) {
  const unsigned limit = std::min(h.count, p_.length - 1);
  const unsigned l = p_.length;
  for (unsigned d = 1; d <= limit; ++d) {
    if (h.ring[h.head >= d ? h.head - d : h.head + l - d] != entry) continue;
    h.match = d;
    h.remaining = d - 1;
    h.spinning = h.remaining == 0;
    count(kDdosLoopDetections);
    return true;
  }
  return false;
}

void Ddos::insert(History& h, std::uint64_t entry) {
  const bool was = h.spinning;
  const unsigned l = p_.length;
  if (h.match != 0) {
    const unsigned d = h.match;
    if (h.ring[h.head >= d ? h.head - d : h.head + l - d] == entry) {
      if (h.remaining > 0) --h.remaining;
      if (h.remaining == 0) h.spinning = true;
    } else {
      h.spinning = false;
      h.match = h.remaining = 0;
      search(h, entry);
    }
  } else {
    search(h, entry);
  }
  h.ring[h.head] = entry;
  h.head = h.head + 1 == l ? 0 : h.head + 1;
  h.count = std::min(h.count + 1, l);
  count(kDdosSetpUpdates);
  if (!was && h.spinning) count(kDdosSpinningEntries);
  if (was && !h.spinning) count(kDdosSpinningExits);
}

Ddos::History* Ddos::tracked(int slot) {
  if (p_.time_sharing) return slot == owner_ ? &hist_[0] : nullptr;
  return &hist_[static_cast<size_t>(slot)];
}

// The registers go to the next live slot after `from` (cyclically; `from` itself when it is the
// only live one), cleared when the owner changes.
void Ddos::pass_ownership(int from) {
  const int n = static_cast<int>(live_.size());
  int next = -1;
  for (int k = 1; k <= n && next < 0; ++k) {
    const int s = ((from < 0 ? -1 : from) + k) % n;
    if (live_[static_cast<size_t>(s)]) next = s;
  }
  if (next == owner_) return;
  owner_ = next;
  clear(hist_[0]);
  if (next >= 0) count(kDdosTimeShareSwitches);
}

void Ddos::rotate(Cycle now) {
  const std::uint64_t idx = now / p_.epoch;
  if (idx == epoch_index_) return;
  epoch_index_ = idx;
  pass_ownership(owner_);
}

void Ddos::on_issue(const sm::IssueEvent& e) {
  if (!e.setp && !(e.branch && e.backward)) return;
  if (p_.time_sharing) rotate(e.now);
  if (e.setp) {
    History* h = tracked(e.slot);
    if (!h) return;
    const std::uint64_t path = ddos_path_hash(p_.hash, p_.path_bits, e.pc);
    const std::uint64_t a = ddos_value_hash(p_.hash, p_.value_bits, e.setp_a);
    const std::uint64_t b = ddos_value_hash(p_.hash, p_.value_bits, e.setp_b);
    insert(*h, path | a << 16 | b << 32);
    return;
  }
  backward_branch(e);
}

Ddos::BranchInfo& Ddos::branch_info(const sm::IssueEvent& e) {
  if (last_branch_ < branches_.size() && branches_[last_branch_].pc == e.pc) {
    BranchInfo& b = branches_[last_branch_];
    b.last = e.now;
    return b;
  }
  auto it = std::lower_bound(branches_.begin(), branches_.end(), e.pc,
                             [](const BranchInfo& b, Pc pc) { return b.pc < pc; });
  if (it == branches_.end() || it->pc != e.pc) {
    BranchInfo b;
    b.pc = e.pc;
    b.annotated = e.inst != nullptr && e.inst->spin_mark;
    b.first = e.now;
    it = branches_.insert(it, b);
  }
  it->last = e.now;
  last_branch_ = static_cast<size_t>(it - branches_.begin());
  return *it;
}

Ddos::SibEntry* Ddos::find(Pc pc) {
  for (SibEntry& s : table_)
    if (s.valid && s.pc == pc) return &s;
  return nullptr;
}

const Ddos::SibEntry* Ddos::find(Pc pc) const {
  for (const SibEntry& s : table_)
    if (s.valid && s.pc == pc) return &s;
  return nullptr;
}

void Ddos::backward_branch(const sm::IssueEvent& e) {
  BranchInfo& b = branch_info(e);
  ++b.executed;
  b.taken += e.taken != 0 ? 1 : 0;
  const History* h = tracked(e.slot);
  if (!h) return;
  SibEntry* s = find(e.pc);
  if (h->spinning) {
    ++b.by_spinning;
    count(kDdosSpinningBranches);
    if (!s) {
      // A free entry, else the lowest confidence, least recently updated among equals.
      s = &table_[0];
      for (SibEntry& c : table_) {
        if (!c.valid) {
          s = &c;
          break;
        }
        if (c.confidence < s->confidence || (c.confidence == s->confidence && c.used < s->used))
          s = &c;
      }
      if (s->valid) count(kDdosSibPtEvictions);
      *s = SibEntry{e.pc, 0, 0, true};
      count(kDdosSibPtInsertions);
    }
    const unsigned before = s->confidence;
    s->confidence = std::min(before + 1, conf_max_);
    s->used = ++use_clock_;
    if (before < p_.threshold && s->confidence >= p_.threshold) {
      count(kDdosSibConfirmations);
      if (b.confirmed < 0) b.confirmed = static_cast<std::int64_t>(e.now);
    }
  } else if (e.taken != 0 && s) {
    // Entries hold a nonzero confidence; one decayed to 0 leaves the table.
    --s->confidence;
    s->used = ++use_clock_;
    if (s->confidence == 0) s->valid = false;
    count(kDdosConfidenceDecrements);
  }
}

void Ddos::on_warp_exit(const sm::WarpExitEvent& e) {
  live_[static_cast<size_t>(e.slot)] = false;
  if (!p_.time_sharing) {
    clear(hist_[static_cast<size_t>(e.slot)]);
  } else if (e.slot == owner_) {
    pass_ownership(e.slot);
  }
}

void Ddos::on_cta_launch(const sm::CtaEvent& e) {
  for (int s : e.slots) {
    live_[static_cast<size_t>(s)] = true;
    if (!p_.time_sharing) clear(hist_[static_cast<size_t>(s)]);
  }
  if (p_.time_sharing && owner_ < 0) {
    epoch_index_ = e.now / p_.epoch;
    pass_ownership(-1);
  }
}

bool Ddos::is_sib(Pc pc) const {
  const SibEntry* s = find(pc);
  return s && s->confidence >= p_.threshold;
}

unsigned Ddos::confidence(Pc pc) const {
  const SibEntry* s = find(pc);
  return s ? s->confidence : 0;
}

bool Ddos::spinning(int slot) const {
  if (p_.time_sharing) return slot == owner_ && hist_[0].spinning;
  return slot >= 0 && static_cast<size_t>(slot) < hist_.size() &&
         hist_[static_cast<size_t>(slot)].spinning;
}

void Ddos::finish(Cycle now) {
  (void)now;
  if (records_) {
    for (const BranchInfo& b : branches_) {
      records_->push_back({"ddos_branch",
                           {{"pc", static_cast<double>(b.pc)},
                            {"annotated", b.annotated ? 1.0 : 0.0},
                            {"first", static_cast<double>(b.first)},
                            {"confirmed", static_cast<double>(b.confirmed)},
                            {"last", static_cast<double>(b.last)},
                            {"executed", static_cast<double>(b.executed)},
                            {"taken", static_cast<double>(b.taken)},
                            {"by_spinning", static_cast<double>(b.by_spinning)}}});
    }
  }
  // What the next launch on this SM sees starts afresh in the records (the SIB-PT stays).
  branches_.clear();
  last_branch_ = 0;
}

DdosSummary summarize(const std::vector<sched::PolicyRecord>& records) {
  DdosSummary r;
  double dpr_true = 0, dpr_false = 0;
  for (const sched::PolicyRecord& rec : records) {
    if (rec.kind != "ddos_branch") continue;
    const bool annotated = field(rec, "annotated", 0) != 0;
    const double confirmed = field(rec, "confirmed", -1);
    const double first = field(rec, "first", 0), last = field(rec, "last", 0);
    (annotated ? r.sibs : r.non_sibs)++;
    if (confirmed < 0) continue;
    const double dpr = last > first ? (confirmed - first) / (last - first) : 0.0;
    if (annotated) {
      ++r.sibs_confirmed;
      dpr_true += dpr;
    } else {
      ++r.non_sibs_confirmed;
      dpr_false += dpr;
    }
  }
  if (r.sibs) r.tsdr = static_cast<double>(r.sibs_confirmed) / r.sibs;
  if (r.non_sibs) r.fsdr = static_cast<double>(r.non_sibs_confirmed) / r.non_sibs;
  if (r.sibs_confirmed) r.dpr_true = dpr_true / r.sibs_confirmed;
  if (r.non_sibs_confirmed) r.dpr_false = dpr_false / r.non_sibs_confirmed;
  return r;
}

std::vector<sched::SummaryValue> summary_values(const std::vector<sched::PolicyRecord>& records) {
  const DdosSummary d = summarize(records);
  return {
      {"tsdr", d.tsdr,
       "annotated spin-inducing branches DDOS confirmed (per SM and branch; seed 000 Table I)",
       StatShow::kFixed3},
      {"fsdr", d.fsdr, "other backward branches DDOS confirmed (seed 000 Table I)",
       StatShow::kFixed3},
      {"dpr_true", d.dpr_true,
       "detection phase ratio of the confirmed annotated branches, on average", StatShow::kFixed3},
      {"dpr_false", d.dpr_false, "detection phase ratio of the other confirmed branches"},
      {"sibs", static_cast<double>(d.sibs), "annotated (SM, branch) pairs", StatShow::kCount},
      {"sibs_confirmed", static_cast<double>(d.sibs_confirmed), "annotated pairs DDOS confirmed",
       StatShow::kCount},
      {"non_sibs", static_cast<double>(d.non_sibs), "other backward (SM, branch) pairs"},
      {"non_sibs_confirmed", static_cast<double>(d.non_sibs_confirmed),
       "other pairs DDOS confirmed"},
  };
}

}  // namespace simtsync::spin
