#include "stats/timing_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "stats/declared.h"
#include "stats/energy_report.h"
#include "timing/mem/mem_unit_registry.h"
#include "timing/sched/ddos.h"

namespace simtsync::stats {
namespace {


sm::SchedStats sum_sched(const gpu::TimingTotals& t) {
  sm::SchedStats s;
  for (const auto& x : t.sm)
    for (const auto& y : x.sched) accumulate<sm::SchedStats>(s, y, sm::kSchedStatFields);
  return s;
}

// The policies' declared counters summed over schedulers and SMs.
std::vector<std::uint64_t> sum_policy(const gpu::TimingTotals& t,
                                      const std::vector<config::StatDecl>& decl) {
  std::vector<std::uint64_t> v(decl.size(), 0);
  for (const auto& x : t.sm)
    for (const auto& y : x.sched) config::accumulate(v, y.policy, decl);
  return v;
}

std::vector<std::uint64_t> sum_fetch(const gpu::TimingTotals& t,
                                     const std::vector<config::StatDecl>& decl) {
  std::vector<std::uint64_t> v(decl.size(), 0);
  for (const auto& x : t.sm) config::accumulate(v, x.fetch_policy, decl);
  return v;
}

void flatten(const nlohmann::json& j, const std::string& prefix, std::string& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      if (it.key() != "records")  // policy records are lists of rows: JSON only
        flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) flatten(j[i], fmt::format("{}[{}]", prefix, i), out);
  } else {
    out += prefix + "," + j.dump() + "\n";
  }
}

}  // namespace

