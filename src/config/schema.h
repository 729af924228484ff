// The typed description of every configuration key a model reads: its type, default, legal
// range or choices, a one-line description and where the default comes from (gem5-style: no
// parameter without a description). Config validates YAML files and --set overrides against it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace simtsync::config {

enum class Type { kInt, kFloat, kBool, kString };

const char* type_name(Type t);  // "integer", "number", "boolean", "string"

struct KeyInfo {
  std::string key;            // dotted path, e.g. "sm.warp_scheduler.impl"
  Type type;
  std::string default_value;  // as it would be written in YAML
  double min = 0, max = 0;    // inclusive range (kInt, kFloat)
  std::vector<std::string> choices;  // legal values (kString); empty: any string
  std::string description;
  std::string source;  // where the default comes from (a seed table, documentation, estimate)
};

class Schema {
 public:
  // Each add_* checks (internal error on failure) that the key is new, well formed, described,
  // and that its default is legal, so a schema bug fails at start-up rather than mid-run.
  Schema& add_int(std::string key, std::int64_t def, std::int64_t min, std::int64_t max,
                  std::string description, std::string source = "");
  Schema& add_float(std::string key, double def, double min, double max, std::string description,
                    std::string source = "");
  Schema& add_bool(std::string key, bool def, std::string description, std::string source = "");
  Schema& add_choice(std::string key, std::string def, std::vector<std::string> choices,
                     std::string description, std::string source = "");

  const KeyInfo* find(const std::string& key) const;
  // Position of `key` in keys(), or -1.
  int index_of(const std::string& key) const;
  const std::vector<KeyInfo>& keys() const { return keys_; }  // in registration order
  // True when `prefix` names a group of keys ("sm", "sm.warp_scheduler").
  bool is_group(const std::string& prefix) const;
  // The registered key closest to `key` by edit distance, or "" when none is close.
  std::string closest(const std::string& key) const;

 private:
  Schema& add(KeyInfo k);

  std::vector<KeyInfo> keys_;
  std::map<std::string, int> index_;
};

// The fixed keys of the GPU model, with the plug-in families' keys (issue and fetch policies,
// reconvergence units, CTA dispatchers) added by `add_families` after the SM front end, and the
// memory-side units' keys by `add_mem_units` after the L2's.
Schema build_gpu_schema(void (*add_families)(Schema&), void (*add_mem_units)(Schema&));
// The energy model's keys (energy.*), part of the GPU schema (config/energy_schema.cc).
void add_energy_keys(Schema& s);
// The built-in schema of the GPU model, built once from the fixed keys and every plug-in
// family's .def table (defined in the timing library: src/timing/gpu/gpu_params.cc).
const Schema& gpu_schema();

}  // namespace simtsync::config
