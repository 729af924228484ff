// Reading a config from YAML (nested maps flattened to dotted keys) and writing the resolved
// config back as commented, nested YAML.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <set>
#include <sstream>

#include "common/error.h"
#include "common/input_file.h"
#include "config/config.h"
#include "config/embedded.h"

namespace simtsync::config {
namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string unknown_key(const Schema& schema, const std::string& where, const std::string& key) {
  std::string hint = schema.closest(key);
  return fmt::format("config error: {}: unknown key '{}'{}", where, key,
                     hint.empty() ? "" : fmt::format(" (did you mean '{}'?)", hint));
}

// Walks a YAML map, handing each leaf (dotted key, scalar, quoted, "file:line") to `leaf`.
template <typename Leaf>
void flatten(const Schema& schema, const YAML::Node& map, const std::string& prefix,
             const std::string& file, Leaf&& leaf) {
  for (auto it = map.begin(); it != map.end(); ++it) {
    const YAML::Node k = it->first;  // copies: iterator values are temporaries
    const YAML::Node v = it->second;
    std::string where = fmt::format("{}:{}", file, k.Mark().line + 1);
    if (!k.IsScalar())
      throw usage_error(fmt::format("config error: {}: keys must be plain names", where));
    std::string key = prefix.empty() ? k.Scalar() : prefix + "." + k.Scalar();
    const KeyInfo* info = schema.find(key);
    if (v.IsMap()) {
      if (info)
        throw usage_error(fmt::format("config error: {}: key '{}': expects {} {}, got a map",
                                      where, key, info->type == Type::kInt ? "an" : "a",
                                      type_name(info->type)));
      if (!schema.is_group(key)) throw usage_error(unknown_key(schema, where, key));
      flatten(schema, v, key, file, leaf);
      continue;
    }
    if (!info) {
      if (schema.is_group(key))
        throw usage_error(fmt::format(
            "config error: {}: '{}' is a group of keys and needs a map, e.g. {}: {{...}}", where,
            key, key));
      throw usage_error(unknown_key(schema, where, key));
    }
    if (v.IsNull()) throw usage_error(fmt::format("config error: {}: key '{}' has no value", where, key));
    if (!v.IsScalar())
      throw usage_error(fmt::format("config error: {}: key '{}': expects a single {}, got a list",
                                    where, key, type_name(info->type)));
    leaf(key, v.Scalar(), v.Tag() == "!", where);
  }
}

std::string yaml_scalar(const Value& v) {
  if (auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (auto* d = std::get_if<double>(&v)) {
    std::string s = fmt::format("{}", *d);
    return s.find_first_of(".eE") == std::string::npos ? s + ".0" : s;
  }
  if (auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  const std::string& s = std::get<std::string>(v);
  bool plain = !s.empty() && std::isalpha(static_cast<unsigned char>(s[0]));
  for (char c : s) plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  static const std::set<std::string> kSpecial = {"true", "false", "yes", "no", "on",
                                                 "off",  "null",  "y",   "n"};
  if (plain && !kSpecial.count(s)) return s;
  return nlohmann::json(s).dump();  // a JSON string is a valid double-quoted YAML scalar
}

// The key tree in first-appearance order, so groups stay together in the dump.
struct TreeNode {
  std::string name;
  int leaf = -1;
  std::vector<TreeNode> kids;
};

}  // namespace

Config Config::load(const Schema& schema, const std::string& name_or_path,
                    const std::vector<std::pair<std::string, std::string>>& sets) {
  Config c(schema);
  std::string text, file;
  bool is_path = name_or_path.find('/') != std::string::npos || ends_with(name_or_path, ".yaml") ||
                 ends_with(name_or_path, ".yml");
  if (!is_path) {
    const auto& shipped = embedded_configs();
    auto it = shipped.find(name_or_path);
    if (it == shipped.end())
      throw usage_error(fmt::format(
          "unknown config '{}' (shipped configs: {}; or give the path of a YAML file)",
          name_or_path, fmt::join(shipped_config_names(), ", ")));
    text = it->second;
    file = name_or_path + ".yaml";
    c.name_ = name_or_path;
    c.source_ = "built-in configs/" + file;
  } else {
    text = read_input_file(name_or_path, "config file");
    file = name_or_path;
    c.name_ = std::filesystem::path(name_or_path).stem().string();
    c.source_ = name_or_path;
  }

  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw usage_error(fmt::format("config error: {}:{}:{}: YAML syntax error: {}", file,
                                  e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  // A file with nothing in it (or only comments) is far more likely a mistake (a truncated or
  // wrong file) than a request for the schema's defaults, which `{}` asks for explicitly.
  if (root.IsNull())
    throw usage_error(fmt::format(
        "config error: {}: the file is empty (no keys); write {{}} to take every default", file));
  if (!root.IsMap())
    throw usage_error(fmt::format("config error: {}: the top level must be a map of keys", file));
  std::set<std::string> seen;
  {  // the top level is a map
    flatten(schema, root, "", file,
            [&](const std::string& key, const std::string& value, bool quoted,
                const std::string& where) {
              if (!seen.insert(key).second)
                throw usage_error(
                    fmt::format("config error: {}: key '{}' is given twice", where, key));
              c.set_text(schema.index_of(key), value, quoted, where);
            });
  }
  for (const auto& [key, value] : sets) {
    std::string where = fmt::format("--set {}={}", key, value);
    int i = schema.index_of(key);
    if (i < 0) throw usage_error(unknown_key(schema, where, key));
    c.set_text(i, value, false, where);
  }
  c.check_relations();
  c.forget_reads();
  return c;
}

std::string Config::dump_yaml() const {
  TreeNode root;
  const auto& keys = schema_->keys();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    TreeNode* node = &root;
    std::istringstream parts(keys[i].key);
    for (std::string part; std::getline(parts, part, '.');) {
      auto it = std::find_if(node->kids.begin(), node->kids.end(),
                             [&](const TreeNode& n) { return n.name == part; });
      if (it == node->kids.end()) it = node->kids.insert(node->kids.end(), TreeNode{part, -1, {}});
      node = &*it;
    }
    node->leaf = static_cast<int>(i);
  }
  std::string out = fmt::format(
      "# simtsync resolved configuration '{}' ({}).\n"
      "# Every key the model reads, after --set overrides; `--config THIS_FILE` reproduces it.\n",
      name_, source_);
  auto emit = [&](auto&& self, const TreeNode& n, int depth) -> void {
    std::string pad(static_cast<std::size_t>(2 * depth), ' ');
    if (n.leaf >= 0) {
      const KeyInfo& k = keys[static_cast<std::size_t>(n.leaf)];
      std::string range;
      if (k.type == Type::kInt || k.type == Type::kFloat)
        range = k.max >= 9.2e18 ? fmt::format(", min {}", k.min) : fmt::format(", range [{}, {}]", k.min, k.max);
      if (!k.choices.empty()) range = fmt::format(", one of {}", fmt::join(k.choices, "|"));
      out += fmt::format("{}# {}\n{}#   default {}{}{}; value from {}\n{}{}: {}\n", pad,
                         k.description, pad, k.default_value, range,
                         k.source.empty() ? "" : " (source: " + k.source + ")",
                         origins_[static_cast<std::size_t>(n.leaf)], pad, n.name,
                         yaml_scalar(values_[static_cast<std::size_t>(n.leaf)]));
      return;
    }
    if (depth == 0) out += "\n";
    out += fmt::format("{}{}:\n", pad, n.name);
    for (const TreeNode& kid : n.kids) self(self, kid, depth + 1);
  };
  for (const TreeNode& top : root.kids) emit(emit, top, 0);
  return out;
}

}  // namespace simtsync::config
