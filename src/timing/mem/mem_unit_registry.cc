#include "timing/mem/mem_unit_registry.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>

namespace simtsync::mem {

#define MEM_UNIT(name, factory, declare, desc)                                           \
  std::unique_ptr<IMemUnit> factory(const MemUnitContext&, const config::PluginParams&); \
  void declare(config::PluginDecl&);
#include "timing/mem/mem_units.def"
#undef MEM_UNIT

namespace {

struct Row {
  const char* name;
  MemUnitFactory make;
  config::DeclareFn declare;
  const char* description;
};

struct Table {
  std::vector<Row> rows;
  std::vector<config::PluginInfo> infos;
  std::vector<config::PluginDecl> decls;  // each row's declarations (no schema)
};

const Table& table() {
  static const Table t = [] {
    Table t;
    t.rows = {
#define MEM_UNIT(name, factory, declare, desc) {name, factory, declare, desc},
#include "timing/mem/mem_units.def"
#undef MEM_UNIT
    };
    for (const Row& r : t.rows) {
      t.infos.push_back({r.name, r.description, r.declare});
      config::PluginDecl d(nullptr, mem_unit_prefix(r.name), r.name);
      r.declare(d);
      t.decls.push_back(std::move(d));
    }
    return t;
  }();
  return t;
}

const config::PluginDecl& decl_of(const std::string& name) {
  const Table& t = table();
  for (size_t i = 0; i < t.rows.size(); ++i)
    if (name == t.rows[i].name) return t.decls[i];
  std::fprintf(stderr, "internal error: no memory-side unit '%s' in mem_units.def\n", name.c_str());
  std::abort();
}

[[noreturn]] void unit_bug(const char* what) {
  std::fprintf(stderr, "internal error: memory-side unit: %s\n", what);
  std::abort();
}

}  // namespace

// Only a unit that says it has a reply (or an access) is asked for it.
Packet& IMemUnit::front_reply(std::uint64_t) {
  unit_bug("front_reply without a reply");
}
const Packet& IMemUnit::front_access() const {
  unit_bug("front_access without an access");
}

std::string mem_unit_prefix(const std::string& name) {
  return "mem." + name;
}

const std::vector<config::PluginInfo>& mem_units() {
  return table().infos;
}

void declare_mem_units(config::Schema& s) {
  for (const Row& r : table().rows) {
    config::PluginDecl d(&s, mem_unit_prefix(r.name), r.name);
    r.declare(d);
  }
}

std::vector<MemUnitChoice> mem_unit_choices(const config::Config& c) {
  std::vector<MemUnitChoice> v;
  for (const Row& r : table().rows)
    v.push_back({r.name, r.make,
                 config::PluginParams::from(c, mem_unit_prefix(r.name), r.declare, r.name)});
  return v;
}

std::vector<MemUnitChoice> default_mem_unit_choices() {
  std::vector<MemUnitChoice> v;
  for (const Row& r : table().rows)
    v.push_back(
        {r.name, r.make, config::declared_defaults(mem_unit_prefix(r.name), r.name, r.declare)});
  return v;
}

const std::vector<config::StatDecl>& mem_unit_stats(const std::string& name) {
  return decl_of(name).stats();
}

const std::vector<config::RatioDecl>& mem_unit_ratios(const std::string& name) {
  return decl_of(name).ratios();
}

}  // namespace simtsync::mem