nlohmann::json timing_stats_json(const gpu::TimingTotals& t, unsigned warp_size) {
  nlohmann::json g;
  std::uint64_t warp_instr = 0, thread_instr = 0;
  for (const auto& s : t.sm)
    warp_instr += s.warp_instructions, thread_instr += s.thread_instructions;
  g["cycles"] = t.cycles;
  g["kernels"] = t.kernels;
  g["ctas"] = t.ctas;
  g["warp_instructions"] = warp_instr;
  g["thread_instructions"] = thread_instr;
  g["ipc"] = t.cycles ? static_cast<double>(warp_instr) / static_cast<double>(t.cycles) : 0.0;
  g["thread_ipc"] =
      t.cycles ? static_cast<double>(thread_instr) / static_cast<double>(t.cycles) : 0.0;
  g["simd_efficiency"] =
      warp_instr ? static_cast<double>(thread_instr) / (static_cast<double>(warp_instr) * warp_size)
                 : 0.0;
  g["registers_per_thread"] = t.last_resources.registers;
  g["registers_source"] = t.last_resources.source;
  g["occupancy_ctas_per_sm"] = t.last_occupancy_ctas;
  g["warps_per_cta"] = t.last_warps_per_cta;
  const sm::SchedStats all = sum_sched(t);
  nlohmann::json stall;
  for (int k = 0; k < static_cast<int>(sm::StallKind::kCount); ++k)
    stall[sm::kStallNames[k]] = all.cycles[k];
  g["scheduler_cycles"] = stall;
  // Issue and fetch policies: their names and declared counters (summed over SMs).
  g["policy"]["issue"] = t.issue_policy;
  g["policy"]["fetch"] = t.fetch_policy;
  g["policy"]["issue_stats"] = plugin_json(t.issue_stats, sum_policy(t, t.issue_stats));
  g["policy"]["fetch_stats"] = plugin_json(t.fetch_stats, sum_fetch(t, t.fetch_stats));
  nlohmann::json sms = nlohmann::json::array();
  for (size_t i = 0; i < t.sm.size(); ++i) {
    const auto& s = t.sm[i];
    nlohmann::json j = to_json<sm::SmStats>(s, sm::kSmStatFields);
    j["icache"] = to_json<sm::ICacheStats>(t.icache[i], sm::kICacheStatFields);
    nlohmann::json sched = nlohmann::json::array();
    for (const auto& sc : s.sched) {
      nlohmann::json x = to_json<sm::SchedStats>(sc, sm::kSchedStatFields);
      if (!t.issue_stats.empty()) x["policy"] = plugin_json(t.issue_stats, sc.policy);
      sched.push_back(x);
    }
    j["sched"] = sched;
    sms.push_back(j);
  }
  g["sm"] = sms;
  // Every SM counter summed over the SMs, by its declaration (sm_total).
  sm::SmStats total;
  for (const auto& s : t.sm) accumulate<sm::SmStats>(total, s, sm::kSmStatFields);
  g["sm_total"] = to_json<sm::SmStats>(total, sm::kSmStatFields);
  // Likewise the schedulers' counters (sched_total) and the I-caches' (icache_total).
  g["sched_total"] = to_json<sm::SchedStats>(all, sm::kSchedStatFields);
  sm::ICacheStats ic;
  for (const auto& c : t.icache) accumulate<sm::ICacheStats>(ic, c, sm::kICacheStatFields);
  g["icache_total"] = to_json<sm::ICacheStats>(ic, sm::kICacheStatFields);
  nlohmann::json kernels = nlohmann::json::array();
  for (const auto& k : t.launches) {
    nlohmann::json j;
    j["kernel"] = k.kernel;
    j["cycles"] = k.cycles;
    j["ctas"] = k.ctas;
    j["completed"] = k.completed;
    j["occupancy_ctas_per_sm"] = k.occupancy_ctas_per_sm;
    j["warps_per_cta"] = k.warps_per_cta;
    j["registers_per_thread"] = k.registers_per_thread;
    j["warp_instructions"] = k.warp_instructions;
    j["thread_instructions"] = k.thread_instructions;
    j["ipc"] =
        k.cycles ? static_cast<double>(k.warp_instructions) / static_cast<double>(k.cycles) : 0.0;
    for (int s = 0; s < static_cast<int>(sm::StallKind::kCount); ++s)
      j["scheduler_cycles"][sm::kStallNames[s]] = k.scheduler_cycles[s];
    kernels.push_back(j);
  }
  g["kernels"] = kernels;
  {
    // Warp-phases (stats.warp_phases, seed 002 sec. 3): RTRU (Eq. 1) averaged over every
    // phase, exit phases included; the warp-cycles lost waiting for a phase's critical warp as
    // a share of the warp-cycles of every phase (barrier_wait_fraction: seed 002's
    // barrier-intensity measure, exit points included, as in its Fig. 1); how often the
    // critical warp changes from one phase of a CTA to the next (Fig. 6).
    const sm::SmStats& w = total;
    auto ratio = [](std::uint64_t a, std::uint64_t b) {
      return b ? static_cast<double>(a) / static_cast<double>(b) : 0.0;
    };
    if (w.warp_phases > 0)
      g["warp_phases"] = {
          {"phases", w.warp_phases},
          {"exit_phases", w.exit_phases},
          {"mean_rtru", ratio(w.rtru_ppm_sum, w.warp_phases) / 1e6},
          {"max_rtru", static_cast<double>(w.rtru_ppm_max) / 1e6},
          {"barrier_wait_cycles", w.barrier_wait_cycles},
          {"exit_wait_cycles", w.exit_wait_cycles},
          {"phase_warp_cycles", w.phase_warp_cycles},
          {"barrier_wait_fraction",
           ratio(w.barrier_wait_cycles + w.exit_wait_cycles, w.phase_warp_cycles)},
          {"barrier_only_wait_fraction", ratio(w.barrier_wait_cycles, w.phase_warp_cycles)},
          {"critical_change_rate", ratio(w.critical_changes, w.critical_pairs)}};
  }
  {
    // Synchronization status (stats.sync_status, seed 000 Fig. 2): attempts per lane.
    const std::uint64_t ls = total.sync_lock_success, lfa = total.sync_lock_fail_intra,
                        lfe = total.sync_lock_fail_inter, ws = total.sync_wait_success,
                        wf = total.sync_wait_fail;
    auto share = [](std::uint64_t a, std::uint64_t b) {
      return b ? static_cast<double>(a) / static_cast<double>(b) : 0.0;
    };
    if (ls + lfa + lfe + ws + wf > 0)
      g["sync_status"] = {{"lock_attempts", ls + lfa + lfe},
                          {"lock_success", ls},
                          {"lock_fail_intra_warp", lfa},
                          {"lock_fail_inter_warp", lfe},
                          {"lock_fail_rate", share(lfa + lfe, ls + lfa + lfe)},
                          {"wait_attempts", ws + wf},
                          {"wait_success", ws},
                          {"wait_fail", wf},
                          {"wait_fail_rate", share(wf, ws + wf)}};
  }
  if (!t.records.empty()) {
    // Policy records (sched::PolicyRecord): one list per kind, each row tagged with its kernel,
    // launch and SM. Whole numbers print as integers.
    nlohmann::json r = nlohmann::json::object();
    for (const auto& tr : t.records) {
      nlohmann::json row = {{"kernel", tr.kernel}, {"launch", tr.launch}, {"sm", tr.sm}};
      for (const auto& [k, v] : tr.rec.fields) {
        if (v == std::floor(v) && std::fabs(v) < 9e15)
          row[k] = static_cast<std::int64_t>(v);
        else
          row[k] = v;
      }
      r[tr.rec.kind].push_back(std::move(row));
    }
    g["records"] = std::move(r);
    // DDOS's detection against the annotated ground truth (seed 000 sec. IV-B): each
    // (launch, SM, backward branch) is one pair.
    std::vector<sched::PolicyRecord> branches;
    for (const auto& tr : t.records)
      if (tr.rec.kind == "ddos_branch") branches.push_back(tr.rec);
    if (!branches.empty()) {
      const spin::DdosSummary d = spin::summarize(branches);
      g["ddos"] = {{"tsdr", d.tsdr},         {"fsdr", d.fsdr},
                   {"dpr_true", d.dpr_true}, {"dpr_false", d.dpr_false},
                   {"sibs", d.sibs},         {"sibs_confirmed", d.sibs_confirmed},
                   {"non_sibs", d.non_sibs}, {"non_sibs_confirmed", d.non_sibs_confirmed}};
    }
  }
  g["mem"] = to_json<mem::SimpleMemoryStats>(t.mem, mem::kMemSummaryFields);
  g["shared"] = to_json<mem::SharedStats>(t.shared, mem::kSharedStatFields);
  if (t.has_hierarchy) g["memory"] = hierarchy_json(t.hier);
  g["energy"] = energy_json(t);
  return g;
}

