#include "stats/timing_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "stats/declared.h"
#include "stats/energy_report.h"
#include "timing/mem/mem_unit_registry.h"

namespace simtsync::stats {
namespace {

sm::SmStats sum_sm(const gpu::TimingTotals& t) {
  sm::SmStats s;
  for (const auto& x : t.sm) accumulate<sm::SmStats>(s, x, sm::kSmStatFields);
  return s;
}

gpu::SyncCounts sum_sync(const gpu::TimingTotals& t) {
  gpu::SyncCounts s;
  for (const auto& x : t.sync) accumulate<gpu::SyncCounts>(s, x, gpu::kSyncStatFields);
  return s;
}

nlohmann::json sync_json(const gpu::SyncCounts& c) {
  return to_json<gpu::SyncCounts>(c, gpu::kSyncStatFields, gpu::kSyncDerived);
}

// Each declared record summary of the run's records (key, values), for those the run has.
std::vector<std::pair<std::string, std::vector<sched::SummaryValue>>> record_summaries(
    const gpu::TimingTotals& t) {
  std::vector<std::pair<std::string, std::vector<sched::SummaryValue>>> out;
  for (const sched::RecordSummary& rs : sched::record_summaries()) {
    std::vector<sched::PolicyRecord> recs;
    for (const auto& tr : t.records)
      if (tr.rec.kind == rs.kind) recs.push_back(tr.rec);
    if (!recs.empty()) out.emplace_back(rs.key, rs.summarize(recs));
  }
  return out;
}

// The memory hierarchy's rows marked for the text table, by component.
std::string hierarchy_rows(const mem::HierarchyStats& h) {
  std::string out =
      table_rows<mem::HierarchyStats>(h, mem::kHierarchyStatFields, mem::kHierarchyDerived, "mem.");
  out += table_rows<mem::CacheStats>(h.l1, mem::kCacheStatFields, mem::kCacheDerived, "l1.");
  out += table_rows<mem::CacheStats>(h.l2, mem::kCacheStatFields, mem::kCacheDerived, "l2.");
  out += table_rows<mem::DramStats>(h.dram, mem::kDramStatFields, mem::kDramDerived, "dram.");
  for (const auto& u : h.units) {
    const nlohmann::json j =
        plugin_json(mem::mem_unit_stats(u.name), mem::mem_unit_ratios(u.name), u.values);
    for (const auto& r : mem::mem_unit_ratios(u.name))
      if (r.show != StatShow::kHidden)
        out += table_row(u.name + "." + r.name, show_value(j[r.name].get<double>(), r.show),
                         r.description);
  }
  return out;
}

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
    if (i < t.sync.size()) j["sync_status"] = sync_json(t.sync[i]);
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
  const sm::SmStats total = sum_sm(t);
  g["sm_total"] = to_json<sm::SmStats>(total, sm::kSmStatFields);
  // SM-cycles with no CTA resident, over all SMs (each SM's run cycles less its active ones).
  std::uint64_t idle = 0;
  for (const auto& s : t.sm) idle += t.cycles > s.active_cycles ? t.cycles - s.active_cycles : 0;
  g["sm_idle_cycles"] = idle;
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
  // Warp-phases and synchronization status: declared values over the SM totals.
  if (total.warp_phases > 0)
    g["warp_phases"] = derived_json<sm::SmStats>(total, sm::kWarpPhaseDerived);
  if (!t.sync.empty()) g["sync_status"] = sync_json(sum_sync(t));
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
  }
  // The record summaries their writers declared (sched::record_summaries()).
  for (const auto& [key, values] : record_summaries(t)) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& v : values)
      if (v.value == std::floor(v.value) && std::fabs(v.value) < 9e15)
        j[v.name] = static_cast<std::int64_t>(v.value);
      else
        j[v.name] = v.value;
    g[key] = std::move(j);
  }
  g["shared"] = to_json<mem::SharedStats>(t.shared, mem::kSharedStatFields);
  if (t.has_hierarchy)
    g["memory"] = hierarchy_json(t.hier);
  else
    g["mem"] = to_json<mem::SimpleMemoryStats>(t.mem, mem::kSimpleMemoryStatFields);
  g["energy"] = energy_json(g, t);
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
    out += table_row(name, v, desc);
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
  std::uint64_t cycles = 0;
  for (int k = 0; k < static_cast<int>(sm::StallKind::kCount); ++k) cycles += all.cycles[k];
  out += "  scheduler cycles (all SMs and schedulers):\n";
  for (int k = 0; k < static_cast<int>(sm::StallKind::kCount); ++k)
    out += fmt::format(
        "    {:<20} {:>16}  {:5.1f}%\n", sm::kStallNames[k], all.cycles[k],
        cycles ? 100.0 * static_cast<double>(all.cycles[k]) / static_cast<double>(cycles) : 0.0);
  // The SM counters marked for the table (SIMTSYNC_STAT_SHOWN), summed over the SMs.
  const sm::SmStats sms = sum_sm(t);
  out += table_rows<sm::SmStats>(sms, sm::kSmStatFields, "", true);
  sm::ICacheStats ic;
  for (const auto& c : t.icache) accumulate<sm::ICacheStats>(ic, c, sm::kICacheStatFields);
  out += table_rows<sm::ICacheStats>(ic, sm::kICacheStatFields, "icache.", true);
  if (sms.warp_phases > 0)
    out += table_rows<sm::SmStats>(sms, {}, sm::kWarpPhaseDerived, "warp_phases.");
  if (!t.sync.empty())
    out +=
        table_rows<gpu::SyncCounts>(sum_sync(t), gpu::kSyncStatFields, gpu::kSyncDerived, "sync.");
  for (const auto& [key, values] : record_summaries(t))
    for (const auto& v : values)
      if (v.show != StatShow::kHidden)
        row(fmt::format("{}.{}", key, v.name), show_value(v.value, v.show), v.description);
  out +=
      plugin_rows(fmt::format("{}.", t.issue_policy), t.issue_stats, sum_policy(t, t.issue_stats));
  out += plugin_rows(fmt::format("fetch.{}.", t.fetch_policy), t.fetch_stats,
                     sum_fetch(t, t.fetch_stats));
  // The memory model's counters and derived values marked for the table.
  if (t.has_hierarchy)
    out += hierarchy_rows(t.hier);
  else
    out += table_rows<mem::SimpleMemoryStats>(t.mem, mem::kSimpleMemoryStatFields, "mem.", true);
  out += energy_rows(g["energy"]);
  return out;
}

std::string flatten_csv(const nlohmann::json& j) {
  std::string out = "name,value\n";
  flatten(j, "", out);
  return out;
}

}  // namespace simtsync::stats
