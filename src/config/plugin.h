// Self-describing plug-ins. A plug-in family (warp schedulers, fetch policies, reconvergence
// units, CTA dispatchers) is a `.def` table whose rows name an implementation, its factory and a
// declare function. The declare function states the plug-in's own config keys (type, range,
// default, description, source) and its statistics (name, description, how to sum), once; the
// schema, the `.impl` choice list, `simtsync list`, the resolved config and the statistics
// output (sum, table, JSON, CSV) are all built from these declarations.
//
// Contract for a declare function: it only calls the PluginDecl methods, and always the same
// ones (it runs once to build the schema and again to read the plug-in's parameters).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "common/stat_table.h"
#include "config/config.h"
#include "config/schema.h"

namespace simtsync::config {

using simtsync::StatShow;
using simtsync::StatSum;

struct StatDecl {
  std::string name;
  std::string description;
  StatSum sum = StatSum::kAdd;
};

// A derived statistic: the quotient of two of the plug-in's counters (0 when the denominator is),
// computed after summing; it shows in JSON and CSV beside them, and in the run's text table when
// `show` says how.
struct RatioDecl {
  std::string name;
  std::string numerator, denominator;  // names of declared counters
  std::string description;
  StatShow show = StatShow::kHidden;
};

class PluginDecl {
 public:
  // Keys are declared as `prefix.name` in `schema` (null: only collect the names).
  PluginDecl(Schema* schema, std::string prefix, std::string impl)
      : schema_(schema), prefix_(std::move(prefix)), impl_(std::move(impl)) {}

  PluginDecl& add_int(const std::string& name, std::int64_t def, std::int64_t min, std::int64_t max,
                      const std::string& description, const std::string& source);
  PluginDecl& add_float(const std::string& name, double def, double min, double max,
                        const std::string& description, const std::string& source);
  PluginDecl& add_bool(const std::string& name, bool def, const std::string& description,
                       const std::string& source);
  PluginDecl& add_choice(const std::string& name, const std::string& def,
                         std::vector<std::string> choices, const std::string& description,
                         const std::string& source);
  PluginDecl& stat(const std::string& name, const std::string& description,
                   StatSum sum = StatSum::kAdd);
  PluginDecl& ratio(const std::string& name, const std::string& numerator,
                    const std::string& denominator, const std::string& description,
                    StatShow show = StatShow::kHidden);

  const std::string& impl() const { return impl_; }
  const std::string& prefix() const { return prefix_; }
  const std::vector<std::string>& keys() const { return keys_; }  // short names
  const std::vector<StatDecl>& stats() const { return stats_; }
  const std::vector<RatioDecl>& ratios() const { return ratios_; }

 private:
  // Declares prefix.name unless it exists with the same type (plug-ins of one family may share
  // a key); a clash of types is a schema bug.
  bool fresh(const std::string& name, Type t);

  Schema* schema_;
  std::string prefix_, impl_;
  std::vector<std::string> keys_;
  std::vector<StatDecl> stats_;
  std::vector<RatioDecl> ratios_;
};

using DeclareFn = void (*)(PluginDecl&);

// The values of one plug-in's keys, by short name; read from a resolved config
// (PluginParams::from) or set by hand in unit tests.
class PluginParams {
 public:
  static PluginParams from(const Config& c, const std::string& prefix, DeclareFn declare,
                           const std::string& impl);
  PluginParams& set(const std::string& name, Value v) {
    values_[name] = std::move(v);
    return *this;
  }
  // A name the plug-in did not declare (or of another type) is a simulator bug: it throws
  // an internal error naming it.
  std::int64_t get_int(const std::string& name) const;
  double get_float(const std::string& name) const;
  bool get_bool(const std::string& name) const;
  const std::string& get_string(const std::string& name) const;
  bool has(const std::string& name) const { return values_.count(name) != 0; }
  // Takes the values of `defaults` this object lacks.
  void fill_missing(const PluginParams& defaults) {
    for (const auto& [k, v] : defaults.values_) values_.try_emplace(k, v);
  }