nlohmann::json hierarchy_json(const mem::HierarchyStats& h) {
  // Every counter and derived value from the components' declared tables.
  nlohmann::json j =
      to_json<mem::HierarchyStats>(h, mem::kHierarchyStatFields, mem::kHierarchyDerived);
  j["l1"] = to_json<mem::CacheStats>(h.l1, mem::kCacheStatFields, mem::kCacheDerived);
  j["const_cache"] =
      to_json<mem::CacheStats>(h.const_cache, mem::kCacheStatFields, mem::kCacheDerived);
  j["l2"] = to_json<mem::CacheStats>(h.l2, mem::kCacheStatFields, mem::kCacheDerived);
  // The memory-side units placed, each with its declared counters and ratios (mem_units.def).
  for (const auto& u : h.units)
    j[u.name] = plugin_json(mem::mem_unit_stats(u.name), mem::mem_unit_ratios(u.name), u.values);
  j["dram"] = to_json<mem::DramStats>(h.dram, mem::kDramStatFields, mem::kDramDerived);
  j["icnt_request"] =
      to_json<mem::IcntStats>(h.icnt_request, mem::kIcntStatFields, mem::kIcntDerived);
  j["icnt_reply"] = to_json<mem::IcntStats>(h.icnt_reply, mem::kIcntStatFields, mem::kIcntDerived);
  return j;
}

