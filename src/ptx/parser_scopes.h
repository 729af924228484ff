// Register names visible at a point of a function body: one map per open `{ }` scope, innermost
// last, so that sibling scopes may reuse a name and inner scopes may shadow outer ones.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace simtsync::ptx {

class RegisterScopes {
 public:
  void push() { maps_.emplace_back(); }
  void pop() { maps_.pop_back(); }
  std::size_t depth() const { return maps_.size(); }

  // False when the innermost scope already declares the name.
  bool declare(const std::string& name, int index) {
    return maps_.back().emplace(name, index).second;
  }

  // Register index of the innermost declaration, -1 when none.
  int find(std::string_view name) const {
    for (auto it = maps_.rbegin(); it != maps_.rend(); ++it) {
      auto f = it->find(name);
      if (f != it->end()) return f->second;
    }
    return -1;
  }

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::vector<std::unordered_map<std::string, int, Hash, std::equal_to<>>> maps_;
};

}  // namespace simtsync::ptx
