// A resolved, validated configuration: a schema's keys with values from a shipped config or a
// YAML file, then --set overrides. Everything is checked here, before cycle 0: unknown keys,
// wrong types, out-of-range values and choices, and the relations between keys. A failure is
// a usage error (exit 2) that names the key and where its value came from.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/schema.h"

namespace simtsync::config {

using Value = std::variant<std::int64_t, double, bool, std::string>;

class Config {
 public:
  // name_or_path: a shipped config ("gtx480"; any name without '/' and without a .yaml/.yml
  // suffix) or a YAML file. sets: "key=value" overrides applied in order. Missing keys take
  // the schema default. The schema must outlive the Config.
  static Config load(const Schema& schema, const std::string& name_or_path,
                     const std::vector<std::pair<std::string, std::string>>& sets = {});
  static Config defaults(const Schema& schema);
  static std::vector<std::string> shipped_names();

  // Typed access; a key outside the schema or of another type is a simulator bug (abort).
  std::int64_t get_int(const std::string& key) const;
  double get_float(const std::string& key) const;
  bool get_bool(const std::string& key) const;
  const std::string& get_string(const std::string& key) const;
  // Where a key's value came from: "default", "gtx480.yaml:12", "--set".
  const std::string& origin(const std::string& key) const;

  const std::string& name() const { return name_; }      // "gtx480" or the file's stem
  const std::string& source() const { return source_; }  // "built-in configs/gtx480.yaml" or path
  const Schema& schema() const { return *schema_; }

  // Keys no get_* has read since forget_reads() (the dead-key test: every key must be read
  // by the component that owns it when a simulation is assembled).
  void forget_reads() const;
  std::vector<std::string> unread_keys() const;

  // The fully resolved config as nested YAML; every key is preceded by its description, the
  // source of its default and where its value came from. Loading it gives the same values.
  std::string dump_yaml() const;
  nlohmann::json to_json() const;  // nested objects, typed values

 private:
  explicit Config(const Schema& schema);
  const Value& at(const std::string& key, Type want) const;
  void set_text(int index, const std::string& text, bool quoted, const std::string& where);
  void check_relations() const;

  const Schema* schema_;
  std::vector<Value> values_;         // parallel to schema_->keys()
  std::vector<std::string> origins_;  // parallel to schema_->keys()
  mutable std::vector<std::uint8_t> read_;  // parallel to schema_->keys(): read by get_*
  std::string name_ = "defaults";
  std::string source_ = "schema defaults";
};

std::vector<std::string> shipped_config_names();

}  // namespace simtsync::config
