#include "config/config.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>

#include "common/error.h"
#include "config/embedded.h"

namespace simtsync::config {
namespace {

[[noreturn]] void access_bug(const std::string& key, const char* what) {
  std::fprintf(stderr, "internal error: config key '%s': %s\n", key.c_str(), what);
  std::abort();
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool parse_double(const std::string& t, double& out) {
  if (t.empty()) return false;
  const char* end = t.data() + t.size();
  auto [p, ec] = std::from_chars(t.data() + (t[0] == '+'), end, out);
  return ec == std::errc() && p == end && std::isfinite(out);
}

// Integer keys take decimal integers only (optionally signed, with YAML-style digit separators
// 5_000_000): 0x10, 1.5 and 1e3 are all refused alike.
bool parse_int(std::string t, std::int64_t& out) {
  t.erase(std::remove(t.begin(), t.end(), '_'), t.end());
  if (t.empty()) return false;
  const char* end = t.data() + t.size();
  auto [p, ec] = std::from_chars(t.data() + (t[0] == '+'), end, out);
  return ec == std::errc() && p == end;
}

std::string range_text(const KeyInfo& k) {
  if (k.type == Type::kInt)
    return fmt::format("[{}, {}]", static_cast<std::int64_t>(k.min),
                       k.max >= 9.2e18 ? std::string("no limit")
                                       : std::to_string(static_cast<std::int64_t>(k.max)));
  return fmt::format("[{}, {}]", k.min, k.max);
}

bool is_pow2(std::int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

}  // namespace

Config::Config(const Schema& schema) : schema_(&schema) {
  values_.resize(schema.keys().size());
  read_.assign(values_.size(), 0);
  origins_.assign(schema.keys().size(), "default");
  for (std::size_t i = 0; i < values_.size(); ++i)
    set_text(static_cast<int>(i), schema.keys()[i].default_value, false, "default");
}

Config Config::defaults(const Schema& schema) {
  Config c(schema);
  c.check_relations();
  c.forget_reads();
  return c;
}

void Config::set_text(int index, const std::string& text, bool quoted, const std::string& where) {
  const KeyInfo& k = schema_->keys()[static_cast<std::size_t>(index)];
  auto fail = [&](const std::string& why) {
    return usage_error(fmt::format("config error: {}: key '{}': {}", where, k.key, why));
  };
  Value& v = values_[static_cast<std::size_t>(index)];
  if (quoted && k.type != Type::kString)
    throw fail(fmt::format("expects {} {}, got the quoted string \"{}\"",
                           k.type == Type::kInt ? "an" : "a", type_name(k.type), text));
  switch (k.type) {
    case Type::kInt: {
      std::int64_t x = 0;
      if (!parse_int(text, x))
        throw fail(fmt::format("expects an integer (decimal digits), got '{}'", text));
      if (static_cast<double>(x) < k.min || static_cast<double>(x) > k.max)
        throw fail(fmt::format("{} is out of range {}", x, range_text(k)));
      v = x;
      break;
    }
    case Type::kFloat: {
      double x = 0;
      if (!parse_double(text, x)) throw fail(fmt::format("expects a number, got '{}'", text));
      if (x < k.min || x > k.max) throw fail(fmt::format("{} is out of range {}", x, range_text(k)));
      v = x;
      break;
    }
    case Type::kBool: {
      std::string t = lower(text);
      if (t == "true" || t == "yes" || t == "on" || t == "1") {
        v = true;
      } else if (t == "false" || t == "no" || t == "off" || t == "0") {
        v = false;
      } else {
        throw fail(fmt::format("expects a boolean (true or false), got '{}'", text));
      }
      break;
    }
    case Type::kString:
      if (!k.choices.empty() &&
          std::find(k.choices.begin(), k.choices.end(), text) == k.choices.end())
        throw fail(fmt::format("'{}' is not one of: {}", text, fmt::join(k.choices, ", ")));
      v = text;
      break;
  }
  origins_[static_cast<std::size_t>(index)] = where;
}

// Relations between keys, checked after all overrides. The message names every key involved,
// its value and where that value came from.
void Config::check_relations() const {
  auto fail = [&](std::initializer_list<const char*> keys, const std::string& why) {
    std::vector<std::string> parts;
    for (const char* k : keys)
      parts.push_back(fmt::format("{} = {} ({})", k, get_int(k), origin(k)));
    return usage_error(
        fmt::format("config error: {}: {} [{}]", source_, why, fmt::join(parts, ", ")));
  };
  // The relations below concern the GPU schema; a custom schema (tests, tools) skips them.
  for (const char* k : {"sm.max_threads", "sm.max_warps", "gpu.warp_size", "sm.num_schedulers",
                        "sm.simd_width", "sm.icache.line_bytes", "sm.icache.size_bytes",
                        "sm.icache.assoc", "mem.simple.line_bytes"}) {
    if (!schema_->find(k)) return;
  }
  auto i = [&](const char* k) { return get_int(k); };
  if (i("sm.max_threads") > i("sm.max_warps") * i("gpu.warp_size"))
    throw fail({"sm.max_threads", "sm.max_warps", "gpu.warp_size"},
               "key 'sm.max_threads' exceeds sm.max_warps * gpu.warp_size");
  if (i("sm.num_schedulers") > i("sm.max_warps"))
    throw fail({"sm.num_schedulers", "sm.max_warps"},
               "key 'sm.num_schedulers' exceeds sm.max_warps");
  if (i("sm.simd_width") > i("gpu.warp_size"))
    throw fail({"sm.simd_width", "gpu.warp_size"}, "key 'sm.simd_width' exceeds gpu.warp_size");
  if (!is_pow2(i("sm.icache.line_bytes")))
    throw fail({"sm.icache.line_bytes"}, "key 'sm.icache.line_bytes' must be a power of two");
  if (i("sm.icache.size_bytes") % (i("sm.icache.line_bytes") * i("sm.icache.assoc")) != 0)
    throw fail({"sm.icache.size_bytes", "sm.icache.line_bytes", "sm.icache.assoc"},
               "key 'sm.icache.size_bytes' must be a multiple of line_bytes * assoc");
  if (!is_pow2(i("mem.simple.line_bytes")))
    throw fail({"mem.simple.line_bytes"}, "key 'mem.simple.line_bytes' must be a power of two");
}

const Value& Config::at(const std::string& key, Type want) const {
  const KeyInfo* k = schema_->find(key);
  if (!k) access_bug(key, "not in the schema");
  if (k->type != want) access_bug(key, "read with the wrong type");
  const auto i = static_cast<std::size_t>(schema_->index_of(key));
  read_[i] = 1;
  return values_[i];
}

void Config::forget_reads() const {
  read_.assign(values_.size(), 0);
}

std::vector<std::string> Config::unread_keys() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < values_.size(); ++i)
    if (!read_[i]) out.push_back(schema_->keys()[i].key);
  return out;
}

std::int64_t Config::get_int(const std::string& key) const {
  return std::get<std::int64_t>(at(key, Type::kInt));
}
double Config::get_float(const std::string& key) const {
  return std::get<double>(at(key, Type::kFloat));
}
bool Config::get_bool(const std::string& key) const { return std::get<bool>(at(key, Type::kBool)); }
const std::string& Config::get_string(const std::string& key) const {
  return std::get<std::string>(at(key, Type::kString));
}

const std::string& Config::origin(const std::string& key) const {
  int i = schema_->index_of(key);
  if (i < 0) access_bug(key, "not in the schema");
  return origins_[static_cast<std::size_t>(i)];
}

nlohmann::json Config::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t i = 0; i < values_.size(); ++i) {
    nlohmann::json* node = &j;
    const std::string& key = schema_->keys()[i].key;
    std::size_t p = 0;
    for (std::size_t q; (q = key.find('.', p)) != std::string::npos; p = q + 1)
      node = &(*node)[key.substr(p, q - p)];
    (*node)[key.substr(p)] = std::visit([](const auto& x) { return nlohmann::json(x); }, values_[i]);
  }
  return j;
}

std::vector<std::string> Config::shipped_names() { return shipped_config_names(); }

std::vector<std::string> shipped_config_names() {
  std::vector<std::string> names;
  for (const auto& [name, text] : embedded_configs()) names.push_back(name);
  return names;  // std::map keeps them sorted
}

}  // namespace simtsync::config
