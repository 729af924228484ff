#include "config/plugin.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/error.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace simtsync::config {
namespace {

[[noreturn]] void plugin_bug(const std::string& what) {
  std::fprintf(stderr, "internal error: plug-in: %s\n", what.c_str());
  std::abort();
}

}  // namespace

bool PluginDecl::fresh(const std::string& name, Type t) {
  keys_.push_back(name);
  if (!schema_) return false;
  const std::string key = prefix_ + "." + name;
  if (const KeyInfo* k = schema_->find(key)) {
    if (k->type != t) plugin_bug(fmt::format("'{}' declared with two types", key));
    return false;
  }
  return true;
}

PluginDecl& PluginDecl::add_int(const std::string& name, std::int64_t def, std::int64_t min,
                                std::int64_t max, const std::string& description,
                                const std::string& source) {
  if (fresh(name, Type::kInt))
    schema_->add_int(prefix_ + "." + name, def, min, max, description, source);
  return *this;
}

PluginDecl& PluginDecl::add_float(const std::string& name, double def, double min, double max,
                                  const std::string& description, const std::string& source) {
  if (fresh(name, Type::kFloat))
    schema_->add_float(prefix_ + "." + name, def, min, max, description, source);
  return *this;
}

PluginDecl& PluginDecl::add_bool(const std::string& name, bool def, const std::string& description,
                                 const std::string& source) {
  if (fresh(name, Type::kBool)) schema_->add_bool(prefix_ + "." + name, def, description, source);
  return *this;
}

PluginDecl& PluginDecl::add_choice(const std::string& name, const std::string& def,
                                   std::vector<std::string> choices, const std::string& description,
                                   const std::string& source) {
  if (fresh(name, Type::kString))
    schema_->add_choice(prefix_ + "." + name, def, std::move(choices), description, source);
  return *this;
}

PluginDecl& PluginDecl::stat(const std::string& name, const std::string& description, StatSum sum) {
  for (const auto& s : stats_)
    if (s.name == name) plugin_bug(fmt::format("{} declares statistic '{}' twice", impl_, name));
  stats_.push_back({name, description, sum});
  return *this;
}

PluginDecl& PluginDecl::ratio(const std::string& name, const std::string& numerator,
                              const std::string& denominator, const std::string& description,
                              StatShow show) {
  auto declared = [&](const std::string& n) {
    for (const auto& s : stats_)
      if (s.name == n) return true;
    return false;
  };
  if (!declared(numerator) || !declared(denominator))
    plugin_bug(fmt::format("{}: ratio '{}' names a statistic not declared before it", impl_, name));
  ratios_.push_back({name, numerator, denominator, description, show});
  return *this;
}

PluginParams PluginParams::from(const Config& c, const std::string& prefix, DeclareFn declare,
                                const std::string& impl) {
  PluginDecl d(nullptr, prefix, impl);
  declare(d);
  PluginParams p;
  const Schema& s = c.schema();
  for (const std::string& name : d.keys()) {
    const std::string key = prefix + "." + name;
    const KeyInfo* k = s.find(key);
    if (!k) plugin_bug(fmt::format("'{}' of {} is not in the schema", key, impl));
    switch (k->type) {
      case Type::kInt:
        p.set(name, c.get_int(key));
        break;
      case Type::kFloat:
        p.set(name, c.get_float(key));
        break;
      case Type::kBool:
        p.set(name, c.get_bool(key));
        break;
      case Type::kString:
        p.set(name, c.get_string(key));
        break;
    }
  }
  return p;
}

const Value& PluginParams::at(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) plugin_bug(fmt::format("parameter '{}' was not declared", name));
  return it->second;
}

std::int64_t PluginParams::get_int(const std::string& name) const {
  const Value& v = at(name);
  if (!std::holds_alternative<std::int64_t>(v)) plugin_bug(name + " is not an integer");
  return std::get<std::int64_t>(v);
}

double PluginParams::get_float(const std::string& name) const {
  const Value& v = at(name);
  if (std::holds_alternative<std::int64_t>(v))
    return static_cast<double>(std::get<std::int64_t>(v));
  if (!std::holds_alternative<double>(v)) plugin_bug(name + " is not a number");
  return std::get<double>(v);
}

bool PluginParams::get_bool(const std::string& name) const {
  const Value& v = at(name);
  if (!std::holds_alternative<bool>(v)) plugin_bug(name + " is not a boolean");
  return std::get<bool>(v);
}

const std::string& PluginParams::get_string(const std::string& name) const {
  const Value& v = at(name);
  if (!std::holds_alternative<std::string>(v)) plugin_bug(name + " is not a string");
  return std::get<std::string>(v);
}

void unknown_plugin(const std::string& prefix, const std::string& what, const std::string& impl,
                    const std::vector<PluginInfo>& rows) {
  std::vector<std::string> names;
  for (const auto& r : rows) names.push_back(r.name);
  throw usage_error(fmt::format("key '{}.impl': unknown {} '{}' (known: {})", prefix, what, impl,
                                fmt::join(names, ", ")));
}

PluginParams declared_defaults(const std::string& prefix, const std::string& impl,
                               DeclareFn declare) {
  Schema schema;
  PluginDecl d(&schema, prefix, impl);
  declare(d);
  return PluginParams::from(Config::defaults(schema), prefix, declare, impl);
}

void declare_family(Schema& schema, const std::string& prefix, const std::string& def,
                    const std::string& description, const std::string& source,
                    const std::vector<PluginInfo>& rows) {
  std::vector<std::string> names;
  std::string desc = description + ":";
  for (const auto& r : rows) {
    names.push_back(r.name);
    desc += fmt::format(" {} ({});", r.name, r.description);
  }
  desc.pop_back();
  schema.add_choice(prefix + ".impl", def, names, desc, source);
  for (const auto& r : rows) {
    PluginDecl d(&schema, prefix, r.name);
    r.declare(d);
  }
}

std::vector<StatDecl> plugin_stats(const PluginInfo& row, const std::string& prefix) {
  PluginDecl d(nullptr, prefix, row.name);
  row.declare(d);
  return d.stats();
}

void accumulate(std::vector<std::uint64_t>& into, const std::vector<std::uint64_t>& from,
                const std::vector<StatDecl>& decl) {
  if (into.size() < from.size()) into.resize(from.size(), 0);
  for (size_t i = 0; i < from.size(); ++i) {
    const bool max = i < decl.size() && decl[i].sum == StatSum::kMax;
    into[i] = max ? std::max(into[i], from[i]) : into[i] + from[i];
  }
}

}  // namespace simtsync::config
