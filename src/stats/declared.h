// JSON and text rows of a declared statistics table (common/stat_table.h) and of a plug-in's
// declared counters (config::StatDecl): the only place counters get their output form.
#pragma once

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "common/stat_table.h"
#include "config/plugin.h"

namespace simtsync::stats {

// A derived value as the text table shows it (StatShow).
std::string show_value(double v, StatShow how);

// One row of the run's text table: the name (padded to kTableNameWidth), the value (right-aligned
// in 16 characters) and the description.
inline constexpr int kTableNameWidth = 34;
std::string table_row(const std::string& name, const std::string& value,
                      const std::string& description);

// Every declared counter of `s` into `j` (arrays as objects keyed by their labels).
template <class T>
void put_json(nlohmann::json& j, const T& s, std::span<const StatField<T>> decl) {
  for (const auto& f : decl) {
    const std::uint64_t* v = f.at(const_cast<T&>(s));
    if (f.count == 1) {
      j[f.name] = v[0];
    } else {
      for (unsigned i = 0; i < f.count; ++i) j[f.name][f.labels[i]] = v[i];
    }
  }
}

template <class T>
nlohmann::json to_json(const T& s, std::span<const StatField<T>> decl) {
  nlohmann::json j = nlohmann::json::object();
  put_json(j, s, decl);
  return j;
}

// The values derived from a struct's counters (a dotted name nests one level), into `j`.
template <class T>
void put_derived(nlohmann::json& j, const T& s, std::span<const StatDerived<T>> derived) {
  for (const auto& d : derived) {
    const std::string name = d.name;
    const auto dot = name.find('.');
    if (dot == std::string::npos)
      j[name] = d.value(s);
    else
      j[name.substr(0, dot)][name.substr(dot + 1)] = d.value(s);
  }
}

template <class T>
nlohmann::json derived_json(const T& s, std::span<const StatDerived<T>> derived) {
  nlohmann::json j = nlohmann::json::object();
  put_derived(j, s, derived);
  return j;
}

// The counters and the values derived from them.
template <class T>
nlohmann::json to_json(const T& s, std::span<const StatField<T>> decl,
                       std::span<const StatDerived<T>> derived) {
  nlohmann::json j = to_json(s, decl);
  put_derived(j, s, derived);
  return j;
}

// One line per declared counter: name, value, description (arrays: one line per label);
// shown_only: only the counters marked for the text table (SIMTSYNC_STAT_SHOWN).
template <class T>
std::string table_rows(const T& s, std::span<const StatField<T>> decl,
                       const std::string& prefix = "", bool shown_only = false) {
  std::string out;
  for (const auto& f : decl) {
    if (shown_only && !f.shown) continue;
    const std::uint64_t* v = f.at(const_cast<T&>(s));
    for (unsigned i = 0; i < f.count; ++i) {
      const std::string name =
          prefix + (f.count == 1 ? std::string(f.name) : fmt::format("{}.{}", f.name, f.labels[i]));
      out += table_row(name, fmt::format("{}", v[i]), f.description);
    }
  }
  return out;
}

// The rows marked for the text table (SIMTSYNC_STAT_SHOWN, a StatShow other than kHidden) of a
// struct's counters and derived values, each name after `prefix`.
template <class T>
std::string table_rows(const T& s, std::span<const StatField<T>> decl,
                       std::span<const StatDerived<T>> derived, const std::string& prefix) {
  std::string out = table_rows(s, decl, prefix, true);
  for (const auto& d : derived)
    if (d.show != StatShow::kHidden)
      out += table_row(prefix + d.name, show_value(d.value(s), d.show), d.description);
  return out;
}

// A plug-in's counters (in declaration order) as a JSON object and as table rows.
nlohmann::json plugin_json(const std::vector<config::StatDecl>& decl,
                           const std::vector<std::uint64_t>& values);
// The same, with the declared ratios of those counters after them.
nlohmann::json plugin_json(const std::vector<config::StatDecl>& decl,
                           const std::vector<config::RatioDecl>& ratios,
                           const std::vector<std::uint64_t>& values);
std::string plugin_rows(const std::string& prefix, const std::vector<config::StatDecl>& decl,
                        const std::vector<std::uint64_t>& values);

}  // namespace simtsync::stats