std::string timing_stats_table(const gpu::TimingTotals& t, unsigned warp_size) {
  const nlohmann::json g = timing_stats_json(t, warp_size);
  std::string out;
  auto row = [&](const std::string& name, const std::string& v, const std::string& desc) {
    out += fmt::format("  {:<22} {:>16}  {}\n", name, v, desc);
  };
  row("cycles", fmt::format("{}", t.cycles), "simulated core cycles (all kernels)");
  if (t.launches.size() > 1) {
    for (const auto& k : t.launches)
      out += fmt::format(
          "    {:<20} {:>16}  cycles, {} warp instructions, IPC {:.3f}, {} CTAs/SM\n", k.kernel,
          k.cycles, k.warp_instructions,
          k.cycles ? static_cast<double>(k.warp_instructions) / static_cast<double>(k.cycles) : 0.0,
          k.occupancy_ctas_per_sm);
  }
  row("ipc", fmt::format("{:.4f}", g["ipc"].get<double>()),
      "warp instructions per cycle, whole GPU");
  row("thread_ipc", fmt::format("{:.2f}", g["thread_ipc"].get<double>()),
      "thread instructions per cycle, whole GPU");
  row("registers_per_thread",
      fmt::format("{} ({})", t.last_resources.registers, t.last_resources.source),
      "register allocation used for occupancy");
  row("occupancy",
      fmt::format("{} CTAs/SM, {} warps/CTA", t.last_occupancy_ctas, t.last_warps_per_cta),
      "resident CTAs per SM at full load (last kernel)");
  const sm::SchedStats all = sum_sched(t);
  std::uint64_t total = 0;
  for (int k = 0; k < static_cast<int>(sm::StallKind::kCount); ++k) total += all.cycles[k];
  out += "  scheduler cycles (all SMs and schedulers):\n";
  for (int k = 0; k < static_cast<int>(sm::StallKind::kCount); ++k)
    out += fmt::format(
        "    {:<20} {:>16}  {:5.1f}%\n", sm::kStallNames[k], all.cycles[k],
        total ? 100.0 * static_cast<double>(all.cycles[k]) / static_cast<double>(total) : 0.0);
  // The SM counters marked for the table (SIMTSYNC_STAT_SHOWN), summed over the SMs.
  sm::SmStats sms;
  for (const auto& s : t.sm) accumulate<sm::SmStats>(sms, s, sm::kSmStatFields);
  out += table_rows<sm::SmStats>(sms, sm::kSmStatFields, "", true);
  std::uint64_t acc = 0, miss = 0;
  for (const auto& c : t.icache) acc += c.accesses, miss += c.misses;
  row("icache_misses", fmt::format("{} / {}", miss, acc), "I-cache misses / accesses");
  row("mem.transactions", fmt::format("{}", t.mem.transactions), "coalesced memory transactions");
  row("mem.atomics", fmt::format("{}", t.mem.atomics),
      "warp-level atomic requests at the memory side");
  row("mem.atomic_wait", fmt::format("{}", t.mem.atomic_wait_cycles),
      "cycles atomics waited for their address's atomic unit");
  row("mem.refused", fmt::format("{}", t.mem.refused), "requests refused by a full memory queue");
  if (g.contains("warp_phases"))
    row("warp_phases.mean_rtru",
        fmt::format("{:.3f} ({} phases)", g["warp_phases"]["mean_rtru"].get<double>(),
                    g["warp_phases"]["phases"].get<std::uint64_t>()),
        "RTRU averaged over warp-phases (seed 002 Eq. 1), max " +
            fmt::format("{:.3f}", g["warp_phases"]["max_rtru"].get<double>()));
  if (g.contains("warp_phases"))
    row("warp_phases.barrier_wait",
        fmt::format("{:.3f}", g["warp_phases"]["barrier_wait_fraction"].get<double>()),
        fmt::format("share of warp time waiting at barriers and exit points (seed 002 Fig. 1); "
                    "critical warp changes in {:.0f}% of phases",
                    100 * g["warp_phases"]["critical_change_rate"].get<double>()));
  if (g.contains("sync_status")) {
    const auto& y = g["sync_status"];
    row("sync.lock_attempts", fmt::format("{}", y["lock_attempts"].get<std::uint64_t>()),
        fmt::format("lock acquire attempts: {} took it, {} failed intra-warp, {} inter-warp",
                    y["lock_success"].get<std::uint64_t>(),
                    y["lock_fail_intra_warp"].get<std::uint64_t>(),
                    y["lock_fail_inter_warp"].get<std::uint64_t>()));
    row("sync.wait_attempts", fmt::format("{}", y["wait_attempts"].get<std::uint64_t>()),
        fmt::format("wait-exit attempts: {} left the wait, {} went round again",
                    y["wait_success"].get<std::uint64_t>(), y["wait_fail"].get<std::uint64_t>()));
  }
  if (g.contains("ddos")) {
    const auto& d = g["ddos"];
    row("ddos.tsdr",
        fmt::format("{:.3f} ({}/{})", d["tsdr"].get<double>(), d["sibs_confirmed"].get<unsigned>(),
                    d["sibs"].get<unsigned>()),
        "annotated spin-inducing branches DDOS confirmed (per SM and branch; seed 000 Table I)");
    row("ddos.fsdr",
        fmt::format("{:.3f} ({}/{})", d["fsdr"].get<double>(),
                    d["non_sibs_confirmed"].get<unsigned>(), d["non_sibs"].get<unsigned>()),
        fmt::format("other backward branches DDOS confirmed; detection phase ratio {:.3f}",
                    d["dpr_true"].get<double>()));
  }
  out +=
      plugin_rows(fmt::format("{}.", t.issue_policy), t.issue_stats, sum_policy(t, t.issue_stats));
  out += plugin_rows(fmt::format("fetch.{}.", t.fetch_policy), t.fetch_stats,
                     sum_fetch(t, t.fetch_stats));
  if (t.has_hierarchy) {
    const nlohmann::json& m = g["memory"];
    auto pct = [](double x) { return fmt::format("{:.1f}%", 100 * x); };
    row("l1.hit_rate", pct(m["l1"]["hit_rate"].get<double>()),
        "L1 data cache hits / (hits + misses)");
    row("l2.hit_rate", pct(m["l2"]["hit_rate"].get<double>()),
        "L2 hits / (hits + misses), all slices");
    row("dram.row_hit_rate", pct(m["dram"]["row_hit_rate"].get<double>()),
        "DRAM column accesses to an open row");
    row("dram.bandwidth", pct(m["dram"]["bandwidth_utilization"].get<double>()),
        "data-bus busy cycles / DRAM cycles, all channels");
    row("atomic.avg_queue_wait", fmt::format("{:.1f}", m["atomic"]["avg_queue_wait"].get<double>()),
        "L2 cycles an atomic packet waited for its L2 atomic unit");
    row("latency.l1/l2/dram",
        fmt::format("{:.0f}/{:.0f}/{:.0f}", m["avg_latency"]["l1_hit"].get<double>(),
                    m["avg_latency"]["l2_hit"].get<double>(),
                    m["avg_latency"]["dram"].get<double>()),
        "average transaction round trip by serving level, core cycles");
  }
  out += energy_rows(g["energy"]);
  return out;
}

std::string flatten_csv(const nlohmann::json& j) {
  std::string out = "name,value\n";
  flatten(j, "", out);
  return out;
}

}  // namespace simtsync::stats
