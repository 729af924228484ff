#include "func/analysis_cache.h"

#include <fmt/format.h>

#include "ptx/printer.h"

namespace simtsync::func {
namespace {

void add_vars(std::string& k, const char* what, const std::vector<ptx::Variable>& vars) {
  for (const auto& v : vars)
    k += fmt::format("{} {} {} {}\n", what, v.name, static_cast<int>(v.space),
                     static_cast<int>(v.ptr_space));
}

}  // namespace

std::string decode_key(const ptx::Module& m, const ptx::Function& f, std::uint64_t budget) {
  std::string k = fmt::format("{} {} budget {}\n", f.is_entry ? "entry" : "func", f.name, budget);
  add_vars(k, "param", f.params);
  add_vars(k, "local", f.locals);
  for (const auto& s : f.scopes) add_vars(k, "scope", s.vars);
  add_vars(k, "global", m.globals);
  for (const auto& l : f.labels) k += fmt::format("label {} {}\n", l.name, l.index);
  for (const auto& in : f.insts) {
    k += ptx::print_instruction(f, in);
    k += '\n';
  }
  return k;
}

std::shared_ptr<const DecodeMarks> AnalysisCache::get(const std::string& key,
                                                      const std::function<DecodeMarks()>& compute) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = map_.find(key); it != map_.end()) {
      ++hits_;
      return it->second;
    }
  }
  // Computed outside the lock: another thread asking for the same key computes it too, and
  // the first result stored wins (both are the same).
  auto marks = std::make_shared<const DecodeMarks>(compute());
  const std::lock_guard<std::mutex> lock(mutex_);
  return map_.try_emplace(key, std::move(marks)).first->second;
}

std::size_t AnalysisCache::size() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return map_.size();
}

std::uint64_t AnalysisCache::hits() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return hits_;
}

}  // namespace simtsync::func