 private:
  const Value& at(const std::string& name) const;
  std::map<std::string, Value> values_;
};

// One row of a family's table, as the schema and `simtsync list` see it.
struct PluginInfo {
  std::string name;
  std::string description;
  DeclareFn declare = nullptr;
};

// Sums (or maxes) a plug-in's counters as their declarations say.
void accumulate(std::vector<std::uint64_t>& into, const std::vector<std::uint64_t>& from,
                const std::vector<StatDecl>& decl);

// The statistics a row declares (runs its declare function without a schema).
std::vector<StatDecl> plugin_stats(const PluginInfo& row, const std::string& prefix);

// A family's table: the rows of its .def, looked up by name. Factory is the family's factory
// function type. Built once per family (a function-local static in its registry).
template <class Factory>
class PluginTable {
 public:
  struct Row {
    const char* name;
    Factory make;
    DeclareFn declare;
    const char* description;
  };
  // prefix: the family's config prefix ("sm.warp_scheduler"); what: its name in messages.
  PluginTable(std::string prefix, std::string what, std::initializer_list<Row> rows);

  // The row named `impl`; a usage error naming the key and the known names otherwise.
  const Row& row(const std::string& impl) const;
  // The selected implementation and its parameters read from a resolved config.
  std::pair<std::string, PluginParams> selected(const Config& c) const;
  // The declared defaults of `impl`'s keys.
  PluginParams defaults(const std::string& impl) const;
  const std::vector<PluginInfo>& infos() const { return infos_; }
  const std::vector<StatDecl>& stats(const std::string& impl) const;
  const std::string& prefix() const { return prefix_; }

 private:
  std::string prefix_, what_;
  std::vector<Row> rows_;
  std::vector<PluginInfo> infos_;
  std::vector<std::vector<StatDecl>> stats_;
};

// Helpers of PluginTable (non-template parts).
[[noreturn]] void unknown_plugin(const std::string& prefix, const std::string& what,
                                 const std::string& impl, const std::vector<PluginInfo>& rows);
PluginParams declared_defaults(const std::string& prefix, const std::string& impl,
                               DeclareFn declare);

template <class Factory>
PluginTable<Factory>::PluginTable(std::string prefix, std::string what,
                                  std::initializer_list<Row> rows)
    : prefix_(std::move(prefix)), what_(std::move(what)), rows_(rows) {
  for (const Row& r : rows_) {
    infos_.push_back({r.name, r.description, r.declare});
    stats_.push_back(plugin_stats(infos_.back(), prefix_));
  }
}

template <class Factory>
const typename PluginTable<Factory>::Row& PluginTable<Factory>::row(const std::string& impl) const {
  for (const Row& r : rows_)
    if (impl == r.name) return r;
  unknown_plugin(prefix_, what_, impl, infos_);
}

template <class Factory>
std::pair<std::string, PluginParams> PluginTable<Factory>::selected(const Config& c) const {
  const std::string& impl = c.get_string(prefix_ + ".impl");
  return {impl, PluginParams::from(c, prefix_, row(impl).declare, impl)};
}

template <class Factory>
PluginParams PluginTable<Factory>::defaults(const std::string& impl) const {
  return declared_defaults(prefix_, impl, row(impl).declare);
}

template <class Factory>
const std::vector<StatDecl>& PluginTable<Factory>::stats(const std::string& impl) const {
  return stats_[static_cast<size_t>(&row(impl) - rows_.data())];
}

// Adds `prefix.impl` (choices: the rows, default `def`) and every row's keys to `schema`.
void declare_family(Schema& schema, const std::string& prefix, const std::string& def,
                    const std::string& description, const std::string& source,
                    const std::vector<PluginInfo>& rows);


}  // namespace simtsync::config
