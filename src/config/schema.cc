#include "config/schema.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace simtsync::config {
namespace {

// A schema mistake is a simulator bug: report the key and stop.
[[noreturn]] void schema_bug(const std::string& key, const std::string& what) {
  std::fprintf(stderr, "internal error: config schema key '%s': %s\n", key.c_str(), what.c_str());
  std::abort();
}

bool well_formed(const std::string& key) {
  if (key.empty() || key.front() == '.' || key.back() == '.') return false;
  char prev = 0;
  for (char c : key) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
    if (!ok || (c == '.' && prev == '.')) return false;
    prev = c;
  }
  return true;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace

const char* type_name(Type t) {
  switch (t) {
    case Type::kInt: return "integer";
    case Type::kFloat: return "number";
    case Type::kBool: return "boolean";
    case Type::kString: return "string";
  }
  return "?";
}

Schema& Schema::add(KeyInfo k) {
  if (!well_formed(k.key)) schema_bug(k.key, "not a lower-case dotted name");
  if (index_.count(k.key)) schema_bug(k.key, "registered twice");
  if (k.description.empty()) schema_bug(k.key, "no description");
  // A key may not also be a group: "a.b" and "a.b.c" cannot both exist.
  for (const auto& o : keys_) {
    if (o.key.rfind(k.key + ".", 0) == 0 || k.key.rfind(o.key + ".", 0) == 0)
      schema_bug(k.key, "clashes with key '" + o.key + "'");
  }
  index_[k.key] = static_cast<int>(keys_.size());
  keys_.push_back(std::move(k));
  return *this;
}

Schema& Schema::add_int(std::string key, std::int64_t def, std::int64_t min, std::int64_t max,
                        std::string description, std::string source) {
  if (!(min <= def && def <= max)) schema_bug(key, "default out of range");
  return add({std::move(key), Type::kInt, std::to_string(def), static_cast<double>(min),
              static_cast<double>(max), {}, std::move(description), std::move(source)});
}

Schema& Schema::add_float(std::string key, double def, double min, double max,
                          std::string description, std::string source) {
  if (!std::isfinite(def) || !(min <= def && def <= max)) schema_bug(key, "default out of range");
  return add({std::move(key), Type::kFloat, fmt::format("{}", def), min, max, {},
              std::move(description), std::move(source)});
}

Schema& Schema::add_bool(std::string key, bool def, std::string description, std::string source) {
  return add({std::move(key), Type::kBool, def ? "true" : "false", 0, 1, {},
              std::move(description), std::move(source)});
}

Schema& Schema::add_choice(std::string key, std::string def, std::vector<std::string> choices,
                           std::string description, std::string source) {
  if (std::find(choices.begin(), choices.end(), def) == choices.end())
    schema_bug(key, "default is not among the choices");
  return add({std::move(key), Type::kString, std::move(def), 0, 0, std::move(choices),
              std::move(description), std::move(source)});
}

const KeyInfo* Schema::find(const std::string& key) const {
  int i = index_of(key);
  return i < 0 ? nullptr : &keys_[static_cast<std::size_t>(i)];
}

int Schema::index_of(const std::string& key) const {
  auto it = index_.find(key);
  return it == index_.end() ? -1 : it->second;
}

bool Schema::is_group(const std::string& prefix) const {
  auto it = index_.lower_bound(prefix + ".");
  return it != index_.end() && it->first.rfind(prefix + ".", 0) == 0;
}

std::string Schema::closest(const std::string& key) const {
  std::string best;
  std::size_t best_d = std::max<std::size_t>(3, key.size() / 4) + 1;
  for (const auto& k : keys_) {
    std::size_t d = edit_distance(key, k.key);
    // A near-identical last component in another group ("sm.num_sm" for "gpu.num_sms") counts.
    auto tail = [](const std::string& s) { return s.substr(s.rfind('.') + 1); };
    std::size_t td = edit_distance(tail(key), tail(k.key));
    if (td <= 1) d = std::min(d, 2 + td);
    if (d < best_d) best_d = d, best = k.key;
  }
  return best;
}

}  // namespace simtsync::config
